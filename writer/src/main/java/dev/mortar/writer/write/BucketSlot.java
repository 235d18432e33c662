package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;

/**
 * One bucket of one partition on a write task: its file group and the buffer that takes its rows
 * now. A flush seals that buffer and gives the slot a fresh one ({@link BucketBuffers#seal}).
 */
final class BucketSlot {
  private final String partitionPath;
  private final int bucket;
  private final String fileId;
  private BucketBuffer buffer;

  BucketSlot(String partitionPath, int bucket, String fileId, BucketBuffer buffer) {
    this.partitionPath = partitionPath;
    this.bucket = bucket;
    this.fileId = fileId;
    this.buffer = buffer;
  }

  String partitionPath() {
    return partitionPath;
  }

  int bucket() {
    return bucket;
  }

  String fileId() {
    return fileId;
  }

  BucketBuffer buffer() {
    return buffer;
  }

  void replaceBuffer(BucketBuffer fresh) {
    buffer = fresh;
  }
}
