package dev.mortar.writer.table;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.CRC32;

/**
 * {@code .hoodie/hoodie.properties} (§2): the key set Hudi 1.1.1's table builder writes for a MOR
 * table, derived from {@link TableSettings}, and the check of an existing file against them.
 */
final class TableProperties {
  static final String FILE_NAME = "hoodie.properties";
  static final String TIMELINE_FOLDER = "timeline";
  static final String HISTORY_FOLDER = "history";
  static final String TABLE_VERSION = "9";

  static final String NAME = "hoodie.table.name";
  static final String TYPE = "hoodie.table.type";
  static final String VERSION = "hoodie.table.version";
  static final String RECORD_KEY_FIELDS = "hoodie.table.recordkey.fields";
  static final String PARTITION_FIELDS = "hoodie.table.partition.fields";
  static final String ORDERING_FIELDS = "hoodie.table.ordering.fields";
  static final String LEGACY_PRECOMBINE_FIELD = "hoodie.table.precombine.field";
  static final String KEY_GENERATOR_TYPE = "hoodie.table.keygenerator.type";
  static final String KEY_GENERATOR_CLASS = "hoodie.table.keygenerator.class";
  static final String MERGE_ON_READ = "MERGE_ON_READ";
  static final String POPULATE_META_FIELDS = "hoodie.populate.meta.fields";

  private TableProperties() {}

  static Map<String, String> of(TableSettings settings) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(NAME, settings.tableName());
    p.put(TYPE, MERGE_ON_READ);
    p.put(VERSION, TABLE_VERSION);
    p.put("hoodie.table.initial.version", TABLE_VERSION);
    p.put("hoodie.timeline.layout.version", "2");
    p.put("hoodie.timeline.path", TIMELINE_FOLDER);
    p.put("hoodie.timeline.history.path", HISTORY_FOLDER);
    p.put("hoodie.archivelog.folder", "archived");
    p.put(RECORD_KEY_FIELDS, String.join(",", settings.recordKeyFields()));
    if (settings.isPartitioned()) {
      p.put(PARTITION_FIELDS, String.join(",", settings.partitionFields()));
    }
    if (settings.orderingField() != null) {
      p.put(ORDERING_FIELDS, settings.orderingField());
    }
    p.put("hoodie.record.merge.mode", settings.mergeMode());
    p.put(KEY_GENERATOR_TYPE, settings.keyGeneratorType().name());
    p.put("hoodie.table.base.file.format", "PARQUET");
    p.put(POPULATE_META_FIELDS, Boolean.toString(settings.populateMetaFields()));
    p.put("hoodie.datasource.write.drop.partition.columns", "false");
    p.put("hoodie.table.create.schema", settings.avroSchema().toString());
    p.put("hoodie.table.checksum", Long.toString(checksum(settings.tableName())));
    return p;
  }

  /** Hudi's {@code generateChecksum}: CRC32 of {@code "<database>.<table>"}, no database here. */
  static long checksum(String tableName) {
    CRC32 crc = new CRC32();
    crc.update(("." + tableName).getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  /**
   * Fails with one message listing every setting in which the existing table differs from the sink,
   * each with both values.
   */
  static void validate(Properties table, TableSettings settings, String basePath) {
    List<String> mismatches = new ArrayList<>();
    compare(mismatches, "table type", table.getProperty(TYPE, "COPY_ON_WRITE"), MERGE_ON_READ);
    compare(mismatches, "table version", table.getProperty(VERSION), TABLE_VERSION);
    compare(
        mismatches,
        "record key fields",
        fields(table.getProperty(RECORD_KEY_FIELDS)),
        settings.recordKeyFields());
    compare(
        mismatches,
        "partition fields",
        fields(table.getProperty(PARTITION_FIELDS)),
        settings.partitionFields());
    compare(
        mismatches,
        "meta fields (" + POPULATE_META_FIELDS + ")",
        table.getProperty(POPULATE_META_FIELDS, "true"),
        Boolean.toString(settings.populateMetaFields()));
    compare(
        mismatches,
        "ordering field",
        table.getProperty(ORDERING_FIELDS, table.getProperty(LEGACY_PRECOMBINE_FIELD)),
        settings.orderingField());
    keyGeneratorFamily(table)
        .ifPresent(
            family ->
                compare(
                    mismatches,
                    "key generator",
                    family,
                    keyGeneratorFamily(settings.keyGeneratorType().name())));
    if (!mismatches.isEmpty()) {
      throw new IllegalStateException(
          "the Hudi table at "
              + basePath
              + " does not match the sink's settings: "
              + String.join("; ", mismatches)
              + ". Configure the sink as the table is, or write to a new path.");
    }
  }

  /**
   * The table's key generator without the Avro/Spark distinction (SIMPLE_AVRO and SIMPLE write the
   * same keys): it decides the record key format, so a different one would duplicate keys.
   */
  private static Optional<String> keyGeneratorFamily(Properties table) {
    String type = table.getProperty(KEY_GENERATOR_TYPE);
    if (type != null) {
      return Optional.of(keyGeneratorFamily(type));
    }
    String className = table.getProperty(KEY_GENERATOR_CLASS);
    if (className == null) {
      return Optional.empty();
    }
    String simpleName = className.substring(className.lastIndexOf('.') + 1);
    return Optional.of(
        switch (simpleName) {
          case "SimpleKeyGenerator", "SimpleAvroKeyGenerator" -> "SIMPLE";
          case "ComplexKeyGenerator", "ComplexAvroKeyGenerator" -> "COMPLEX";
          case "NonpartitionedKeyGenerator", "NonpartitionedAvroKeyGenerator" -> "NON_PARTITION";
          default -> className;
        });
  }

  private static String keyGeneratorFamily(String type) {
    return type.endsWith("_AVRO") ? type.substring(0, type.length() - "_AVRO".length()) : type;
  }

  private static void compare(List<String> mismatches, String what, Object table, Object sink) {
    if (!Objects.equals(table, sink)) {
      mismatches.add(what + ": the table has " + show(table) + ", the sink has " + show(sink));
    }
  }

  private static String show(Object value) {
    return value == null ? "none" : value instanceof List<?> ? value.toString() : "'" + value + "'";
  }

  static List<String> fields(String value) {
    if (value == null || value.isBlank()) {
      return List.of();
    }
    return Arrays.stream(value.split(",")).map(String::trim).toList();
  }
}
