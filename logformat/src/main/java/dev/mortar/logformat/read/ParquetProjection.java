package dev.mortar.logformat.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The requested schema of a read: the file's columns a row type asks for, matched by name at every
 * level of nesting and put in the row type's order, so the file's other columns are not decoded. A
 * nullable field the file does not have (written before the table gained it, {@code
 * SchemaEvolution}) is left out: the converters match the requested fields to the row type's by
 * name and give the missing ones null. A missing NOT NULL field fails the read.
 *
 * <p>Arrays may be stored in the 3-level layout ({@code group (LIST) { repeated group list {
 * element } }}) or the 2-level legacy layouts ({@code repeated <type> array}); {@link
 * #repeatedIsElement} tells them apart by the rules of the Parquet format's LIST backward
 * compatibility section. Maps are {@code group (MAP) { repeated group key_value { key; value } }}.
 */
final class ParquetProjection {
  private ParquetProjection() {}

  static MessageType of(MessageType file, RowType rowType, String fileName) throws IOException {
    return new MessageType(file.getName(), fields(file, rowType, "", fileName));
  }

  /**
   * Whether the repeated field of list group {@code list} is the element itself (2-level layouts)
   * rather than a group that wraps it (3-level layout).
   */
  static boolean repeatedIsElement(GroupType list) {
    Type repeated = list.getType(0);
    return repeated.isPrimitive()
        || repeated.asGroupType().getFieldCount() > 1
        || repeated.getName().equals("array")
        || repeated.getName().equals(list.getName() + "_tuple");
  }

  private static List<Type> fields(GroupType group, RowType rowType, String parent, String file)
      throws IOException {
    List<Type> fields = new ArrayList<>();
    for (RowType.RowField field : rowType.getFields()) {
      String path = parent.isEmpty() ? field.getName() : parent + "." + field.getName();
      if (!group.containsField(field.getName())) {
        if (field.getType().isNullable()) {
          continue;
        }
        throw new IOException(
            "NOT NULL column "
                + path
                + " of the row type is missing from Parquet file "
                + file
                + ", whose "
                + (parent.isEmpty() ? "columns" : parent + " fields")
                + " are "
                + group.getFields().stream().map(Type::getName).toList());
      }
      fields.add(project(group.getType(field.getName()), field.getType(), path, file));
    }
    return fields;
  }

  private static Type project(Type type, LogicalType flinkType, String path, String file)
      throws IOException {
    switch (flinkType.getTypeRoot()) {
      case ROW:
        GroupType row = group(type, flinkType, path, file, "a group");
        return row.withNewFields(fields(row, (RowType) flinkType, path, file));
      case ARRAY:
        GroupType list = collection(type, flinkType, path, file, "a LIST group");
        LogicalType elementType = ((ArrayType) flinkType).getElementType();
        if (repeatedIsElement(list)) {
          return list.withNewFields(project(list.getType(0), elementType, path + "[]", file));
        }
        GroupType wrapper = list.getType(0).asGroupType();
        return list.withNewFields(
            wrapper.withNewFields(project(wrapper.getType(0), elementType, path + "[]", file)));
      case MAP:
        GroupType map = collection(type, flinkType, path, file, "a MAP group");
        GroupType keyValue = group(map.getType(0), flinkType, path, file, "a key_value group");
        if (keyValue.getFieldCount() != 2) {
          throw mismatch(type, flinkType, path, file, "a key_value group of a key and a value");
        }
        MapType mapType = (MapType) flinkType;
        return map.withNewFields(
            keyValue.withNewFields(
                project(keyValue.getType(0), mapType.getKeyType(), path + ".key", file),
                project(keyValue.getType(1), mapType.getValueType(), path + ".value", file)));
      default:
        if (!type.isPrimitive()) {
          throw mismatch(type, flinkType, path, file, "a primitive column");
        }
        return type;
    }
  }

  private static GroupType group(
      Type type, LogicalType flinkType, String path, String file, String expected)
      throws IOException {
    if (type.isPrimitive()) {
      throw mismatch(type, flinkType, path, file, expected);
    }
    return type.asGroupType();
  }

  /** A LIST or MAP group: one repeated field. */
  private static GroupType collection(
      Type type, LogicalType flinkType, String path, String file, String expected)
      throws IOException {
    GroupType group = group(type, flinkType, path, file, expected);
    if (group.getFieldCount() != 1 || !group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      throw mismatch(type, flinkType, path, file, expected + " of one repeated field");
    }
    return group;
  }

  private static IOException mismatch(
      Type type, LogicalType flinkType, String path, String file, String expected) {
    return new IOException(
        "column "
            + path
            + " of Parquet file "
            + file
            + " cannot be read as "
            + flinkType.asSummaryString()
            + ": expected "
            + expected
            + ", found "
            + type);
  }
}
