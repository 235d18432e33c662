package dev.mortar.writer.compaction;

import dev.mortar.serde.OpaqueTypeInfo;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.util.InstantiationUtil;

/**
 * Type information of the compaction stages' messages: a few records per file group and compaction,
 * never in state, so Java serialization is all they need (and Kryo, which cannot set a record's
 * fields, is never used).
 */
final class SerializableTypeInfo<T extends Serializable> extends OpaqueTypeInfo<T> {
  private static final long serialVersionUID = 1L;

  SerializableTypeInfo(Class<T> type) {
    super(type);
  }

  @Override
  protected TypeSerializer<T> serializer() {
    return new JavaSerializer<>(getTypeClass());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SerializableTypeInfo<?> other && other.getTypeClass() == getTypeClass();
  }

  @Override
  public int hashCode() {
    return getTypeClass().hashCode();
  }

  /** Java serialization of one immutable type, each value length-prefixed. */
  static final class JavaSerializer<T extends Serializable> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;
    private final Class<T> type;

    JavaSerializer(Class<T> type) {
      this.type = type;
    }

    @Override
    public boolean isImmutableType() {
      return true;
    }

    @Override
    public TypeSerializer<T> duplicate() {
      return this;
    }

    @Override
    public T createInstance() {
      return null;
    }

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
      return -1;
    }

    @Override
    public void serialize(T value, DataOutputView out) throws IOException {
      byte[] bytes = InstantiationUtil.serializeObject(value);
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    @Override
    public T deserialize(DataInputView in) throws IOException {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      try {
        return type.cast(InstantiationUtil.deserializeObject(bytes, type.getClassLoader()));
      } catch (ClassNotFoundException e) {
        throw new IOException("cannot read a " + type.getName(), e);
      }
    }

    @Override
    public T deserialize(T reuse, DataInputView in) throws IOException {
      return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
      int length = in.readInt();
      out.writeInt(length);
      out.write(in, length);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof JavaSerializer<?> other && other.type == type;
    }

    @Override
    public int hashCode() {
      return Objects.hash(type);
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
      return new Snapshot<>(type);
    }
  }

  /** The serializer's class, for a restore (these messages are never in state). */
  public static final class Snapshot<T extends Serializable> implements TypeSerializerSnapshot<T> {
    private Class<T> type;

    public Snapshot() {}

    Snapshot(Class<T> type) {
      this.type = type;
    }

    @Override
    public int getCurrentVersion() {
      return 1;
    }

    @Override
    public void writeSnapshot(DataOutputView out) throws IOException {
      out.writeUTF(type.getName());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void readSnapshot(int version, DataInputView in, ClassLoader classLoader)
        throws IOException {
      try {
        type = (Class<T>) Class.forName(in.readUTF(), false, classLoader);
      } catch (ClassNotFoundException e) {
        throw new IOException("cannot restore a serializer snapshot", e);
      }
    }

    @Override
    public TypeSerializer<T> restoreSerializer() {
      return new JavaSerializer<>(type);
    }

    @Override
    public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
        TypeSerializerSnapshot<T> oldSnapshot) {
      return TypeSerializerSchemaCompatibility.compatibleAsIs();
    }
  }
}
