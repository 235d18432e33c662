package dev.mortar.writer.write;

import dev.mortar.serde.OpaqueTypeInfo;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information of {@link WriteResult}: always {@link WriteResultSerializer}, never Kryo. */
public final class WriteResultTypeInfo extends OpaqueTypeInfo<WriteResult> {
  private static final long serialVersionUID = 1L;

  public WriteResultTypeInfo() {
    super(WriteResult.class);
  }

  @Override
  protected TypeSerializer<WriteResult> serializer() {
    return WriteResultSerializer.INSTANCE;
  }
}
