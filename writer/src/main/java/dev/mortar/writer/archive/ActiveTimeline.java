package dev.mortar.writer.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One listing of {@code .hoodie/timeline/} grouped into {@link ActiveInstant}s, oldest requested
 * time first. Files that are not instant files (the {@code history} folder, Hadoop's {@code .crc}
 * files) are skipped.
 */
final class ActiveTimeline {
  private static final String REQUESTED = ".requested";
  private static final String INFLIGHT = ".inflight";

  private ActiveTimeline() {}

  static List<ActiveInstant> list(FileSystem fs, Path timelineDir) {
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(timelineDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list timeline " + timelineDir, e);
    }
    List<String> names = new ArrayList<>();
    for (FileStatus status : statuses) {
      if (status.isFile()) {
        names.add(status.getPath().getName());
      }
    }
    return of(names);
  }

  /** The instants the given file names make up. */
  static List<ActiveInstant> of(List<String> fileNames) {
    Map<String, Builder> byRequested = new TreeMap<>();
    for (String name : fileNames) {
      int dot = name.indexOf('.');
      if (dot <= 0 || !Character.isDigit(name.charAt(0))) {
        continue;
      }
      String times = name.substring(0, dot);
      int underscore = times.indexOf('_');
      String requested = underscore < 0 ? times : times.substring(0, underscore);
      Builder instant = byRequested.computeIfAbsent(requested, Builder::new);
      if (underscore >= 0) {
        instant.completed(name, times.substring(underscore + 1), name.substring(dot + 1));
      } else if (name.endsWith(REQUESTED)) {
        instant.pending(name, name.substring(dot + 1, name.length() - REQUESTED.length()), true);
      } else if (name.endsWith(INFLIGHT)) {
        instant.pending(name, name.substring(dot + 1, name.length() - INFLIGHT.length()), false);
      }
    }
    List<ActiveInstant> instants = new ArrayList<>();
    byRequested.values().forEach(b -> instants.add(b.build()));
    return instants;
  }

  private static final class Builder {
    private final String requested;
    private final List<String> pendingFiles = new ArrayList<>();
    private String action;
    private String completion;
    private String requestedFile;
    private String completedFile;

    Builder(String requested) {
      this.requested = requested;
    }

    void completed(String name, String completionTime, String completedAction) {
      completedFile = name;
      completion = completionTime;
      action = completedAction;
    }

    void pending(String name, String pendingAction, boolean isRequested) {
      pendingFiles.add(name);
      if (isRequested) {
        requestedFile = name;
      }
      if (action == null) {
        action = pendingAction;
      }
    }

    ActiveInstant build() {
      List<String> files = new ArrayList<>(pendingFiles);
      files.sort(null);
      if (completedFile != null) {
        files.add(completedFile);
      }
      return new ActiveInstant(
          requested, action, completion, requestedFile, completedFile, List.copyOf(files));
    }
  }
}
