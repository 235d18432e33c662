package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing that raced with the archiver: it returned an instant's requested file, which the
 * archiver then deleted, and missed its completed file, deleted after it. The snapshot must not
 * take such an instant for pending.
 */
class TimelineSnapshotListingTest {
  private static final String ARCHIVED = "20261126100000000";
  private static final String KEPT = "20261126110000000";

  @TempDir Path timeline;

  @Test
  void anInstantArchivedDuringTheListingIsNotPending() throws Exception {
    Files.createFile(timeline.resolve(KEPT + ".deltacommit.requested"));
    Files.createFile(timeline.resolve(KEPT + "_20261126110000100.deltacommit"));
    Files.createFile(timeline.resolve(KEPT + ".compaction.requested"));
    StaleListing fs =
        new StaleListing(
            List.of(
                ARCHIVED + ".deltacommit.requested",
                ARCHIVED + ".compaction.requested",
                ARCHIVED + ".clean.requested",
                KEPT + ".deltacommit.requested",
                KEPT + "_20261126110000100.deltacommit",
                KEPT + ".compaction.requested"));

    TimelineSnapshot snapshot = TimelineSnapshot.read(fs, dir());

    assertThat(snapshot.pendingCompactions()).containsExactly(KEPT);
    assertThat(snapshot.pendingCleans()).isEmpty();
    assertThat(snapshot.hasInstant(ARCHIVED)).isFalse();
    assertThat(snapshot.completionOf(ARCHIVED)).as("older than the timeline: archived").isNotNull();
  }

  private org.apache.hadoop.fs.Path dir() {
    return new org.apache.hadoop.fs.Path(timeline.toUri());
  }

  /** The local file system whose listing of the timeline returns fixed names. */
  private final class StaleListing extends RawLocalFileSystem {
    private final List<String> names;

    StaleListing(List<String> names) throws IOException {
      this.names = names;
      initialize(java.net.URI.create("file:///"), new Configuration());
    }

    @Override
    public FileStatus[] listStatus(org.apache.hadoop.fs.Path dir) {
      return names.stream()
          .map(name -> new FileStatus(0, false, 1, 0, 0, new org.apache.hadoop.fs.Path(dir, name)))
          .toArray(FileStatus[]::new);
    }
  }
}
