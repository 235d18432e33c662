package dev.mortar.writer.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Lists every file below a table's base path outside its {@code .hoodie} folder, each with the
 * partition path it lies in: its folder relative to the base path, {@code ""} for a file directly
 * below it.
 *
 * <p>On Hadoop's S3A it is one flat listing of the keys below the base path ({@link
 * FileSystem#listFiles(Path, boolean)}), a thousand keys per request however many partition folders
 * hold them; the {@code .hoodie} keys it also returns are left out. Elsewhere (HDFS, local disks)
 * it walks the folders with plain listings and never enters {@code .hoodie}, whose temporary files
 * come and go while it runs. A file deleted while the listing runs may or may not be in it (a clean
 * on another thread deletes superseded files at any time), and a folder deleted before the walk
 * reached it is skipped.
 */
public final class DataFiles {
  /** The scheme of Hadoop's S3A, whose recursive listing is flat. */
  private static final String FLAT_LISTING_SCHEME = "s3a";

  /** A file and the partition path of its folder. */
  public record DataFile(String partitionPath, FileStatus status) {
    public String name() {
      return status.getPath().getName();
    }
  }

  private DataFiles() {}

  public static List<DataFile> list(FileSystem fs, Path basePath) throws IOException {
    Path base = fs.makeQualified(basePath);
    List<DataFile> files = new ArrayList<>();
    if (FLAT_LISTING_SCHEME.equals(fs.getUri().getScheme())) {
      listFlat(fs, base, files);
    } else {
      walk(fs, base, "", files);
    }
    return files;
  }

  private static void listFlat(FileSystem fs, Path base, List<DataFile> into) throws IOException {
    int baseDepth = base.depth();
    RemoteIterator<LocatedFileStatus> listing = fs.listFiles(base, true);
    while (listing.hasNext()) {
      LocatedFileStatus status = listing.next();
      Deque<String> folders = new ArrayDeque<>();
      for (Path folder = status.getPath().getParent();
          folder.depth() > baseDepth;
          folder = folder.getParent()) {
        folders.addFirst(folder.getName());
      }
      if (!HudiTable.META_FOLDER.equals(folders.peekFirst())) {
        into.add(new DataFile(String.join("/", folders), status));
      }
    }
  }

  private static void walk(FileSystem fs, Path dir, String partitionPath, List<DataFile> into)
      throws IOException {
    FileStatus[] children;
    try {
      children = fs.listStatus(dir);
    } catch (FileNotFoundException gone) {
      return;
    }
    for (FileStatus child : children) {
      String name = child.getPath().getName();
      if (!child.isDirectory()) {
        into.add(new DataFile(partitionPath, child));
      } else if (!(partitionPath.isEmpty() && name.equals(HudiTable.META_FOLDER))) {
        walk(
            fs, child.getPath(), partitionPath.isEmpty() ? name : partitionPath + "/" + name, into);
      }
    }
  }
}
