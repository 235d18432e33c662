package dev.mortar.serde;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink type information of {@link MortarRow}: gives every stream of Mortar rows the {@link
 * MortarRowSerializer} for its payload row type, so nothing falls back to Kryo.
 */
public final class MortarRowTypeInfo extends TypeInformation<MortarRow> {
  private static final long serialVersionUID = 1L;

  private final RowType payloadType;

  public MortarRowTypeInfo(RowType payloadType) {
    this.payloadType = payloadType;
  }

  public RowType getPayloadType() {
    return payloadType;
  }

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
  public Class<MortarRow> getTypeClass() {
    return MortarRow.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<MortarRow> createSerializer(SerializerConfig config) {
    return new MortarRowSerializer(payloadType);
  }

  @Override
  @Deprecated
  public TypeSerializer<MortarRow> createSerializer(ExecutionConfig config) {
    return new MortarRowSerializer(payloadType);
  }

  @Override
  public String toString() {
    return "MortarRow<" + payloadType.asSummaryString() + ">";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MortarRowTypeInfo
        && payloadType.equals(((MortarRowTypeInfo) o).payloadType);
  }

  @Override
  public int hashCode() {
    return payloadType.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof MortarRowTypeInfo;
  }
}
