package dev.mortar.writer.assign;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The row as {@code BinaryRowData}, as {@code RowDataSerializer.toBinaryRow} makes it, but with one
 * writer per field chosen at construction: primitives and strings are copied without boxing or a
 * per-value type switch; other types go through Flink's generic {@link BinaryWriter#write}. A
 * {@code BinaryRowData} input is returned as is. The returned row is reused by the next call.
 */
final class PayloadWriter {
  /** Copies field {@code pos} of a row whose field is not null. */
  private interface FieldCopier {
    void copy(RowData row, BinaryRowWriter writer, int pos);
  }

  private final FieldCopier[] copiers;
  private final BinaryRowData reuse;
  private final BinaryRowWriter writer;

  PayloadWriter(RowType rowType) {
    copiers = new FieldCopier[rowType.getFieldCount()];
    for (int i = 0; i < copiers.length; i++) {
      copiers[i] = copierFor(rowType.getTypeAt(i), i);
    }
    reuse = new BinaryRowData(copiers.length);
    writer = new BinaryRowWriter(reuse);
  }

  BinaryRowData toBinaryRow(RowData row) {
    if (row instanceof BinaryRowData binary) {
      return binary;
    }
    writer.reset();
    writer.writeRowKind(row.getRowKind());
    for (int i = 0; i < copiers.length; i++) {
      if (row.isNullAt(i)) {
        writer.setNullAt(i);
      } else {
        copiers[i].copy(row, writer, i);
      }
    }
    writer.complete();
    return reuse;
  }

  private static FieldCopier copierFor(LogicalType type, int position) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> (row, writer, pos) -> writer.writeBoolean(pos, row.getBoolean(pos));
      case TINYINT -> (row, writer, pos) -> writer.writeByte(pos, row.getByte(pos));
      case SMALLINT -> (row, writer, pos) -> writer.writeShort(pos, row.getShort(pos));
      case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH ->
          (row, writer, pos) -> writer.writeInt(pos, row.getInt(pos));
      case BIGINT, INTERVAL_DAY_TIME ->
          (row, writer, pos) -> writer.writeLong(pos, row.getLong(pos));
      case FLOAT -> (row, writer, pos) -> writer.writeFloat(pos, row.getFloat(pos));
      case DOUBLE -> (row, writer, pos) -> writer.writeDouble(pos, row.getDouble(pos));
      case CHAR, VARCHAR -> (row, writer, pos) -> writer.writeString(pos, row.getString(pos));
      default -> {
        RowData.FieldGetter getter = RowData.createFieldGetter(type, position);
        TypeSerializer<?> serializer = InternalSerializers.create(type);
        yield (row, writer, pos) ->
            BinaryWriter.write(writer, pos, getter.getFieldOrNull(row), type, serializer);
      }
    };
  }
}
