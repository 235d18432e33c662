package dev.mortar.serde;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information of a type Flink treats as one opaque value — not basic, not a tuple, not a key,
 * arity 1 — and always serializes with the serializer the subclass makes, so it never falls back to
 * Kryo. Two instances of a subclass are equal when they are of the same class; a subclass with
 * parameters (a payload row type) overrides {@code equals}, {@code hashCode} and {@code toString}.
 */
public abstract class OpaqueTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> typeClass;

  protected OpaqueTypeInfo(Class<T> typeClass) {
    this.typeClass = typeClass;
  }

  /** The serializer of every stream of this type. */
  protected abstract TypeSerializer<T> serializer();

  @Override
  public final boolean isBasicType() {
    return false;
  }

  @Override
  public final boolean isTupleType() {
    return false;
  }

  @Override
  public final int getArity() {
    return 1;
  }

  @Override
  public final int getTotalFields() {
    return 1;
  }

  @Override
  public final Class<T> getTypeClass() {
    return typeClass;
  }

  @Override
  public final boolean isKeyType() {
    return false;
  }

  @Override
  public final TypeSerializer<T> createSerializer(SerializerConfig config) {
    return serializer();
  }

  /** Flink 1.20's abstract variant; Flink 2 removed it, so it carries no {@code @Override}. */
  @Deprecated
  public final TypeSerializer<T> createSerializer(ExecutionConfig config) {
    return serializer();
  }

  @Override
  public final boolean canEqual(Object o) {
    return o != null && o.getClass() == getClass();
  }

  @Override
  public boolean equals(Object o) {
    return canEqual(o);
  }

  @Override
  public int hashCode() {
    return typeClass.hashCode();
  }

  @Override
  public String toString() {
    return typeClass.getSimpleName();
  }
}
