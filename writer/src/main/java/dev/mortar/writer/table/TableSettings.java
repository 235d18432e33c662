package dev.mortar.writer.table;

import dev.mortar.logformat.AvroSchemas;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the sink knows about the table it writes: name, row type (without Hudi's meta columns),
 * record key fields, partition fields, the optional ordering field and whether records carry Hudi's
 * meta fields ({@code hoodie.populate.meta.fields}). The table layer derives hoodie.properties, the
 * key generator type and the Avro schema from it.
 */
public record TableSettings(
    String tableName,
    RowType rowType,
    List<String> recordKeyFields,
    List<String> partitionFields,
    @Nullable String orderingField,
    boolean populateMetaFields) {

  /** Settings of a table whose records carry Hudi's meta fields (Hudi's default). */
  public TableSettings(
      String tableName,
      RowType rowType,
      List<String> recordKeyFields,
      List<String> partitionFields,
      @Nullable String orderingField) {
    this(tableName, rowType, recordKeyFields, partitionFields, orderingField, true);
  }

  public TableSettings {
    if (tableName == null || tableName.isEmpty()) {
      throw new IllegalArgumentException("table name must not be empty");
    }
    if (recordKeyFields == null || recordKeyFields.isEmpty()) {
      throw new IllegalArgumentException(
          "at least one record key field is required (PRIMARY KEY / recordKey), got none");
    }
    recordKeyFields = List.copyOf(recordKeyFields);
    partitionFields = partitionFields == null ? List.of() : List.copyOf(partitionFields);
    List<String> columns = rowType.getFieldNames();
    List<String> referenced = new ArrayList<>(recordKeyFields);
    referenced.addAll(partitionFields);
    if (orderingField != null) {
      referenced.add(orderingField);
    }
    for (String field : referenced) {
      if (!columns.contains(field)) {
        throw new IllegalArgumentException(
            "field '" + field + "' is not a column of the row type; columns are " + columns);
      }
    }
  }

  public boolean isPartitioned() {
    return !partitionFields.isEmpty();
  }

  /** Hudi's key generator for these fields, chosen the way Hudi's Flink table factory does. */
  public KeyGeneratorType keyGeneratorType() {
    return KeyGeneratorType.of(recordKeyFields.size(), partitionFields.size());
  }

  /**
   * The full name of the table's Avro record, {@code hoodie.<name>.<name>_record}, as Hudi's {@code
   * AvroSchemaUtils.getAvroRecordQualifiedName} builds it: in the table name, every character Avro
   * does not allow in a name (first: letter or _, then also digits) becomes {@code __}.
   */
  public String avroRecordName() {
    StringBuilder name = new StringBuilder();
    for (int i = 0; i < tableName.length(); i++) {
      char c = tableName.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      boolean digit = c >= '0' && c <= '9';
      name.append(letter || (digit && i > 0) ? String.valueOf(c) : "__");
    }
    return "hoodie." + name + "." + name + "_record";
  }

  /** The table's Avro schema without meta fields: the writer schema of every log block. */
  public Schema avroSchema() {
    return AvroSchemas.of(rowType, avroRecordName(), false);
  }

  /** Hudi's merge mode inference for table version 9 (§2.2). */
  public String mergeMode() {
    return orderingField == null ? "COMMIT_TIME_ORDERING" : "EVENT_TIME_ORDERING";
  }
}
