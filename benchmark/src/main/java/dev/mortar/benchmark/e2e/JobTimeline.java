package dev.mortar.benchmark.e2e;

import java.util.ArrayList;
import java.util.List;

/**
 * Samples, while one job runs, how many rows its source has emitted ({@link JobMetrics}) next to
 * the process's CPU and GC readings, and derives the job's rates from the samples.
 *
 * <p>The measured window starts at the last sample before the source's first row (job submission,
 * planning and MiniCluster start-up are left out) and ends at {@link #stop()}, called when the job
 * has finished (the sink's last flush and commit included).
 */
public final class JobTimeline implements AutoCloseable {
  private static final long SAMPLE_MILLIS = 20;

  private record Sample(long emitted, ProcessMeters.Reading reading) {}

  private final List<Sample> samples = new ArrayList<>();
  private final Thread sampler;
  private volatile boolean running = true;

  private JobTimeline() {
    sample();
    sampler = new Thread(this::sampleUntilStopped, "job-timeline-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Starts sampling now; call right before submitting the job. */
  public static JobTimeline start() {
    JobMetrics.reset();
    return new JobTimeline();
  }

  private void sampleUntilStopped() {
    while (running) {
      sample();
      try {
        Thread.sleep(SAMPLE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void sample() {
    samples.add(new Sample(JobMetrics.emitted(), ProcessMeters.read()));
  }

  /** Takes the last sample; call when the job has finished. */
  public void stop() throws InterruptedException {
    running = false;
    sampler.join();
    sample();
  }

  @Override
  public void close() throws InterruptedException {
    if (running) {
      stop();
    }
  }

  /** Rows the source emitted in total. */
  synchronized long emitted() {
    return samples.get(samples.size() - 1).emitted();
  }

  /** CPU, GC and wall time over the measured window. */
  public synchronized ProcessMeters.Reading window() {
    int start = 0;
    for (int i = 0; i < samples.size() && samples.get(i).emitted() == 0; i++) {
      start = i;
    }
    return samples.get(samples.size() - 1).reading().minus(samples.get(start).reading());
  }

  /** Resources from the first sample (job submission) to the last. */
  synchronized ProcessMeters.Reading whole() {
    return samples.get(samples.size() - 1).reading().minus(samples.get(0).reading());
  }

  /**
   * The source's rate between 10 % and 90 % of its rows, interpolated between samples; falls back
   * to the whole window's rate when the run was too short for samples to resolve it.
   */
  synchronized double steadyRowsPerSec() {
    long total = emitted();
    double from = instantOf(0.1 * total);
    double to = instantOf(0.9 * total);
    if (Double.isNaN(from) || Double.isNaN(to) || to - from < 5 * SAMPLE_MILLIS * 1e6) {
      return total / (window().wallNanos() / 1e9);
    }
    return 0.8 * total / ((to - from) / 1e9);
  }

  /** Seconds from the source's last row to the end of the job (the sink's drain, flush, commit). */
  synchronized double tailSeconds() {
    double sourceEnd = instantOf(emitted());
    long end = samples.get(samples.size() - 1).reading().wallNanos();
    return Double.isNaN(sourceEnd) ? 0 : (end - sourceEnd) / 1e9;
  }

  /** Nanotime at which the source had emitted {@code rows}, interpolated; NaN if never. */
  private double instantOf(double rows) {
    for (int i = 1; i < samples.size(); i++) {
      Sample before = samples.get(i - 1);
      Sample after = samples.get(i);
      if (before.emitted() < rows && after.emitted() >= rows) {
        double fraction = (rows - before.emitted()) / (double) (after.emitted() - before.emitted());
        long t0 = before.reading().wallNanos();
        return t0 + fraction * (after.reading().wallNanos() - t0);
      }
    }
    return Double.NaN;
  }
}
