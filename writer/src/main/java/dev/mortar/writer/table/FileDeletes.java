package dev.mortar.writer.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Deletes many files of a table side by side: a clean's superseded slices, an aborted instant's log
 * files. On an object store each delete is a few requests of one network round trip each, so
 * thousands of files deleted one after the other take thousands of round trips in a row; up to
 * {@value #THREADS} threads at a time divide that wait.
 *
 * <p>Deleting is idempotent: a file already gone counts as gone, and a failed call leaves the files
 * it did not reach for the caller's next attempt. The threads live for one call and are named after
 * the calling thread.
 */
public final class FileDeletes {
  /** Deletes in flight at most, per call. */
  static final int THREADS = 16;

  private FileDeletes() {}

  /**
   * Deletes every file of {@code files} and returns what each was: its size in bytes, or -1 for a
   * file that was gone already, in the order of {@code files}.
   *
   * @throws IOException naming the first file that could not be deleted, once every delete ended
   */
  public static long[] delete(FileSystem fs, List<Path> files) throws IOException {
    long[] sizes = new long[files.size()];
    if (files.isEmpty()) {
      return sizes;
    }
    ExecutorService threads =
        Executors.newFixedThreadPool(
            Math.min(THREADS, files.size()),
            new ExecutorThreadFactory(Thread.currentThread().getName() + "-deletes"));
    try {
      List<Callable<Long>> deletes = new ArrayList<>(files.size());
      for (Path file : files) {
        deletes.add(() -> deleteOne(fs, file));
      }
      List<Future<Long>> results = threads.invokeAll(deletes);
      IOException failure = null;
      for (int i = 0; i < sizes.length; i++) {
        try {
          sizes[i] = results.get(i).get();
        } catch (ExecutionException e) {
          if (failure == null) {
            failure = new IOException("cannot delete " + files.get(i), e.getCause());
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      return sizes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while deleting " + files.size() + " files");
    } finally {
      threads.shutdownNow();
    }
  }

  private static long deleteOne(FileSystem fs, Path file) throws IOException {
    try {
      long size = fs.getFileStatus(file).getLen();
      if (!fs.delete(file, false) && fs.exists(file)) {
        throw new IOException("the file system did not delete it");
      }
      return size;
    } catch (FileNotFoundException gone) {
      return -1;
    }
  }
}
