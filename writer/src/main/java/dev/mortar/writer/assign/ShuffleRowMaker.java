package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.Operation;
import dev.mortar.serde.PayloadWriter;
import dev.mortar.writer.input.KeyFields;
import dev.mortar.writer.input.WriteInput;
import dev.mortar.writer.options.NullKeyPolicy;
import dev.mortar.writer.options.WriterOptions;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.BucketIndex;
import dev.mortar.writer.table.PartitionPaths;
import dev.mortar.writer.table.RecordKeys;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.types.RowKind;

/**
 * Turns a changelog {@link RowData} into the shuffle row {@link MortarRow}: Hudi's record key and
 * partition path, the bucket of the key, the operation and the row as {@code BinaryRowData}.
 * UPDATE_BEFORE rows are dropped (an upsert sink needs only the after image). A row without a
 * record key fails the job naming the fields and the row, or is dropped and counted ({@code
 * null-key.policy}). It runs in the first step of the sink, chained to its input: in {@link
 * ShuffleBatcher} in front of the bucket shuffle, or inside the write operator when one write task
 * takes its input's rows directly.
 */
public final class ShuffleRowMaker implements WriteInput<RowData> {
  private static final long serialVersionUID = 1L;

  private final SinkSettings settings;
  private final KeyFields keyFields;
  private final KeyFields partitionFields;

  private transient RecordKeyEncoder recordKeys;
  private transient PartitionPaths partitionPaths;
  private transient PayloadWriter payloadWriter;
  private transient MortarRow out;
  private transient String[] partitionValues;
  private transient String lastPartition;
  private transient BinaryStringData lastPartitionData;
  private transient Counter nullKeysDropped;

  public ShuffleRowMaker(SinkSettings settings) {
    this.settings = settings;
    this.keyFields = KeyFields.of(settings.rowType(), settings.recordKeyFields(), "record key");
    this.partitionFields =
        KeyFields.of(settings.rowType(), settings.partitionFields(), "partition");
  }

  @Override
  public void open(MetricGroup metrics) {
    recordKeys = RecordKeyEncoder.of(keyFields, RecordKeys.of(settings.tableSettings()));
    partitionPaths = PartitionPaths.of(settings.tableSettings());
    payloadWriter = new PayloadWriter(settings.rowType());
    out = new MortarRow();
    // Made before the first row, so that it takes the branches later rows take (rfc/0005,
    // "Per-job deoptimization").
    partitionValues = new String[partitionFields.size()];
    lastPartition = "";
    lastPartitionData = BinaryStringData.EMPTY_UTF8;
    nullKeysDropped = metrics.counter("numNullKeyRowsDropped");
  }

  @Override
  public void forEachRow(RowData row, RowConsumer rows) throws IOException, InterruptedException {
    MortarRow shuffleRow = toShuffleRow(row);
    if (shuffleRow != null) {
      rows.accept(shuffleRow);
    }
  }

  /**
   * The shuffle row of {@code row}, or {@code null} when the sink drops it. The returned row is
   * reused by the next call.
   */
  @Nullable
  public MortarRow toShuffleRow(RowData row) {
    if (row.getRowKind() == RowKind.UPDATE_BEFORE) {
      return null;
    }
    BinaryStringData recordKey = recordKeys.encode(row);
    if (recordKey == null) {
      if (settings.nullKeyPolicy() == NullKeyPolicy.DROP) {
        nullKeysDropped.inc();
        return null;
      }
      throw new IllegalArgumentException(
          "record key field(s) "
              + keyFields.names()
              + " are null or empty in row "
              + RowRenderer.render(row, settings.rowType())
              + "; set '"
              + WriterOptions.NULL_KEY_POLICY.key()
              + "' = 'drop' to drop and count such rows");
    }
    partitionValues = partitionFields.render(row, partitionValues);
    String partition = partitionPaths.build(partitionValues);
    if (!partition.equals(lastPartition)) {
      lastPartition = partition;
      lastPartitionData = BinaryStringData.fromString(partition);
    }
    out.setRecordKey(recordKey);
    out.setPartitionPath(lastPartitionData);
    out.setBucket(BucketIndex.bucketId(recordKey, settings.buckets()));
    out.setOperation(Operation.fromRowKind(row.getRowKind()));
    out.setPayload(payloadWriter.toBinaryRow(row));
    return out;
  }
}
