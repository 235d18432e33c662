package dev.mortar.writer.table;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Hudi's simple bucket index (§11 of hudi-format.md): which bucket a record key hashes to, which
 * write task owns a (partition, bucket), and the file group id of a bucket.
 *
 * <p>File ids are {@code %08d(bucket)} followed by the tail of a name-based UUID of (table,
 * partition, bucket), e.g. {@code 00000005-735b-4315-aeaf-aae945c5a2fe}, with no {@code -0} suffix,
 * as Hudi's Flink bucket writer names them. Being derived, not random, a bucket keeps one file
 * group for the life of the table across failures and restarts without state or listing.
 */
public final class BucketIndex {
  private static final int BUCKET_DIGITS = 8;

  private BucketIndex() {}

  /** Hudi's {@code BucketIdentifier.getBucketId(recordKey, indexKeyFields = record key fields)}. */
  public static int bucketId(String recordKey, int numBuckets) {
    return (hashKeys(recordKey).hashCode() & Integer.MAX_VALUE) % numBuckets;
  }

  /**
   * {@link #bucketId(String, int)} of the key's text, without building a {@code String} when the
   * key is ASCII in one segment and is a simple key (no {@code ,} or no {@code :}): Hudi hashes
   * {@code List.of(key)}, whose hash is {@code 31 + key.hashCode()}, and an ASCII string's hash is
   * the same polynomial over its bytes. Any other key takes the {@code String} path, so the result
   * is always Hudi's bucket.
   */
  public static int bucketId(BinaryStringData recordKey, int numBuckets) {
    recordKey.ensureMaterialized();
    MemorySegment[] segments = recordKey.getSegments();
    int offset = recordKey.getOffset();
    int size = recordKey.getSizeInBytes();
    if (segments.length != 1 || offset + size > segments[0].size()) {
      return bucketId(recordKey.toString(), numBuckets);
    }
    MemorySegment segment = segments[0];
    int hash = 0;
    boolean comma = false;
    boolean colon = false;
    for (int i = offset; i < offset + size; i++) {
      byte b = segment.get(i);
      if (b < 0) {
        return bucketId(recordKey.toString(), numBuckets);
      }
      comma |= b == ',';
      colon |= b == ':';
      hash = 31 * hash + b;
    }
    if (comma && colon) {
      return bucketId(recordKey.toString(), numBuckets);
    }
    return ((31 + hash) & Integer.MAX_VALUE) % numBuckets;
  }

  /**
   * Hudi's {@code BucketIndexUtil.getPartitionIndexFunc(parallelism)}: the write task that owns a
   * bucket of a partition.
   */
  public static int taskFor(String partitionPath, int bucket, int numBuckets, int parallelism) {
    long partitionStart = (long) ((partitionPath.hashCode() & Integer.MAX_VALUE) % parallelism);
    return (int) ((partitionStart * numBuckets + bucket) % parallelism);
  }

  /** The file group id of a bucket: same table, partition and bucket, same id, always. */
  public static String fileId(String tableName, String partitionPath, int bucket) {
    if (bucket < 0 || bucket >= 100_000_000) {
      throw new IllegalArgumentException("bucket must be in [0, 99999999], got " + bucket);
    }
    byte[] name =
        (tableName + '\n' + partitionPath + '\n' + bucket).getBytes(StandardCharsets.UTF_8);
    String uuid = UUID.nameUUIDFromBytes(name).toString();
    return String.format("%08d", bucket) + uuid.substring(BUCKET_DIGITS);
  }

  /** Hudi's {@code BucketIdentifier.bucketIdFromFileId}. */
  public static int bucketOfFileId(String fileId) {
    return Integer.parseInt(fileId.substring(0, BUCKET_DIGITS));
  }

  /**
   * Hudi's {@code KeyGenUtils.extractRecordKeysByFields} with the index key fields equal to the
   * record key fields: a key without {@code ,} or without {@code :} is a simple key; otherwise the
   * values of its {@code field:value} pairs, {@code __null__} read as null and {@code __empty__} as
   * "". A value may contain {@code :} and {@code ,}: a value ends at the last {@code ,} before the
   * next {@code :} that has a {@code ,} after the value's start.
   */
  static List<String> hashKeys(String recordKey) {
    if (recordKey.indexOf(',') < 0 || recordKey.indexOf(':') < 0) {
      return Arrays.asList(recordKey);
    }
    List<String> values = new ArrayList<>();
    int processed = 0;
    while (processed < recordKey.length()) {
      int valueStart = recordKey.indexOf(':', processed) + 1;
      int nextColon = recordKey.indexOf(':', valueStart);
      int comma = nextColon < 0 ? -1 : recordKey.lastIndexOf(',', nextColon);
      while (comma < valueStart && nextColon > 0) {
        nextColon = recordKey.indexOf(':', nextColon + 1);
        comma = recordKey.lastIndexOf(',', nextColon);
      }
      if (comma > 0) {
        values.add(decode(recordKey.substring(valueStart, comma)));
        processed = comma + 1;
      } else {
        values.add(decode(recordKey.substring(valueStart)));
        processed = recordKey.length();
      }
    }
    return values;
  }

  private static String decode(String value) {
    return switch (value) {
      case RecordKeys.NULL_VALUE -> null;
      case RecordKeys.EMPTY_VALUE -> "";
      default -> value;
    };
  }
}
