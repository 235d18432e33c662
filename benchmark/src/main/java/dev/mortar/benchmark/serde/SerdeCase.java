package dev.mortar.benchmark.serde;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A contender that ships records one by one through its serializer: the serializer, the benchmark
 * records already in that contender's shape, how the sender builds such a record from what the
 * sink's key/bucket step holds (key bytes, partition, bucket, operation, the row as {@code
 * BinaryRowData}), and how a receiver reads a record's shuffle metadata (key, partition path,
 * bucket, operation).
 */
final class SerdeCase<T> implements ShuffleCase {
  /** Reads the shuffle metadata of a record into the blackhole, as the receiving writer would. */
  interface MetadataReader<T> {
    void read(T record, Blackhole blackhole);
  }

  /**
   * Builds the record of input {@code index} as the sender would, per record; it may return the
   * same object every time when the contender's serializer lets a sender reuse it.
   */
  interface RecordBuilder<T> {
    T build(int index);
  }

  private final TypeSerializer<T> serializer;
  private final List<T> records;
  private final MetadataReader<T> metadataReader;
  private final RecordBuilder<T> builder;
  private final DataOutputSerializer out = new DataOutputSerializer(1 << 20);
  private final DataInputDeserializer in = new DataInputDeserializer();

  SerdeCase(
      TypeSerializer<T> serializer,
      List<T> records,
      MetadataReader<T> metadataReader,
      RecordBuilder<T> builder) {
    this.serializer = serializer;
    this.records = records;
    this.metadataReader = metadataReader;
    this.builder = builder;
  }

  @Override
  public List<T> records() {
    return records;
  }

  /**
   * Serializes every record into one buffer, then deserializes them all without reuse (Flink's
   * default, object reuse off) and reads each one's metadata, as the receiving bucket writer does
   * before it buffers the row.
   */
  @Override
  public void roundTrip(Blackhole blackhole) throws IOException {
    serializeAll();
    readAll(blackhole);
  }

  /** The same, with each record built by the sender right before it is serialized. */
  @Override
  public void buildAndRoundTrip(Blackhole blackhole) throws IOException {
    serializeBuilt();
    readAll(blackhole);
  }

  /** The records after one serialize/deserialize round trip, for correctness checks. */
  @Override
  public List<T> roundTripped() throws IOException {
    serializeAll();
    return deserializeAll();
  }

  /** The built records after one round trip: they must equal {@link #records()}. */
  @Override
  public List<T> builtRoundTripped() throws IOException {
    serializeBuilt();
    return deserializeAll();
  }

  /** Average serialized size of the records, in bytes. */
  @Override
  public double bytesPerRecord() throws IOException {
    serializeAll();
    return (double) out.length() / records.size();
  }

  private void serializeAll() throws IOException {
    out.clear();
    for (T record : records) {
      serializer.serialize(record, out);
    }
  }

  private void serializeBuilt() throws IOException {
    out.clear();
    for (int i = 0; i < records.size(); i++) {
      serializer.serialize(builder.build(i), out);
    }
  }

  private void readAll(Blackhole blackhole) throws IOException {
    in.setBuffer(out.getSharedBuffer(), 0, out.length());
    for (int i = 0; i < records.size(); i++) {
      T record = serializer.deserialize(in);
      metadataReader.read(record, blackhole);
      blackhole.consume(record);
    }
  }

  private List<T> deserializeAll() throws IOException {
    in.setBuffer(out.getCopyOfBuffer());
    List<T> result = new ArrayList<>(records.size());
    for (int i = 0; i < records.size(); i++) {
      result.add(serializer.deserialize(in));
    }
    return result;
  }
}
