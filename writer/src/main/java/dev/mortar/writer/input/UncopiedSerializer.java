package dev.mortar.writer.input;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Another serializer whose {@code copy} of a record is the record itself. Flink copies a record
 * between chained operators with the receiving operator's input serializer; this one, in front of
 * an operator that keeps no record ({@link UncopiedInput}), makes that copy free. Reading and
 * writing bytes is the other serializer's, so records that cross the network are unchanged.
 */
final class UncopiedSerializer<T> extends TypeSerializer<T> {
  private static final long serialVersionUID = 1L;

  private final TypeSerializer<T> serializer;

  UncopiedSerializer(TypeSerializer<T> serializer) {
    this.serializer = serializer;
  }

  @Override
  public boolean isImmutableType() {
    return serializer.isImmutableType();
  }

  @Override
  public TypeSerializer<T> duplicate() {
    TypeSerializer<T> duplicate = serializer.duplicate();
    return duplicate == serializer ? this : new UncopiedSerializer<>(duplicate);
  }

  @Override
  public T createInstance() {
    return serializer.createInstance();
  }

  /** The record itself: its reader copies what it needs before the producer may change it. */
  @Override
  public T copy(T from) {
    return from;
  }

  @Override
  public T copy(T from, T reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return serializer.getLength();
  }

  @Override
  public void serialize(T record, DataOutputView target) throws IOException {
    serializer.serialize(record, target);
  }

  @Override
  public T deserialize(DataInputView source) throws IOException {
    return serializer.deserialize(source);
  }

  @Override
  public T deserialize(T reuse, DataInputView source) throws IOException {
    return serializer.deserialize(reuse, source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serializer.copy(source, target);
  }

  /**
   * The other serializer's: the bytes are its, and an input serializer is never part of a
   * checkpoint's state.
   */
  @Override
  public TypeSerializerSnapshot<T> snapshotConfiguration() {
    return serializer.snapshotConfiguration();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UncopiedSerializer<?> that && serializer.equals(that.serializer);
  }

  @Override
  public int hashCode() {
    return 31 * UncopiedSerializer.class.hashCode() + serializer.hashCode();
  }
}
