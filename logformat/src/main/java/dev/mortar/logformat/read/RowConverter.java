package dev.mortar.logformat.read;

import java.util.Arrays;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;

/**
 * Builds one ROW value per Parquet group into a reused {@link BinaryRowData}: the field converters
 * write straight into its writer, and at the group's end the fields the file left out are set to
 * null. A nested row is then copied into its parent's slot; the top-level row (no parent) is the
 * record.
 */
final class RowConverter extends GroupConverter {
  private final RowType rowType;
  private final String path;
  private final BinaryRowData row;
  private final BinaryRowWriter writer;
  private final Converter[] fields;
  private final boolean[] written;
  private final Slot parent;
  private final RowDataSerializer serializer;

  /**
   * {@code group} is the projected group of {@code rowType} (its fields, in its order, less those
   * the file lacks); {@code parent} is where the finished row goes, or null for the top-level row.
   */
  RowConverter(GroupType group, RowType rowType, String path, Slot parent) {
    this.rowType = rowType;
    this.path = path;
    this.row = new BinaryRowData(rowType.getFieldCount());
    this.writer = new BinaryRowWriter(row);
    this.fields = new Converter[group.getFieldCount()];
    this.written = new boolean[rowType.getFieldCount()];
    for (int g = 0; g < fields.length; g++) {
      String name = group.getType(g).getName();
      int i = rowType.getFieldIndex(name);
      String fieldPath = path.isEmpty() ? name : path + "." + name;
      fields[g] =
          Converters.of(group.getType(g), rowType.getTypeAt(i), fieldPath, new FieldSlot(i));
    }
    this.parent = parent;
    this.serializer = parent == null ? null : new RowDataSerializer(rowType);
  }

  /** The row built by the last group; rewritten by the next. */
  BinaryRowData row() {
    return row;
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return fields[fieldIndex];
  }

  @Override
  public void start() {
    writer.reset();
    Arrays.fill(written, false);
  }

  @Override
  public void end() {
    for (int i = 0; i < written.length; i++) {
      if (!written[i]) {
        setNull(i, rowType.getTypeAt(i));
      }
    }
    writer.complete();
    if (parent != null) {
      int pos = parent.claim();
      parent.writer().writeRow(pos, row, serializer);
    }
  }

  /** Wide decimals and timestamps keep their variable-length space, as Flink's own writers do. */
  private void setNull(int pos, LogicalType type) {
    if (!type.isNullable()) {
      throw new ParquetDecodingException(
          "column "
              + (path.isEmpty() ? "" : path + ".")
              + rowType.getFieldNames().get(pos)
              + " is NOT NULL in the row type ("
              + type.asSummaryString()
              + ") but null in the file");
    }
    switch (type.getTypeRoot()) {
      case DECIMAL:
        int precision = LogicalTypeChecks.getPrecision(type);
        if (!DecimalData.isCompact(precision)) {
          writer.writeDecimal(pos, null, precision);
          return;
        }
        break;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        int timestampPrecision = LogicalTypeChecks.getPrecision(type);
        if (!TimestampData.isCompact(timestampPrecision)) {
          writer.writeTimestamp(pos, null, timestampPrecision);
          return;
        }
        break;
      default:
        break;
    }
    writer.setNullAt(pos);
  }

  private final class FieldSlot implements Slot {
    private final int pos;

    FieldSlot(int pos) {
      this.pos = pos;
    }

    @Override
    public int claim() {
      written[pos] = true;
      return pos;
    }

    @Override
    public BinaryWriter writer() {
      return writer;
    }
  }
}
