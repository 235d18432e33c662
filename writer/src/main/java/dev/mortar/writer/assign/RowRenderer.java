package dev.mortar.writer.assign;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Renders a row as {@code +I(id=1, name=x)} for error messages. */
final class RowRenderer {
  private RowRenderer() {}

  static String render(RowData row, RowType rowType) {
    StringBuilder text = new StringBuilder(row.getRowKind().shortString()).append('(');
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      Object value = RowData.createFieldGetter(rowType.getTypeAt(i), i).getFieldOrNull(row);
      text.append(rowType.getFieldNames().get(i)).append('=').append(value);
    }
    return text.append(')').toString();
  }
}
