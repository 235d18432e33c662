package dev.mortar.writer.table;

import java.util.Properties;

/**
 * Who holds a table's {@link WriterLease}: the writer's identity (kept in the job's checkpoints, so
 * a job restored from them is the same writer), the Flink job, the host of its JobManager and when
 * it started. A lease file holds these as properties.
 */
public record LeaseHolder(String writer, String job, String host, long startedMillis) {
  private static final String WRITER = "writer";
  private static final String JOB = "job";
  private static final String HOST = "host";
  private static final String STARTED = "started.millis";

  void putInto(Properties properties) {
    properties.setProperty(WRITER, writer);
    properties.setProperty(JOB, job);
    properties.setProperty(HOST, host);
    properties.setProperty(STARTED, Long.toString(startedMillis));
  }

  /**
   * @throws IllegalArgumentException if a property is missing
   */
  static LeaseHolder from(Properties properties) {
    for (String key : new String[] {WRITER, JOB, HOST, STARTED}) {
      if (properties.getProperty(key) == null) {
        throw new IllegalArgumentException("no '" + key + "' in " + properties);
      }
    }
    return new LeaseHolder(
        properties.getProperty(WRITER),
        properties.getProperty(JOB),
        properties.getProperty(HOST),
        Long.parseLong(properties.getProperty(STARTED)));
  }

  /** Whether {@code other} is this writer, or this Flink job (its JobManager started anew). */
  boolean sameWriterOrJob(LeaseHolder other) {
    return writer.equals(other.writer) || job.equals(other.job);
  }

  @Override
  public String toString() {
    return "job " + job + " on host " + host + " (writer " + writer + ")";
  }
}
