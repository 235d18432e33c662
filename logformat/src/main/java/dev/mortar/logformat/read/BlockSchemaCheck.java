package dev.mortar.logformat.read;

import dev.mortar.logformat.AvroSchemas;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.flink.table.types.logical.RowType;

/**
 * Checks a data block's SCHEMA header against the schema Mortar writes for the table's row type:
 * {@code AvroSchemas.of(dataType, <the header's record name>, true)}, meta fields included. Blocks
 * of one writer carry the same header, so the last accepted JSON is remembered and not parsed
 * again. Schema evolution is not supported yet: any other schema is refused.
 */
final class BlockSchemaCheck {
  private final RowType dataType;
  private String acceptedJson;

  BlockSchemaCheck(RowType dataType) {
    this.dataType = dataType;
  }

  /** Null when {@code schemaJson} is the expected schema, else what differs. */
  String mismatch(String schemaJson) {
    if (schemaJson.equals(acceptedJson)) {
      return null;
    }
    Schema found;
    try {
      found = new Schema.Parser().parse(schemaJson);
    } catch (SchemaParseException e) {
      return "the SCHEMA header is not an Avro schema: " + e.getMessage();
    }
    if (found.getType() != Schema.Type.RECORD) {
      return "the SCHEMA header is a " + found.getType() + ", expected a record";
    }
    Schema expected = AvroSchemas.of(dataType, found.getFullName(), true);
    if (expected.equals(found)) {
      acceptedJson = schemaJson;
      return null;
    }
    return "the SCHEMA header differs from the table's schema (schema evolution is not supported"
        + " yet): "
        + difference(expected, found);
  }

  private static String difference(Schema expected, Schema found) {
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
