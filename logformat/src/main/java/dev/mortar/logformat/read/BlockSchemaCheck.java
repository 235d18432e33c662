package dev.mortar.logformat.read;

import dev.mortar.logformat.AvroRecordDifference;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.SchemaEvolution;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.flink.table.types.logical.RowType;

/**
 * Checks a data block's SCHEMA header against the schema Mortar writes for the table's row type,
 * {@code AvroSchemas.of(dataType, <the header's record name>, true)} (meta fields included), or for
 * the row type the table had before its schema evolved ({@link SchemaEvolution}): the block then
 * holds the table's first columns only, some maybe of narrower types. Any other schema is refused.
 * The answer per header JSON is remembered, so the blocks of one writer parse it once.
 */
final class BlockSchemaCheck {
  private final RowType dataType;
  private final Map<String, RowType> writtenTypeByJson = new HashMap<>();

  BlockSchemaCheck(RowType dataType) {
    this.dataType = dataType;
  }

  /**
   * The data columns a block with this SCHEMA header holds: the table's first ones, each of the
   * table's type or of the narrower type it had when the block was written.
   *
   * @throws IOException saying what differs when the header is not a schema of the table
   */
  RowType writtenType(String schemaJson) throws IOException {
    RowType known = writtenTypeByJson.get(schemaJson);
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
    Optional<RowType> written = SchemaEvolution.writtenType(dataType, found, true);
    if (written.isPresent()) {
      writtenTypeByJson.put(schemaJson, written.get());
      return written.get();
    }
    throw new IOException(
        "the SCHEMA header differs from the table's schema (schema evolution beyond nullable"
            + " columns added at the end and widened columns is not supported): "
            + AvroRecordDifference.describe(
                AvroSchemas.of(dataType, found.getFullName(), true), found));
  }
}
