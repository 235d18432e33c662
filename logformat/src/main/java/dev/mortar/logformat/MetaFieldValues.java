package dev.mortar.logformat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The values of Hudi's five meta fields for the records of one {@link LogFileWriter}
 * (shared/spec/hudi-format.md §10): commit time = the instant, sequence number {@code
 * <instant>_<taskPartition>_<counter>}, the record key, the partition path and — in log records —
 * the fileId (not the file name). The caller supplies the counter (a {@link LogFileWriter} counts
 * from 0).
 */
public final class MetaFieldValues {
  private final byte[] instant;
  private final byte[] seqnoPrefix;
  private final byte[] partitionPath;
  private final byte[] fileId;

  public MetaFieldValues(String instant, String writeToken, String partitionPath, String fileId) {
    this.instant = utf8(instant);
    this.seqnoPrefix = utf8(instant + "_" + taskPartition(writeToken) + "_");
    this.partitionPath = utf8(partitionPath);
    this.fileId = utf8(fileId);
  }

  /**
   * The task partition id, the first part of a write token {@code <partition>-<stage>-<attempt>}.
   */
  static String taskPartition(String writeToken) {
    int dash = writeToken.indexOf('-');
    return dash < 0 ? writeToken : writeToken.substring(0, dash);
  }

  /** Writes the five meta fields as Avro unions {@code ["null","string"]}, branch 1. */
  void encodeAvro(BinaryStringData recordKey, long seqCounter, BlockBuffer out) {
    out.writeByte(2);
    out.writeAvroBytes(instant);
    out.writeByte(2);
    out.writeAvroLong(seqnoPrefix.length + digits(seqCounter));
    out.writeBytes(seqnoPrefix, 0, seqnoPrefix.length);
    out.writeAsciiDigits(seqCounter);
    out.writeByte(2);
    recordKey.ensureMaterialized();
    out.writeAvroBytes(recordKey.getSegments(), recordKey.getOffset(), recordKey.getSizeInBytes());
    out.writeByte(2);
    out.writeAvroBytes(partitionPath);
    out.writeByte(2);
    out.writeAvroBytes(fileId);
  }

  byte[] instant() {
    return instant;
  }

  byte[] partitionPath() {
    return partitionPath;
  }

  byte[] fileId() {
    return fileId;
  }

  /** {@code <instant>_<taskPartition>_}: the sequence number without its counter. */
  byte[] seqnoPrefix() {
    return seqnoPrefix;
  }

  private static int digits(long value) {
    int digits = 1;
    while (value >= 10) {
      value /= 10;
      digits++;
    }
    return digits;
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
