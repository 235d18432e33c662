package dev.mortar.serde;

import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information of {@link MortarRowBatch}: always the {@link MortarRowBatchSerializer}.
 */
public final class MortarRowBatchTypeInfo extends OpaqueTypeInfo<MortarRowBatch> {
  private static final long serialVersionUID = 1L;

  public MortarRowBatchTypeInfo() {
    super(MortarRowBatch.class);
  }

  @Override
  protected TypeSerializer<MortarRowBatch> serializer() {
    return new MortarRowBatchSerializer();
  }
}
