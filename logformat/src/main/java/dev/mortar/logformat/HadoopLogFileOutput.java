package dev.mortar.logformat;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;

/** A log file written through Hadoop's {@code FileSystem} (HDFS, or local without direct I/O). */
final class HadoopLogFileOutput extends LogFileOutput {
  private final FSDataOutputStream out;

  HadoopLogFileOutput(FSDataOutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    out.write(bytes, offset, length);
  }

  @Override
  void syncAndClose() throws IOException {
    out.hsync();
    out.close();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
