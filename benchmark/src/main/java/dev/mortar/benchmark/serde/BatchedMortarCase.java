package dev.mortar.benchmark.serde;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.MortarRowBatch;
import dev.mortar.serde.MortarRowBatchReader;
import dev.mortar.serde.MortarRowBatchSerializer;
import dev.mortar.serde.MortarRowSerializer;
import dev.mortar.writer.assign.ShuffleBatcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Mortar's shuffle as the writer runs it: the sender adds each shuffle row to a {@link
 * MortarRowBatch} and sends the batch once it holds {@link ShuffleBatcher#BATCH_BYTES} (the last
 * one at the end); the receiver deserializes each batch without reuse, as Flink's network input
 * does, reads its rows as views with a {@link MortarRowBatchReader} and recycles it, as the write
 * task does. All rows go to one task, so they come back in order.
 */
final class BatchedMortarCase implements ShuffleCase {
  private final MortarRowSerializer rows;
  private final MortarRowBatchSerializer batches = new MortarRowBatchSerializer();
  private final List<MortarRow> records;
  private final SerdeCase.RecordBuilder<MortarRow> builder;
  private final MortarRowBatch batch = ShuffleBatcher.newBatch(0);
  private final MortarRowBatchReader reader;
  private final DataOutputSerializer out = new DataOutputSerializer(1 << 20);
  private final DataInputDeserializer in = new DataInputDeserializer();

  BatchedMortarCase(
      RowType rowType, List<MortarRow> records, SerdeCase.RecordBuilder<MortarRow> builder) {
    this.rows = new MortarRowSerializer(rowType);
    this.records = records;
    this.builder = builder;
    this.reader = new MortarRowBatchReader(rowType);
  }

  @Override
  public List<MortarRow> records() {
    return records;
  }

  @Override
  public void roundTrip(Blackhole blackhole) throws IOException {
    send(false);
    receive(blackhole, null);
  }

  @Override
  public void buildAndRoundTrip(Blackhole blackhole) throws IOException {
    send(true);
    receive(blackhole, null);
  }

  @Override
  public List<MortarRow> roundTripped() throws IOException {
    return receivedCopies(false);
  }

  @Override
  public List<MortarRow> builtRoundTripped() throws IOException {
    return receivedCopies(true);
  }

  private List<MortarRow> receivedCopies(boolean buildEach) throws IOException {
    send(buildEach);
    List<MortarRow> received = new ArrayList<>(records.size());
    receive(null, received);
    return received;
  }

  @Override
  public double bytesPerRecord() throws IOException {
    send(false);
    return (double) out.length() / records.size();
  }

  private void send(boolean buildEach) throws IOException {
    out.clear();
    batch.clear();
    for (int i = 0; i < records.size(); i++) {
      batch.add(buildEach ? builder.build(i) : records.get(i), rows);
      if (batch.sizeInBytes() >= ShuffleBatcher.BATCH_BYTES) {
        sendBatch();
      }
    }
    if (!batch.isEmpty()) {
      sendBatch();
    }
  }

  private void sendBatch() throws IOException {
    batches.serialize(batch, out);
    batch.clear();
  }

  /** Reads every row: its metadata into {@code blackhole}, or a copy of it into {@code copies}. */
  private void receive(Blackhole blackhole, List<MortarRow> copies) throws IOException {
    in.setBuffer(out.getSharedBuffer(), 0, out.length());
    // one action for every batch, as the write task passes its one row consumer
    MortarRowBatchReader.RowAction<RuntimeException> action =
        row -> {
          if (copies != null) {
            copies.add(rows.copy(row));
          } else {
            SerdeContender.readMortarRow(row, blackhole);
            blackhole.consume(row);
          }
        };
    while (in.available() > 0) {
      reader.forEachRowThenRecycle(batches.deserialize(in), action);
    }
  }
}
