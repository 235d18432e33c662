package dev.mortar.writer.compaction;

/** A file group: its partition (relative path, {@code ""} when unpartitioned) and file id. */
public record FileGroupId(String partitionPath, String fileId)
    implements Comparable<FileGroupId>, java.io.Serializable {
  @Override
  public int compareTo(FileGroupId other) {
    int byPartition = partitionPath.compareTo(other.partitionPath);
    return byPartition != 0 ? byPartition : fileId.compareTo(other.fileId);
  }

  @Override
  public String toString() {
    return partitionPath.isEmpty() ? fileId : partitionPath + "/" + fileId;
  }
}
