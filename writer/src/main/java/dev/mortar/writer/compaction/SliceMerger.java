package dev.mortar.writer.compaction;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferCursor;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.BaseFileWriter;
import dev.mortar.logformat.OrderingValue;
import dev.mortar.logformat.read.FileSystemInputFile;
import dev.mortar.logformat.read.KeyFilter;
import dev.mortar.logformat.read.LogFileRead;
import dev.mortar.logformat.read.LogFileReader;
import dev.mortar.logformat.read.LogRecordSink;
import dev.mortar.logformat.read.ParquetRowReader;
import dev.mortar.logformat.read.StoredRowType;
import dev.mortar.serde.Operation;
import dev.mortar.writer.input.OrderingField;
import java.io.File;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import javax.annotation.Nullable;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges one file slice (an optional base file and its log files) into the latest record of every
 * live key, and writes those records to a {@link BaseFileWriter}. The rules are the writer's and
 * Hudi's reader's: per key the record with the largest ordering value wins, the later one on equal
 * values (logs are later than the base file, and later logs than earlier ones); a delete is a
 * record like any other, and a key whose winner is a delete is not written.
 *
 * <pre>
 *   pass over a key share (hash of the key mod m = r), first the whole key space (m = 1):
 *     its log records, oldest first ──append──▶ buffer (de-duplicates on append, bounded pool)
 *         pool full? ──▶ count the share's remaining records (keys only), then split the share
 *                        into k parts (m·k; r, r+m, ... r+(k-1)m), k the power of two that fits
 *                        them: read its log records and base rows once more, each into its
 *                        part's spill files, and run one pass per part over those files
 *     its base rows ──take(key)──▶ the log record of the key, if any: the winner is written
 *     buffer cursor ──▶ the keys no base row had: written unless deleted
 * </pre>
 *
 * Memory is the pool's budget whatever the slice's size. A slice whose logs do not fit is merged in
 * several passes over disjoint key shares; its logs are read at most twice and its base file once
 * or twice (a share that still does not fit splits its own spill files the same way). Spill files
 * hold records in the order read, so equal ordering values are decided as from the files, and are
 * deleted as soon as their pass has read them, and whatever happens when the merge ends. Once the
 * first pass's pool is full it reads only the key of each further record ({@link KeyFilter}). One
 * merger serves one thread; its buffer is reused from slice to slice.
 */
final class SliceMerger implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceMerger.class);

  /** The most passes a slice may take before the pool is declared too small for it. */
  private static final int MAX_SHARES = 1 << 12;

  /**
   * Room left in each share of a split for keys spreading unevenly over the shares: a split plans
   * for this many times the records that did not fit.
   */
  private static final double SPLIT_HEADROOM = 1.25;

  /** The row a delete is buffered with: deletes carry only a key and an ordering value. */
  private static final BinaryRowData NO_ROW = emptyRow();

  private final FileSystem fs;
  private final LogFileReader logReader;
  private final ParquetRowReader baseReader;
  private final OrderingField ordering;
  private final BucketBuffer buffer;
  private final File spillDir;
  private final int storedArity;
  private final List<SpillFile> spills = new ArrayList<>();
  private final Counts counts = new Counts();
  private BooleanSupplier stop = () -> false;

  /**
   * @param spillDir the local folder for the records of passes still to come
   */
  SliceMerger(
      FileSystem fs, RowType dataType, OrderingField storedOrdering, PagePool pool, File spillDir) {
    this.fs = fs;
    this.spillDir = spillDir;
    this.storedArity = StoredRowType.of(dataType).getFieldCount();
    this.logReader = new LogFileReader(dataType);
    this.baseReader = new ParquetRowReader(StoredRowType.of(dataType));
    this.ordering = storedOrdering;
    this.buffer = pool.newBuffer("compaction", Deduplication.ON_APPEND);
  }

  /** What one merge read and wrote. */
  static final class Counts {
    long written;
    long deletes;
    long updatedBaseRows;
    long logRecords;
    long logBlocks;
    long logBytes;
    int passes;

    private void reset() {
      written = deletes = updatedBaseRows = logRecords = logBlocks = logBytes = passes = 0;
    }
  }

  /**
   * Merges the slice in {@code partitionDir} and writes its live records to {@code out}.
   *
   * @param baseFile the slice's base file, or null
   * @param logFiles the slice's logs, oldest first
   * @param stop asked for every record read, spilled or written; once true the merge ends with a
   *     {@link CancellationException}
   */
  Counts merge(
      Path partitionDir,
      String baseFile,
      Iterable<String> logFiles,
      BaseFileWriter out,
      BooleanSupplier stop)
      throws IOException {
    counts.reset();
    this.stop = stop;
    Deque<Pass> passes = new ArrayDeque<>();
    passes.push(new Pass(new KeyShare(1, 0), null, null));
    try {
      while (!passes.isEmpty()) {
        Pass pass = passes.pop();
        buffer.clear();
        counts.passes++;
        ShareLoader loaded = pass.logs == null ? loadLogs(partitionDir, logFiles) : loadSpill(pass);
        if (loaded.overflow > 0) {
          Path base = baseFile == null ? null : new Path(partitionDir, baseFile);
          split(pass, loaded.partsNeeded(), partitionDir, logFiles, base).forEach(passes::push);
          continue;
        }
        counts.logRecords += loaded.records;
        if (pass.logs != null) {
          delete(pass.logs);
        }
        if (pass.base != null) {
          pass.base.read(
              (operation, orderingValue, key, row) -> mergeBaseRow(row, key, orderingValue, out));
          delete(pass.base);
        } else if (baseFile != null) {
          mergeBase(new Path(partitionDir, baseFile), out);
        }
        BufferCursor cursor = buffer.cursor();
        while (cursor.next()) {
          checkNotStopped();
          if (cursor.operation() == Operation.DELETE) {
            counts.deletes++;
          } else {
            out.write(cursor.row());
            counts.written++;
          }
        }
      }
    } finally {
      buffer.clear();
      for (SpillFile spill : List.copyOf(spills)) {
        delete(spill);
      }
    }
    return counts;
  }

  /** Reads the log files into the buffer; it is partial if the loader overflowed. */
  private ShareLoader loadLogs(Path partitionDir, Iterable<String> logFiles) throws IOException {
    ShareLoader loader = new ShareLoader();
    for (String log : logFiles) {
      LogFileRead read = readLog(partitionDir, log, loader, loader);
      counts.logBlocks += read.dataBlocks() + read.deleteBlocks();
      counts.logBytes += read.bytes();
    }
    return loader;
  }

  private ShareLoader loadSpill(Pass pass) throws IOException {
    ShareLoader loader = new ShareLoader();
    pass.logs.read(
        (operation, orderingValue, key, row) ->
            loader.append(key, orderingValue, operation, row == null ? NO_ROW : row));
    return loader;
  }

  /**
   * Splits a pass whose records did not fit into {@code parts} passes over disjoint parts of its
   * share: reads its log records once more (the log files, or its own spill file, which is deleted)
   * and its base rows (the base file, or its own spill file), and writes each into the spill files
   * of its part. The parts are returned last first, to be pushed.
   */
  private List<Pass> split(
      Pass pass,
      int partsNeeded,
      Path partitionDir,
      Iterable<String> logFiles,
      @Nullable Path baseFile)
      throws IOException {
    if (pass.keys.modulus() >= MAX_SHARES) {
      throw new IOException(
          "compaction memory is too small for the logs of "
              + partitionDir
              + " "
              + logFiles
              + ": even 1/"
              + pass.keys.modulus()
              + " of their keys does not fit; raise compaction.memory");
    }
    int parts = Math.min(partsNeeded, MAX_SHARES / pass.keys.modulus());
    Partitioner logParts = new Partitioner(pass.keys, parts);
    if (pass.logs == null) {
      for (String log : logFiles) {
        readLog(partitionDir, log, logParts, KeyFilter.ALL);
      }
    } else {
      pass.logs.read(logParts::record);
      delete(pass.logs);
    }
    Partitioner baseParts = baseFile == null ? null : new Partitioner(pass.keys, parts);
    if (pass.base != null) {
      pass.base.read(baseParts::record);
      delete(pass.base);
    } else if (baseFile != null) {
      baseReader.read(new FileSystemInputFile(fs, baseFile), baseParts::row);
    }
    List<Pass> split = new ArrayList<>(parts);
    for (int part = parts - 1; part >= 0; part--) {
      split.add(
          new Pass(
              pass.keys.part(parts, part),
              logParts.finished(part),
              baseParts == null ? null : baseParts.finished(part)));
    }
    return split;
  }

  private LogFileRead readLog(Path partitionDir, String log, LogRecordSink sink, KeyFilter keys)
      throws IOException {
    Path path = new Path(partitionDir, log);
    try {
      return logReader.read(fs, path, sink, keys);
    } catch (IllegalArgumentException e) {
      throw new IOException("cannot compact log file " + path + ": " + e.getMessage(), e);
    }
  }

  private SpillFile newSpill() throws IOException {
    SpillFile spill = SpillFile.create(spillDir, storedArity, StoredRowType.RECORD_KEY);
    spills.add(spill);
    return spill;
  }

  /** Removes a spill file; one that cannot be removed is only logged (it is a local temp file). */
  private void delete(SpillFile spill) {
    spills.remove(spill);
    try {
      spill.delete();
    } catch (IOException e) {
      LOG.warn("Could not delete compaction spill file {}", spill, e);
    }
  }

  private void mergeBase(Path baseFile, BaseFileWriter out) throws IOException {
    baseReader.read(
        new FileSystemInputFile(fs, baseFile),
        row ->
            mergeBaseRow(
                row,
                (BinaryStringData) row.getString(StoredRowType.RECORD_KEY),
                ordering.toLong(row),
                out));
  }

  /** Writes a base row, or the log record of its key that wins over it. */
  private void mergeBaseRow(
      BinaryRowData row, BinaryStringData key, long orderingValue, BaseFileWriter out)
      throws IOException {
    checkNotStopped();
    BufferCursor newer = buffer.take(key);
    if (newer == null || orderingValue > newer.orderingValue()) {
      out.write(row);
      counts.written++;
      return;
    }
    counts.updatedBaseRows++;
    if (newer.operation() == Operation.DELETE) {
      counts.deletes++;
    } else {
      out.write(newer.row());
      counts.written++;
    }
  }

  private void checkNotStopped() {
    if (stop.getAsBoolean()) {
      throw new CancellationException("the compaction was told to stop");
    }
  }

  @Override
  public void close() {
    buffer.release();
  }

  private static BinaryRowData emptyRow() {
    BinaryRowData row = new BinaryRowData(0);
    new BinaryRowWriter(row).complete();
    return row;
  }

  /**
   * Feeds one pass's log records into the buffer. Once the pool is full it only counts the records
   * that did not fit (from the log files it reads their keys only), so that one pass tells how far
   * its share must be split.
   */
  private final class ShareLoader implements LogRecordSink, KeyFilter {
    /** Records in the buffer. */
    private long records;

    /** Records that did not fit; the buffer is partial when this is above 0. */
    private long overflow;

    @Override
    public boolean accepts(byte[] utf8, int offset, int length) {
      checkNotStopped();
      if (overflow > 0) {
        overflow++;
        return false;
      }
      return true;
    }

    @Override
    public void row(BinaryRowData stored) {
      BinaryStringData key = (BinaryStringData) stored.getString(StoredRowType.RECORD_KEY);
      append(key, ordering.toLong(stored), Operation.UPDATE, stored);
    }

    @Override
    public void delete(BinaryStringData key, String partitionPath, OrderingValue value) {
      append(key, ordering.toLong(value), Operation.DELETE, NO_ROW);
    }

    /** Appends a record of the share; once the pool is full, only counts it. */
    void append(BinaryStringData key, long orderingValue, Operation op, BinaryRowData row) {
      checkNotStopped();
      if (overflow > 0) {
        overflow++;
      } else if (buffer.append(key, orderingValue, op, row)) {
        records++;
      } else {
        overflow = 1;
      }
    }

    /** Shares to split this one into so that each fits: a power of two, at least 2. */
    int partsNeeded() {
      double needed = SPLIT_HEADROOM * (records + overflow) / Math.max(1, records);
      return Math.max(2, Integer.highestOneBit((int) Math.ceil(needed) - 1) << 1);
    }
  }

  /**
   * One pass: a key share, and the spill files holding its log records and its base rows (both null
   * for the first pass, which reads the slice's files; {@code base} also null without a base file).
   */
  private record Pass(KeyShare keys, @Nullable SpillFile logs, @Nullable SpillFile base) {}

  /** Writes each record of a share (log records, or base rows) into the spill file of its part. */
  private final class Partitioner implements LogRecordSink {
    private final KeyShare share;
    private final int parts;
    private final SpillFile[] files;
    private byte[] keyBytes = new byte[64];

    Partitioner(KeyShare share, int parts) throws IOException {
      this.share = share;
      this.parts = parts;
      this.files = new SpillFile[parts];
      for (int part = 0; part < parts; part++) {
        files[part] = newSpill();
      }
    }

    @Override
    public void row(BinaryRowData stored) throws IOException {
      BinaryStringData key = (BinaryStringData) stored.getString(StoredRowType.RECORD_KEY);
      fileOf(key).writeUpsert(ordering.toLong(stored), stored);
    }

    @Override
    public void delete(BinaryStringData key, String partitionPath, OrderingValue value)
        throws IOException {
      fileOf(key).writeDelete(ordering.toLong(value), key);
    }

    void record(Operation operation, long orderingValue, BinaryStringData key, BinaryRowData row)
        throws IOException {
      if (operation == Operation.DELETE) {
        fileOf(key).writeDelete(orderingValue, key);
      } else {
        fileOf(key).writeUpsert(orderingValue, row);
      }
    }

    /** Part {@code part}'s spill file, written to the end. */
    SpillFile finished(int part) throws IOException {
      files[part].finishWriting();
      return files[part];
    }

    private SpillFile fileOf(BinaryStringData key) {
      checkNotStopped();
      int length = key.getSizeInBytes();
      if (length > keyBytes.length) {
        keyBytes = new byte[Math.max(length, 2 * keyBytes.length)];
      }
      BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), keyBytes, 0, length);
      return files[share.partOf(parts, keyBytes, 0, length)];
    }
  }

  /**
   * The keys whose hash is {@code residue} modulo {@code modulus}: a hash of the key's UTF-8 bytes
   * of its own, mixed so that a share's keys spread over the whole de-dup index, which places keys
   * by Flink's string hash.
   */
  record KeyShare(int modulus, int residue) {
    /** Which of {@code parts} parts of this share ({@link #part}) holds a key of the share. */
    int partOf(int parts, byte[] utf8, int offset, int length) {
      return (Math.floorMod(hash(utf8, offset, length), modulus * parts) - residue) / modulus;
    }

    /** Part {@code part} of {@code parts} (a power of two) of this share. */
    KeyShare part(int parts, int part) {
      return new KeyShare(modulus * parts, residue + part * modulus);
    }

    private static int hash(byte[] utf8, int offset, int length) {
      int hash = 1;
      for (int i = offset; i < offset + length; i++) {
        hash = 31 * hash + utf8[i];
      }
      return mix(hash);
    }

    private static int mix(int hash) {
      int h = hash ^ (hash >>> 16);
      h *= 0x85ebca6b;
      h ^= h >>> 13;
      h *= 0xc2b2ae35;
      return h ^ (h >>> 16);
    }
  }
}
