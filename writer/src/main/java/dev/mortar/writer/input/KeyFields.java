package dev.mortar.writer.input;

import java.io.Serializable;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The record key or partition fields of a row, rendered to the strings Hudi's keys are built of.
 */
public final class KeyFields implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<String> names;
  private final FieldRenderer[] renderers;

  private KeyFields(List<String> names, FieldRenderer[] renderers) {
    this.names = names;
    this.renderers = renderers;
  }

  /** Fails naming the field when one is missing or of a type keys cannot be built from. */
  public static void check(RowType rowType, List<String> fields, String role) {
    of(rowType, fields, role);
  }

  public static KeyFields of(RowType rowType, List<String> fields, String role) {
    FieldRenderer[] renderers = new FieldRenderer[fields.size()];
    for (int i = 0; i < renderers.length; i++) {
      String field = fields.get(i);
      int position = rowType.getFieldIndex(field);
      if (position < 0) {
        throw new IllegalArgumentException(
            role
                + " field '"
                + field
                + "' is not a column; columns are "
                + rowType.getFieldNames());
      }
      FieldRenderer.check(field, rowType.getTypeAt(position));
      renderers[i] = new FieldRenderer(position, rowType.getTypeAt(position));
    }
    return new KeyFields(List.copyOf(fields), renderers);
  }

  public List<String> names() {
    return names;
  }

  public int size() {
    return renderers.length;
  }

  public FieldRenderer field(int index) {
    return renderers[index];
  }

  /** The rendered values, null for null fields. */
  public String[] render(RowData row, @Nullable String[] reuse) {
    String[] values =
        reuse != null && reuse.length == renderers.length ? reuse : new String[renderers.length];
    for (int i = 0; i < renderers.length; i++) {
      values[i] = renderers[i].render(row);
    }
    return values;
  }
}
