package dev.mortar.logformat;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Writes the log files of one file group for one instant — one flush — the way Hudi's append handle
 * does: data blocks cut at {@link LogWriterOptions#maxBlockSizeBytes()}, then one delete block if
 * there were deletes, all with the header {INSTANT_TIME, SCHEMA}.
 *
 * <p>Files are created lazily and exclusively ({@link LogFileOutput#create}: with direct I/O on a
 * local disk that supports it, else through Hadoop's {@link FileSystem} with {@code
 * overwrite=false}), so an existing file — a previous flush, or the remains of a crashed attempt —
 * is never appended to: the writer takes the next version instead — also when the file is still
 * held open by an attempt that has not died yet (HDFS {@code AlreadyBeingCreatedException}). A file
 * that has reached {@link LogWriterOptions#maxFileSizeBytes()} after a block is closed and the next
 * version started. Each file is forced to disk before it is closed. A writer is used for one flush
 * and then discarded.
 */
public final class LogFileWriter implements Closeable {
  /**
   * The output buffer asked of the file system. Hadoop's local file system hands its 512-byte
   * checksum chunks on in groups of 4.6 KB, and with its default 4 KB buffer each group becomes one
   * {@code write(2)}, which costs the kernel more per byte than large writes; this buffer collects
   * them (rfc/0003 "Writing the bytes" has the measurements). HDFS ignores the value.
   */
  static final int OUTPUT_BUFFER_BYTES = 64 * 1024;

  private final FileSystem fs;
  private final Path partitionDir;
  private final String partitionPath;
  private final String fileId;
  private final String instantTime;
  private final String writeToken;
  private final LogWriterOptions options;
  private final Schema schema;
  private final byte[] header;
  private final MetaFieldValues metaFields;
  private final DataBlockBuilder dataBlock;
  private final DeleteBlockBuilder deleteBlock;
  private final BlockBuffer frame = new BlockBuffer(256);
  private final List<LogFileStat> stats = new ArrayList<>();

  private long seqCounter;
  private LogFileOutput out;
  private String fileName;
  private int version;
  private long fileBytes;
  private long fileWrites;
  private long fileDeletes;
  private int fileBlocks;
  private boolean finished;

  public LogFileWriter(
      FileSystem fs,
      Path tableBasePath,
      String partitionPath,
      String fileId,
      String instantTime,
      String writeToken,
      RowType rowType,
      LogWriterOptions options) {
    this(
        fs,
        tableBasePath,
        partitionPath,
        fileId,
        instantTime,
        writeToken,
        rowType,
        options,
        options.newBlockScratch());
  }

  /**
   * Like the contract constructor, with what data blocks are encoded with supplied by the caller: a
   * task that flushes many times keeps one {@link BlockScratch}, which writers open at the same
   * time must not share.
   */
  public LogFileWriter(
      FileSystem fs,
      Path tableBasePath,
      String partitionPath,
      String fileId,
      String instantTime,
      String writeToken,
      RowType rowType,
      LogWriterOptions options,
      BlockScratch scratch) {
    LogFileName.validate(fileId, instantTime, writeToken);
    this.fs = fs;
    this.partitionPath = partitionPath;
    this.partitionDir =
        partitionPath.isEmpty() ? tableBasePath : new Path(tableBasePath, partitionPath);
    this.fileId = fileId;
    this.instantTime = instantTime;
    this.writeToken = writeToken;
    this.options = options;
    this.schema = AvroSchemas.of(rowType, options.avroRecordName(), options.metaFields());
    this.header = LogBlockLayout.header(instantTime, schema.toString());
    MetaFieldValues meta = new MetaFieldValues(instantTime, writeToken, partitionPath, fileId);
    this.metaFields = options.metaFields() ? meta : null;
    this.dataBlock =
        options.blockFormat() == LogBlockFormat.AVRO
            ? new AvroBlockBuilder(rowType, metaFields, scratch.content())
            : new ParquetBlockBuilder(
                rowType,
                schema,
                metaFields,
                options.parquetCodec(),
                options.parquetDictionary(),
                options.parquetDictionaryPerColumn(),
                scratch);
    this.deleteBlock = new DeleteBlockBuilder(meta.partitionPath());
  }

  /** The schema in every block's SCHEMA header (with meta fields when they are on). */
  public Schema avroSchema() {
    return schema;
  }

  /**
   * Adds a data record; its meta fields are derived (commit time, seqno, key, partition, fileId).
   */
  public void write(BinaryStringData recordKey, BinaryRowData row) throws IOException {
    checkOpen();
    dataBlock.add(recordKey, seqCounter++, row);
    if (dataBlock.bufferedBytes() >= options.maxBlockSizeBytes()) {
      flushDataBlock();
    }
  }

  /** Adds a delete; all deletes go into one delete block after the data blocks. */
  public void delete(BinaryStringData recordKey, OrderingValue ordering) {
    checkOpen();
    deleteBlock.add(recordKey, ordering);
  }

  /**
   * Writes the pending data block and the delete block, syncs and closes the last file. Returns one
   * stat per file written, oldest first (empty when nothing was written).
   */
  public List<LogFileStat> finish() throws IOException {
    checkOpen();
    if (dataBlock.recordCount() > 0) {
      flushDataBlock();
    }
    int deletes = deleteBlock.count();
    if (deletes > 0) {
      writeBlock(LogBlockLayout.DELETE_BLOCK, deleteBlock.finishBlock(), 0, deletes);
    }
    closeFile();
    finished = true;
    return List.copyOf(stats);
  }

  /** Without {@link #finish()}: abandons the current file (closes it as it is). */
  @Override
  public void close() throws IOException {
    finished = true;
    if (out != null) {
      LogFileOutput abandoned = out;
      out = null;
      abandoned.close();
    }
  }

  private void flushDataBlock() throws IOException {
    int records = dataBlock.recordCount();
    writeBlock(options.blockFormat().blockType(), dataBlock.finishBlock(), records, 0);
  }

  private void writeBlock(int blockType, BlockBuffer content, long writes, long deletes)
      throws IOException {
    openIfNeeded();
    try {
      fileBytes += LogBlockLayout.writeBlock(out, frame, blockType, header, content);
    } catch (IOException e) {
      throw failedWriting(e);
    }
    fileWrites += writes;
    fileDeletes += deletes;
    fileBlocks++;
    if (fileBytes >= options.maxFileSizeBytes()) {
      closeFile();
    }
  }

  private void openIfNeeded() throws IOException {
    if (out != null) {
      return;
    }
    while (out == null) {
      version++;
      fileName = LogFileName.of(fileId, instantTime, version, writeToken);
      try {
        out =
            LogFileOutput.create(
                fs, new Path(partitionDir, fileName), options.directIo(), OUTPUT_BUFFER_BYTES);
      } catch (FileAlreadyExistsException | AlreadyBeingCreatedException exists) {
        // Never append to an existing file (an earlier flush or a crashed attempt): next version.
      } catch (RemoteException remote) {
        // HDFS: a previous attempt that is not dead yet still holds the lease on this version.
        if (!AlreadyBeingCreatedException.class.getName().equals(remote.getClassName())) {
          throw remote;
        }
      }
    }
    fileBytes = 0;
    fileWrites = 0;
    fileDeletes = 0;
    fileBlocks = 0;
  }

  private void closeFile() throws IOException {
    if (out == null) {
      return;
    }
    try {
      out.syncAndClose();
    } catch (IOException e) {
      throw failedWriting(e);
    }
    out = null;
    stats.add(
        new LogFileStat(
            partitionPath,
            fileId,
            fileName,
            version,
            fileBytes,
            fileWrites,
            fileDeletes,
            fileBlocks));
  }

  /**
   * {@code cause} of a write to the current file, with the file's path (a full disk names none).
   */
  private IOException failedWriting(IOException cause) {
    return new IOException(
        "cannot write log file " + new Path(partitionDir, fileName) + ": " + cause.getMessage(),
        cause);
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException(
          "log writer for file group " + fileId + " at instant " + instantTime + " is finished");
    }
  }
}
