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
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Merges one file slice (an optional base file and its log files) into the latest record of every
 * live key, and writes those records to a {@link BaseFileWriter}. The rules are the writer's and
 * Hudi's reader's: per key the record with the largest ordering value wins, the later one on equal
 * values (logs are later than the base file, and later logs than earlier ones); a delete is a
 * record like any other, and a key whose winner is a delete is not written.
 *
 * <pre>
 *   for each key share (hash of the key mod m = r), first the whole key space (m = 1):
 *     logs, oldest first ──append──▶ buffer (de-duplicates on append, in a bounded page pool)
 *         pool full? ──▶ count the share's records to the end of the logs, then split the share
 *                        into k (m·k; r, r+m, ... r+(k-1)m), k the power of two that fits them
 *     base file rows ──take(key)──▶ the log record of the key, if any: the winner is written
 *     buffer cursor ──────────────▶ the keys no base row had: written unless deleted
 * </pre>
 *
 * Memory is the pool's budget whatever the slice's size: a slice whose logs do not fit is merged in
 * several passes over disjoint key shares, each reading the files again. A pass reads only the key
 * of a record outside its share ({@link KeyFilter}): the log readers skip such a record's other
 * fields, the base file's reader its other columns. The base file is streamed, never held. One
 * merger serves one thread; its buffer is reused from slice to slice.
 */
final class SliceMerger implements AutoCloseable {
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
  private final Counts counts = new Counts();

  SliceMerger(FileSystem fs, RowType dataType, OrderingField storedOrdering, PagePool pool) {
    this.fs = fs;
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
   */
  Counts merge(Path partitionDir, String baseFile, Iterable<String> logFiles, BaseFileWriter out)
      throws IOException {
    counts.reset();
    Deque<KeyShare> shares = new ArrayDeque<>();
    shares.push(new KeyShare(1, 0));
    while (!shares.isEmpty()) {
      KeyShare share = shares.pop();
      buffer.clear();
      counts.passes++;
      ShareLoader loaded = loadLogs(partitionDir, logFiles, share);
      if (loaded.overflow > 0) {
        if (share.modulus() >= MAX_SHARES) {
          throw new IOException(
              "compaction memory is too small for the logs of "
                  + partitionDir
                  + " "
                  + logFiles
                  + ": even 1/"
                  + share.modulus()
                  + " of their keys does not fit; raise compaction.memory");
        }
        int parts = Math.min(loaded.partsNeeded(), MAX_SHARES / share.modulus());
        for (int part = parts - 1; part >= 0; part--) {
          shares.push(share.part(parts, part));
        }
        continue;
      }
      if (baseFile != null) {
        mergeBase(new Path(partitionDir, baseFile), share, out);
      }
      BufferCursor cursor = buffer.cursor();
      while (cursor.next()) {
        if (cursor.operation() == Operation.DELETE) {
          counts.deletes++;
        } else {
          out.write(cursor.row());
          counts.written++;
        }
      }
    }
    buffer.clear();
    return counts;
  }

  /**
   * Appends the share's records of every log; when the pool ran out ({@link ShareLoader#overflow}
   * above 0) the buffer is partial and the loader says how far the share must be split.
   */
  private ShareLoader loadLogs(Path partitionDir, Iterable<String> logFiles, KeyShare share)
      throws IOException {
    ShareLoader loader = new ShareLoader(share);
    long blocks = 0;
    long bytes = 0;
    for (String log : logFiles) {
      Path path = new Path(partitionDir, log);
      try {
        LogFileRead read = logReader.read(fs, path, loader, loader);
        blocks += read.dataBlocks() + read.deleteBlocks();
        bytes += read.bytes();
      } catch (IllegalArgumentException e) {
        throw new IOException("cannot compact log file " + path + ": " + e.getMessage(), e);
      }
    }
    if (loader.overflow > 0) {
      return loader;
    }
    counts.logRecords += loader.records;
    if (share.residue() == 0) { // one share of every split has residue 0: count the files once
      counts.logBlocks += blocks;
      counts.logBytes += bytes;
    }
    return loader;
  }

  private void mergeBase(Path baseFile, KeyShare share, BaseFileWriter out) throws IOException {
    baseReader.read(
        new FileSystemInputFile(fs, baseFile),
        row -> {
          BinaryStringData key = (BinaryStringData) row.getString(StoredRowType.RECORD_KEY);
          BufferCursor newer = buffer.take(key);
          if (newer == null || ordering.toLong(row) > newer.orderingValue()) {
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
        },
        share.modulus() == 1 ? KeyFilter.ALL : share::contains);
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
   * Feeds one share's log records into the buffer. Once the pool is full it only counts the share's
   * records that did not fit (their keys are read, nothing else), so that one pass tells how far
   * the share must be split.
   */
  private final class ShareLoader implements LogRecordSink, KeyFilter {
    private final KeyShare share;

    /** Records of the share in the buffer. */
    private long records;

    /** Records of the share that did not fit; the buffer is partial when this is above 0. */
    private long overflow;

    ShareLoader(KeyShare share) {
      this.share = share;
    }

    @Override
    public boolean accepts(byte[] utf8, int offset, int length) {
      if (!share.contains(utf8, offset, length)) {
        return false;
      }
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

    private void append(BinaryStringData key, long orderingValue, Operation op, BinaryRowData row) {
      if (buffer.append(key, orderingValue, op, row)) {
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
   * The keys whose hash is {@code residue} modulo {@code modulus}: a hash of the key's UTF-8 bytes
   * of its own, mixed so that a share's keys spread over the whole de-dup index, which places keys
   * by Flink's string hash.
   */
  record KeyShare(int modulus, int residue) {
    boolean contains(byte[] utf8, int offset, int length) {
      if (modulus == 1) {
        return true;
      }
      int hash = 1;
      for (int i = offset; i < offset + length; i++) {
        hash = 31 * hash + utf8[i];
      }
      return Math.floorMod(mix(hash), modulus) == residue;
    }

    /** Part {@code part} of {@code parts} (a power of two) of this share. */
    KeyShare part(int parts, int part) {
      return new KeyShare(modulus * parts, residue + part * modulus);
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
