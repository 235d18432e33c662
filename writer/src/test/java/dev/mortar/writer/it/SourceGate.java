package dev.mortar.writer.it;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Holds a {@link ChangelogSource} before the change at {@code offset} until {@code file} exists, so
 * a job in another process cannot end before its harness has done what must happen while it runs (a
 * TaskManager killed); the harness then {@link #open}s it. A restarted source finds it open.
 */
record SourceGate(int offset, String file) implements Serializable {
  boolean holds(int at) {
    return at >= offset && !Files.exists(Path.of(file));
  }

  void open() throws IOException {
    Files.createFile(Path.of(file));
  }
}
