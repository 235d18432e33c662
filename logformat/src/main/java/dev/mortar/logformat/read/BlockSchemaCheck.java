package dev.mortar.logformat.read;

import dev.mortar.logformat.AvroRecordDifference;
import dev.mortar.logformat.AvroSchemas;
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
        + AvroRecordDifference.describe(expected, found);
  }
}
