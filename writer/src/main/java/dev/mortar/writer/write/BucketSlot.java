package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;

/** One bucket of one partition on a write task: its file group and its buffer. */
record BucketSlot(String partitionPath, int bucket, String fileId, BucketBuffer buffer) {}
