package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDeletesTest {
  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.toUri());
  }

  @Test
  void deletesEveryFileAndGivesItsSizeOrMinusOneForAFileAlreadyGone() throws Exception {
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      files.add(write("dt=" + (i % 3) + "/f" + i, i));
    }
    files.add(new Path(base, "gone"));

    long[] sizes = FileDeletes.delete(fs, files);

    for (int i = 0; i < 50; i++) {
      assertThat(sizes[i]).as("size of f%s", i).isEqualTo(i);
      assertThat(fs.exists(files.get(i))).as("f%s exists", i).isFalse();
    }
    assertThat(sizes[50]).isEqualTo(-1);
  }

  @Test
  void aFileThatCannotBeDeletedFailsNamingItAfterTheOthersAreDeleted() throws Exception {
    Path first = write("a", 1);
    Path folder = write("full/x", 1).getParent();
    Path last = write("b", 1);

    assertThatThrownBy(() -> FileDeletes.delete(fs, List.of(first, folder, last)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot delete " + folder);
    assertThat(fs.exists(first)).isFalse();
    assertThat(fs.exists(last)).isFalse();
  }

  @Test
  void deletesOnThreadsNamedAfterTheCaller() throws Exception {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    FileSystem recording =
        new FilterFileSystem(fs) {
          @Override
          public boolean delete(Path path, boolean recursive) throws IOException {
            threads.add(Thread.currentThread().getName());
            return super.delete(path, recursive);
          }
        };
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      files.add(write("f" + i, 1));
    }
    String caller = Thread.currentThread().getName();

    FileDeletes.delete(recording, files);

    assertThat(threads).isNotEmpty().allMatch(name -> name.startsWith(caller + "-deletes"));
  }

  private Path write(String relative, int bytes) throws IOException {
    Path file = new Path(base, relative);
    try (var out = fs.create(file)) {
      out.write(new byte[bytes]);
    }
    return file;
  }
}
