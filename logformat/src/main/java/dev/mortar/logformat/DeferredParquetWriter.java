package dev.mortar.logformat;

import java.io.IOException;
import java.util.function.Supplier;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * The parquet-mr writer of one Parquet content after another (a log block, a base file), each
 * opened only once it is known where dictionary encoding can pay off. With a {@link
 * DictionarySampler}, the first records of a content are held as copies ({@link PendingRecords})
 * and sampled until the sample is full, the held bytes reach {@link #PENDING_BYTES_LIMIT} or the
 * content ends; then the writer is opened without a dictionary for the columns where it cannot pay
 * off, and the held records go first. Without a sampler the writer is opened at the first record.
 * Every writer borrows the thread's {@link ParquetWriterResources}, handed back when it closes.
 */
final class DeferredParquetWriter {
  /** Held bytes past which the writer is opened even if the sample is not full. */
  static final int PENDING_BYTES_LIMIT = 1 << 20;

  /** Told the key and sequence number counter of each record just before its row is written. */
  @FunctionalInterface
  interface RecordHeader {
    /** The key is {@code keyLength} bytes at {@code keyOffset} of {@code keySegments}. */
    void next(MemorySegment[] keySegments, int keyOffset, int keyLength, long seqCounter);
  }

  private final Supplier<ParquetWriterBuilder<BinaryRowData>> builders;
  private final DictionarySampler sampler;
  private final PendingRecords pending;
  private final RecordHeader header;
  private final ParquetWriterResources resources;
  private ParquetWriter<BinaryRowData> writer;

  /**
   * @param builders a new builder, every setting made but the per-column dictionary, per content
   * @param sampler null to open the writer at the first record, with the builder's settings
   * @param rowArity the arity of the rows written
   * @param header null when the rows need neither key nor sequence number
   * @param resources the buffers and compressors of the thread that writes
   */
  DeferredParquetWriter(
      Supplier<ParquetWriterBuilder<BinaryRowData>> builders,
      DictionarySampler sampler,
      int rowArity,
      RecordHeader header,
      ParquetWriterResources resources) {
    this.builders = builders;
    this.resources = resources;
    this.sampler = sampler;
    this.pending = sampler == null ? null : new PendingRecords(rowArity);
    this.header = header;
  }

  /**
   * Writes a record, or holds it while the dictionary is undecided. The key is {@code keyLength}
   * bytes at {@code keyOffset} of {@code keySegments}; the row may be reused once this returns.
   */
  void add(
      MemorySegment[] keySegments, int keyOffset, int keyLength, long seqCounter, BinaryRowData row)
      throws IOException {
    if (writer == null && sampler != null) {
      sampler.add(keySegments, keyOffset, keyLength, row);
      pending.add(keySegments, keyOffset, keyLength, seqCounter, row);
      if (sampler.full() || pending.sizeInBytes() >= PENDING_BYTES_LIMIT) {
        open();
      }
      return;
    }
    if (writer == null) {
      open();
    }
    write(keySegments, keyOffset, keyLength, seqCounter, row);
  }

  /** The bytes the content holds so far: what the writer buffered, or the held records. */
  long bufferedBytes() {
    if (writer != null) {
      return writer.getDataSize();
    }
    return pending == null ? 0 : pending.sizeInBytes();
  }

  /** Completes the content (opening its writer if no record did); the next record starts one. */
  void finish() throws IOException {
    if (writer == null) {
      open();
    }
    ParquetWriter<BinaryRowData> finished = writer;
    writer = null;
    close(finished);
  }

  /** Gives the content up: closes its writer if it is open; nothing may be added after. */
  void abort() throws IOException {
    if (writer != null) {
      ParquetWriter<BinaryRowData> open = writer;
      writer = null;
      close(open);
    }
  }

  private void close(ParquetWriter<BinaryRowData> closed) throws IOException {
    try {
      closed.close();
    } finally {
      resources.contentEnded();
    }
  }

  private void open() throws IOException {
    ParquetWriterBuilder<BinaryRowData> builder = resources.lendTo(builders.get());
    if (sampler != null) {
      for (String column : sampler.columnsWithoutDictionary()) {
        builder.withDictionaryEncoding(column, false);
      }
    }
    writer = builder.build();
    if (pending != null) {
      pending.drainTo(this::write);
    }
  }

  private void write(
      MemorySegment[] keySegments, int keyOffset, int keyLength, long seqCounter, BinaryRowData row)
      throws IOException {
    if (header != null) {
      header.next(keySegments, keyOffset, keyLength, seqCounter);
    }
    writer.write(row);
  }
}
