package dev.mortar.logformat.read;

import dev.mortar.logformat.AddedColumns;
import dev.mortar.logformat.AvroRecordDifference;
import dev.mortar.logformat.AvroSchemas;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.flink.table.types.logical.RowType;

/**
 * Checks a data block's SCHEMA header against the schema Mortar writes for the table's row type,
 * {@code AvroSchemas.of(dataType, <the header's record name>, true)} (meta fields included), or for
 * its first columns when the table has since gained nullable columns at its end ({@link
 * AddedColumns}): the block then holds those first columns only. Any other schema is refused. The
 * answer per header JSON is remembered, so the blocks of one writer parse it once.
 */
final class BlockSchemaCheck {
  private final RowType dataType;
  private final Map<String, Integer> dataFieldsByJson = new HashMap<>();

  BlockSchemaCheck(RowType dataType) {
    this.dataType = dataType;
  }

  /**
   * The number of the table's data columns a block with this SCHEMA header holds.
   *
   * @throws IOException saying what differs when the header is not a schema of the table
   */
  int dataFields(String schemaJson) throws IOException {
    Integer known = dataFieldsByJson.get(schemaJson);
    if (known != null) {
      return known;
    }
    Schema found;
    try {
      found = new Schema.Parser().parse(schemaJson);
    } catch (SchemaParseException e) {
      throw new IOException("the SCHEMA header is not an Avro schema: " + e.getMessage());
    }
    if (found.getType() != Schema.Type.RECORD) {
      throw new IOException("the SCHEMA header is a " + found.getType() + ", expected a record");
    }
    int dataFields = found.getFields().size() - StoredRowType.META_FIELD_COUNT;
    if (AddedColumns.isSchemaOfFirstFields(dataType, dataFields, found, true)) {
      dataFieldsByJson.put(schemaJson, dataFields);
      return dataFields;
    }
    throw new IOException(
        "the SCHEMA header differs from the table's schema (schema evolution beyond nullable"
            + " columns added at the end is not supported): "
            + AvroRecordDifference.describe(
                AvroSchemas.of(dataType, found.getFullName(), true), found));
  }
}
