package dev.mortar.serde;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink type information of {@link MortarRow}: gives every stream of Mortar rows the {@link
 * MortarRowSerializer} for its payload row type, so nothing falls back to Kryo.
 */
public final class MortarRowTypeInfo extends OpaqueTypeInfo<MortarRow> {
  private static final long serialVersionUID = 1L;

  private final RowType payloadType;

  public MortarRowTypeInfo(RowType payloadType) {
    super(MortarRow.class);
    this.payloadType = payloadType;
  }

  public RowType getPayloadType() {
    return payloadType;
  }

  @Override
  protected TypeSerializer<MortarRow> serializer() {
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
}
