package dev.mortar.writer.it;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * Hadoop's S3A file system with the {@link Failures} point {@link Failures.Point#COMMIT_PUBLISH}:
 * the rename (on S3 a copy, then a delete) that publishes a delta commit file throws before it
 * starts. Installed as {@code fs.s3a.impl} (test resource core-site.xml); unarmed it is plain S3A.
 */
public final class FaultyS3AFileSystem extends S3AFileSystem {
  @Override
  public boolean rename(Path source, Path target) throws IOException {
    if (target.getName().endsWith(".deltacommit")) {
      Failures.count(Failures.Point.COMMIT_PUBLISH, 1, target.getName());
    }
    return super.rename(source, target);
  }
}
