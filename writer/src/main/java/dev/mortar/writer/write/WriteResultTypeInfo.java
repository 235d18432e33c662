package dev.mortar.writer.write;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link WriteResult}: always {@link WriteResultSerializer}, never Kryo. */
public final class WriteResultTypeInfo extends TypeInformation<WriteResult> {
  private static final long serialVersionUID = 1L;

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<WriteResult> getTypeClass() {
    return WriteResult.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<WriteResult> createSerializer(SerializerConfig config) {
    return WriteResultSerializer.INSTANCE;
  }

  @Override
  @Deprecated
  public TypeSerializer<WriteResult> createSerializer(ExecutionConfig config) {
    return WriteResultSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "WriteResult";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WriteResultTypeInfo;
  }

  @Override
  public int hashCode() {
    return WriteResultTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof WriteResultTypeInfo;
  }
}
