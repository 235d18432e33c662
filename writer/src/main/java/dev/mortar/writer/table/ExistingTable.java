package dev.mortar.writer.table;

import dev.mortar.logformat.AvroRecordDifference;
import dev.mortar.logformat.AvroRowTypes;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.SchemaEvolution;
import dev.mortar.writer.options.WriterOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A table already at a path: {@link #validate} checks, when the job is built, that it matches the
 * sink's settings, so a wrong key, partition field or schema fails before the job runs (a missing
 * table is created later, by the running job); {@link #read} derives the settings from the table
 * itself, for a job that only maintains it.
 *
 * <p>The table schema is the one in the newest completed commit's metadata, else {@code
 * hoodie.table.create.schema}. A sink must write that schema, as Mortar maps it from Flink types
 * ({@link AvroSchemas}), or that schema evolved the ways {@link SchemaEvolution} follows: nullable
 * columns added at its end, columns widened. The compaction reads files of the table's schema and
 * of the schemas it had before such changes only, so a job that wrote another one would fail at its
 * first compaction, and again after every restart. Key, partition and ordering columns keep their
 * types: the bucket, the partition path and the ordering of a record's older versions depend on
 * them. A sink that lacks some of the table's columns writes them as null when its settings ask for
 * it ({@link MissingColumns}), and fails naming them when not.
 */
public final class ExistingTable {
  private static final String CREATE_SCHEMA = "hoodie.table.create.schema";

  private ExistingTable() {}

  /**
   * Fails naming each difference if a table at {@code basePath} has other settings or buckets, and
   * naming the first differing column if it has another schema. A sink that lacks some of the
   * table's columns fails naming them, or with {@code nullForMissingColumns} gets what it writes
   * instead: the table's columns, the missing ones null.
   */
  public static Optional<MissingColumns> validate(
      String basePath, TableSettings settings, int buckets, boolean nullForMissingColumns) {
    Path base = TableFileSystems.path(basePath);
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      if (!fs.exists(HudiTable.propertiesFile(base))) {
        return Optional.empty();
      }
      HudiTable.createOrValidate(fs, base, settings);
      BucketCount.check(fs, base, buckets);
      return checkSchema(fs, base, settings, nullForMissingColumns);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the table at " + base, e);
    }
  }

  /**
   * The settings of the table at {@code basePath}: name, record key, partition and ordering fields
   * and meta fields from {@code hoodie.properties}; the row type from the table schema, the one in
   * the newest completed commit's metadata or else {@code hoodie.table.create.schema}.
   *
   * @throws IllegalArgumentException naming the path and what is missing or not supported
   */
  public static TableSettings read(String basePath) {
    Path base = TableFileSystems.path(basePath);
    Path propertiesFile = HudiTable.propertiesFile(base);
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      if (!fs.exists(propertiesFile)) {
        throw new IllegalArgumentException(
            "no Hudi table at " + base + ": " + propertiesFile + " does not exist");
      }
      Properties properties = PropertiesFile.read(fs, propertiesFile);
      Schema schema = schema(fs, base, properties, propertiesFile);
      TableSettings settings =
          new TableSettings(
              required(properties, TableProperties.NAME, propertiesFile),
              AvroRowTypes.of(schema),
              TableProperties.fields(
                  required(properties, TableProperties.RECORD_KEY_FIELDS, propertiesFile)),
              TableProperties.fields(properties.getProperty(TableProperties.PARTITION_FIELDS)),
              properties.getProperty(
                  TableProperties.ORDERING_FIELDS,
                  properties.getProperty(TableProperties.LEGACY_PRECOMBINE_FIELD)),
              Boolean.parseBoolean(
                  properties.getProperty(TableProperties.POPULATE_META_FIELDS, "true")));
      if (!schema.getFullName().equals(settings.avroRecordName())) {
        throw new IllegalArgumentException(
            "the table schema of "
                + base
                + " names its record '"
                + schema.getFullName()
                + "', expected '"
                + settings.avroRecordName()
                + "' for table '"
                + settings.tableName()
                + "'");
      }
      TableProperties.validate(properties, settings, base.toString());
      return settings;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the table at " + base, e);
    }
  }

  private static Schema schema(
      FileSystem fs, Path base, Properties properties, Path propertiesFile) {
    String json =
        schemaJson(fs, base, properties)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the table at "
                            + base
                            + " has no schema: no completed commit in "
                            + timelineDir(base)
                            + " records one and "
                            + propertiesFile
                            + " has no "
                            + CREATE_SCHEMA));
    return parse(json, base);
  }

  private static Schema parse(String json, Path base) {
    try {
      return new Schema.Parser().parse(json);
    } catch (SchemaParseException e) {
      throw new IllegalArgumentException(
          "the table schema of " + base + " is not an Avro schema: " + e.getMessage(), e);
    }
  }

  private static Optional<String> schemaJson(FileSystem fs, Path base, Properties properties) {
    return CompletedCommits.latestSchema(fs, timelineDir(base))
        .or(() -> Optional.ofNullable(properties.getProperty(CREATE_SCHEMA)));
  }

  private static Path timelineDir(Path base) {
    return new Path(new Path(base, HudiTable.META_FOLDER), TableProperties.TIMELINE_FOLDER);
  }

  /**
   * Fails if the table's schema, mapped the way the sink maps its row type, is not the sink's (or,
   * for a sink that lacks some of its columns, the sink's with them) or an older schema the sink's
   * evolved from ({@link SchemaEvolution}), or if a key, partition or ordering column was widened.
   * A table that records no schema is not checked.
   */
  private static Optional<MissingColumns> checkSchema(
      FileSystem fs, Path base, TableSettings settings, boolean nullForMissingColumns)
      throws IOException {
    Optional<String> json =
        schemaJson(fs, base, PropertiesFile.read(fs, HudiTable.propertiesFile(base)));
    if (json.isEmpty()) {
      return Optional.empty();
    }
    RowType tableRow;
    try {
      tableRow = AvroRowTypes.of(parse(json.get(), base));
    } catch (IllegalArgumentException unreadable) {
      throw schemaMismatch(base, unreadable.getMessage());
    }
    List<String> missing = new ArrayList<>(tableRow.getFieldNames());
    missing.removeAll(settings.rowType().getFieldNames());
    if (missing.isEmpty()) {
      checkEvolvedFrom(base, settings, settings.rowType(), tableRow);
      return Optional.empty();
    }
    if (!nullForMissingColumns) {
      throw new IllegalStateException(
          "the Hudi table at "
              + base
              + " has columns the sink lacks: "
              + missing
              + ". Declare them, or set '"
              + WriterOptions.WRITE_NULL_FOR_MISSING_COLUMNS.key()
              + "' = 'true' to write them as null (the table keeps them).");
    }
    MissingColumns written = withMissingColumns(base, settings.rowType(), tableRow);
    checkEvolvedFrom(base, settings, written.rowType(), tableRow);
    return Optional.of(written);
  }

  /**
   * The table's columns in its order, each of the sink's type where the sink has it and of the
   * table's where not (those must be nullable), then the sink's columns the table lacks.
   */
  private static MissingColumns withMissingColumns(Path base, RowType sinkRow, RowType tableRow) {
    List<RowType.RowField> fields = new ArrayList<>();
    List<Integer> inputFields = new ArrayList<>();
    for (RowType.RowField column : tableRow.getFields()) {
      int input = sinkRow.getFieldIndex(column.getName());
      if (input < 0 && !column.getType().isNullable()) {
        throw new IllegalStateException(
            "the Hudi table at "
                + base
                + " has column '"
                + column.getName()
                + "' NOT NULL, which the sink lacks: only a nullable column can be written as"
                + " null. Declare it.");
      }
      fields.add(input < 0 ? column : sinkRow.getFields().get(input));
      inputFields.add(input);
    }
    for (int i = 0; i < sinkRow.getFieldCount(); i++) {
      if (tableRow.getFieldIndex(sinkRow.getFieldNames().get(i)) < 0) {
        fields.add(sinkRow.getFields().get(i));
        inputFields.add(i);
      }
    }
    return new MissingColumns(
        new RowType(sinkRow.isNullable(), fields),
        inputFields.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * Fails unless {@code written} is the table's schema or one it evolved into, with the key,
   * partition and ordering columns of their types.
   */
  private static void checkEvolvedFrom(
      Path base, TableSettings settings, RowType written, RowType tableRow) {
    Schema sink = AvroSchemas.of(written, settings.avroRecordName(), false);
    Schema tableAsMapped = AvroSchemas.of(tableRow, sink.getFullName(), false);
    Optional<RowType> older = SchemaEvolution.writtenType(written, tableAsMapped, false);
    if (older.isEmpty()) {
      throw schemaMismatch(base, AvroRecordDifference.describe(tableAsMapped, sink));
    }
    checkKeyColumnsKeepTheirTypes(base, settings, written, older.get());
  }

  private static IllegalStateException schemaMismatch(Path base, String difference) {
    return new IllegalStateException(
        "the Hudi table at "
            + base
            + " has another schema than the sink's columns (expected the table's, found the"
            + " sink's): "
            + difference
            + ". Of the changes to a table's schema Mortar follows nullable columns added after the"
            + " last one and columns widened (INT to BIGINT, FLOAT or DOUBLE; BIGINT to FLOAT or"
            + " DOUBLE; FLOAT to DOUBLE; a number to a STRING; a DECIMAL to one of more digits and"
            + " the same scale), as its compaction reads the files written before them."
            + " Declare the columns as the table has them (changed only in those ways), or write to"
            + " a new path.");
  }

  private static void checkKeyColumnsKeepTheirTypes(
      Path base, TableSettings settings, RowType written, RowType tableRow) {
    List<String> keyColumns = new ArrayList<>(settings.recordKeyFields());
    keyColumns.addAll(settings.partitionFields());
    if (settings.orderingField() != null) {
      keyColumns.add(settings.orderingField());
    }
    for (String column : keyColumns) {
      int index = tableRow.getFieldIndex(column);
      if (index >= 0 && !tableRow.getTypeAt(index).equals(written.getTypeAt(index))) {
        throw new IllegalStateException(
            "the Hudi table at "
                + base
                + " has column '"
                + column
                + "' as "
                + tableRow.getTypeAt(index).asSummaryString()
                + ", the sink declares it "
                + written.getTypeAt(index).asSummaryString()
                + ": a record key, partition or ordering column cannot be widened, as the"
                + " bucket, partition path and ordering of the records written before depend on"
                + " its type. Declare it as the table has it.");
      }
    }
  }

  private static String required(Properties properties, String key, Path propertiesFile) {
    String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(propertiesFile + " has no " + key);
    }
    return value;
  }
}
