package dev.mortar.logformat;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/**
 * Names where two Avro record schemas part: the first field, by position, that is not equal (name,
 * type, default), or else the field lists when one is longer. Used where a schema must be exactly
 * the one Mortar writes for a table, to say what differs.
 */
public final class AvroRecordDifference {
  private AvroRecordDifference() {}

  /** The first difference of {@code found} from {@code expected}; both are records. */
  public static String describe(Schema expected, Schema found) {
    List<Schema.Field> expectedFields = expected.getFields();
    List<Schema.Field> foundFields = found.getFields();
    for (int i = 0; i < Math.min(expectedFields.size(), foundFields.size()); i++) {
      Schema.Field e = expectedFields.get(i);
      Schema.Field f = foundFields.get(i);
      if (!e.equals(f)) {
        return "field " + i + " expected " + describe(e) + ", found " + describe(f);
      }
    }
    if (expectedFields.size() != foundFields.size()) {
      return "expected "
          + expectedFields.size()
          + " fields "
          + names(expectedFields)
          + ", found "
          + foundFields.size()
          + " "
          + names(foundFields);
    }
    return "expected " + expected + ", found " + found;
  }

  private static String describe(Schema.Field field) {
    return "'" + field.name() + "' " + field.schema() + " default " + field.defaultVal();
  }

  private static String names(List<Schema.Field> fields) {
    return fields.stream().map(Schema.Field::name).collect(Collectors.joining(", ", "[", "]"));
  }
}
