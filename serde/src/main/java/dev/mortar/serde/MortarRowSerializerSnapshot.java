package dev.mortar.serde;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.StringValue;

/**
 * What Flink stores in a checkpoint about a {@link MortarRowSerializer}: the snapshot version
 * (equal to the {@link MortarRowWireFormat#VERSION} the state was written in) and the payload row
 * type as its serializable SQL string ({@code LogicalType#asSerializableString}).
 *
 * <p>Compatibility of a restored snapshot (old) with the serializer of the new job:
 *
 * <ul>
 *   <li><b>compatible as is</b> when the old payload bytes can be read as the new payload type
 *       unchanged: equal types, or types that differ only in ways the binary row does not encode
 *       (field names, NOT NULL becoming nullable, longer VARCHAR — Flink's {@code
 *       LogicalTypeCasts.supportsAvoidingCast(old, new)});
 *   <li><b>incompatible</b> otherwise: any other type change, added or removed fields, a nullable
 *       field becoming NOT NULL, another serializer. There is no migration path: the job must start
 *       without that state.
 * </ul>
 */
public final class MortarRowSerializerSnapshot implements TypeSerializerSnapshot<MortarRow> {
  private static final int CURRENT_VERSION = MortarRowWireFormat.VERSION;

  private RowType payloadType;

  /** For Flink, which restores a snapshot through this constructor and {@link #readSnapshot}. */
  public MortarRowSerializerSnapshot() {}

  MortarRowSerializerSnapshot(RowType payloadType) {
    this.payloadType = payloadType;
  }

  /** The payload row type of the serializer this snapshot describes. */
  public RowType getPayloadType() {
    return payloadType;
  }

  @Override
  public int getCurrentVersion() {
    return CURRENT_VERSION;
  }

  @Override
  public void writeSnapshot(DataOutputView out) throws IOException {
    StringValue.writeString(payloadType.asSerializableString(), out);
  }

  @Override
  public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
      throws IOException {
    if (readVersion != CURRENT_VERSION) {
      throw new IOException(
          "cannot restore MortarRowSerializer snapshot version "
              + readVersion
              + ": this build reads version "
              + CURRENT_VERSION
              + " only");
    }
    String typeString = StringValue.readString(in);
    LogicalType type = LogicalTypeParser.parse(typeString, userCodeClassLoader);
    if (!(type instanceof RowType)) {
      throw new IOException(
          "MortarRowSerializer snapshot holds payload type '" + typeString + "', expected a ROW");
    }
    payloadType = (RowType) type;
  }

  @Override
  public TypeSerializer<MortarRow> restoreSerializer() {
    return new MortarRowSerializer(payloadType);
  }

  @Override
  public TypeSerializerSchemaCompatibility<MortarRow> resolveSchemaCompatibility(
      TypeSerializerSnapshot<MortarRow> oldSerializerSnapshot) {
    if (!(oldSerializerSnapshot instanceof MortarRowSerializerSnapshot)) {
      return TypeSerializerSchemaCompatibility.incompatible();
    }
    RowType oldType = ((MortarRowSerializerSnapshot) oldSerializerSnapshot).payloadType;
    if (oldType.equals(payloadType)
        || LogicalTypeCasts.supportsAvoidingCast(oldType, payloadType)) {
      return TypeSerializerSchemaCompatibility.compatibleAsIs();
    }
    return TypeSerializerSchemaCompatibility.incompatible();
  }
}
