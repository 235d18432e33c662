package dev.mortar.writer.input;

import java.util.Map;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A stream type as another type describes it, whose serializer does not copy ({@link
 * UncopiedSerializer}): the input type of an operator that keeps no record ({@link UncopiedInput}).
 */
final class UncopiedTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final TypeInformation<T> type;

  UncopiedTypeInfo(TypeInformation<T> type) {
    this.type = type;
  }

  @Override
  public boolean isBasicType() {
    return type.isBasicType();
  }

  @Override
  public boolean isTupleType() {
    return type.isTupleType();
  }

  @Override
  public int getArity() {
    return type.getArity();
  }

  @Override
  public int getTotalFields() {
    return type.getTotalFields();
  }

  @Override
  public Class<T> getTypeClass() {
    return type.getTypeClass();
  }

  @Override
  public Map<String, TypeInformation<?>> getGenericParameters() {
    return type.getGenericParameters();
  }

  @Override
  public boolean isKeyType() {
    return type.isKeyType();
  }

  @Override
  public boolean isSortKeyType() {
    return type.isSortKeyType();
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return new UncopiedSerializer<>(type.createSerializer(config));
  }

  /**
   * Flink 1.20's abstract variant; Flink 2 removed it, so it carries no {@code @Override} and calls
   * only what both lines have.
   */
  @Deprecated
  public TypeSerializer<T> createSerializer(ExecutionConfig config) {
    return createSerializer(config.getSerializerConfig());
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof UncopiedTypeInfo;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UncopiedTypeInfo<?> that && type.equals(that.type);
  }

  @Override
  public int hashCode() {
    return 31 * UncopiedTypeInfo.class.hashCode() + type.hashCode();
  }

  @Override
  public String toString() {
    return "Uncopied(" + type + ")";
  }
}
