package dev.mortar.writer.archive;

import dev.mortar.logformat.FileSystemOutputFile;
import dev.mortar.logformat.read.FileSystemInputFile;
import dev.mortar.logformat.read.ParquetRowReader;
import dev.mortar.writer.table.TimelineAvro;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * A data file of the archived timeline, {@code <min>_<max>_<layer>.parquet} in {@code
 * .hoodie/timeline/history/}, as Hudi 1.1's {@code LSMTimelineWriter} writes it through
 * parquet-avro: one row per instant, oldest requested time first, in the schema
 *
 * <pre>
 *   message org.apache.hudi.avro.model.HoodieLSMTimelineInstant {
 *     optional binary instantTime (STRING);
 *     optional binary completionTime (STRING);
 *     optional binary action (STRING);
 *     optional binary metadata;
 *     optional binary plan;
 *     required int32 version;
 *   }
 * </pre>
 *
 * GZIP-compressed (Hudi's {@code hoodie.parquet.compression.codec}), with the Avro schema in the
 * footer as {@code parquet.avro.schema} and {@code writer.model.name = avro}, so Hudi's Avro
 * Parquet reader reads it as one of its own. {@link #read} reads such a file back, Hudi's too, with
 * Mortar's Parquet reader.
 */
final class ArchiveFile {
  static final int VERSION = 1;
  private static final String AVRO_SCHEMA =
      TimelineAvro.schema(ArchiveFile.class, "HoodieLSMTimelineInstant.avsc").toString();
  private static final MessageType SCHEMA =
      Types.buildMessage()
          .addField(string("instantTime"))
          .addField(string("completionTime"))
          .addField(string("action"))
          .addField(Types.optional(PrimitiveTypeName.BINARY).named("metadata"))
          .addField(Types.optional(PrimitiveTypeName.BINARY).named("plan"))
          .addField(Types.required(PrimitiveTypeName.INT32).named("version"))
          .named("org.apache.hudi.avro.model.HoodieLSMTimelineInstant");

  private static final RowType ROW =
      RowType.of(
          new LogicalType[] {
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new IntType(false)
          },
          new String[] {"instantTime", "completionTime", "action", "metadata", "plan", "version"});

  /** The columns of {@link #ROW} without the instants' metadata and plans. */
  private static final RowType TIMES =
      new RowType(
          List.of(
              ROW.getFields().get(0),
              ROW.getFields().get(1),
              ROW.getFields().get(2),
              ROW.getFields().get(5)));

  private ArchiveFile() {}

  /**
   * Writes {@code instants} to a new file {@code path} (never over an existing one), created
   * through {@code fs}.
   */
  static void write(FileSystem fs, Path path, List<ArchivedInstant> instants) throws IOException {
    try (ParquetWriter<ArchivedInstant> writer =
        new Builder(new FileSystemOutputFile(fs, path))
            .withConf(new Configuration(false))
            .withWriteMode(ParquetFileWriter.Mode.CREATE)
            .withCompressionCodec(CompressionCodecName.GZIP)
            .build()) {
      for (ArchivedInstant instant : instants) {
        writer.write(instant);
      }
    }
  }

  /**
   * The records of the file {@code path} (one Mortar or Hudi wrote), in file order.
   *
   * @throws IOException also if a record is not of {@link #VERSION}
   */
  static List<ArchivedInstant> read(FileSystem fs, Path path) throws IOException {
    return read(fs, path, ROW);
  }

  /** {@link #read}, with only the instants' times and actions (metadata and plans null). */
  static List<ArchivedInstant> readTimes(FileSystem fs, Path path) throws IOException {
    return read(fs, path, TIMES);
  }

  private static List<ArchivedInstant> read(FileSystem fs, Path path, RowType columns)
      throws IOException {
    int version = columns.getFieldIndex("version");
    int metadata = columns.getFieldIndex("metadata");
    int plan = columns.getFieldIndex("plan");
    List<ArchivedInstant> instants = new ArrayList<>();
    new ParquetRowReader(columns)
        .read(
            new FileSystemInputFile(fs, path),
            row -> {
              if (row.getInt(version) != VERSION) {
                throw new IOException(
                    "archived timeline file "
                        + path
                        + ": expected records of version "
                        + VERSION
                        + ", found version "
                        + row.getInt(version)
                        + " in record "
                        + instants.size());
              }
              instants.add(
                  new ArchivedInstant(
                      text(row, 0),
                      text(row, 1),
                      text(row, 2),
                      bytes(row, metadata),
                      bytes(row, plan)));
            });
    return instants;
  }

  @Nullable
  private static String text(BinaryRowData row, int field) {
    return row.isNullAt(field) ? null : row.getString(field).toString();
  }

  /** The bytes of {@code field}, or null if it is null or not read ({@code field} -1). */
  @Nullable
  private static byte[] bytes(BinaryRowData row, int field) {
    return field < 0 || row.isNullAt(field) ? null : row.getBinary(field);
  }

  private static org.apache.parquet.schema.Type string(String name) {
    return Types.optional(PrimitiveTypeName.BINARY)
        .as(LogicalTypeAnnotation.stringType())
        .named(name);
  }

  private static final class Builder extends ParquetWriter.Builder<ArchivedInstant, Builder> {
    Builder(OutputFile file) {
      super(file);
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<ArchivedInstant> getWriteSupport(Configuration conf) {
      return new InstantWriteSupport();
    }
  }

  private static final class InstantWriteSupport extends WriteSupport<ArchivedInstant> {
    private RecordConsumer consumer;

    @Override
    public WriteContext init(Configuration configuration) {
      HashMap<String, String> footer = new HashMap<>();
      footer.put("parquet.avro.schema", AVRO_SCHEMA);
      footer.put("writer.model.name", "avro");
      return new WriteContext(SCHEMA, footer);
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.consumer = recordConsumer;
    }

    @Override
    public void write(ArchivedInstant instant) {
      consumer.startMessage();
      field(0, "instantTime", bytes(instant.instantTime()));
      field(1, "completionTime", bytes(instant.completionTime()));
      field(2, "action", bytes(instant.action()));
      field(3, "metadata", instant.metadata());
      field(4, "plan", instant.plan());
      consumer.startField("version", 5);
      consumer.addInteger(VERSION);
      consumer.endField("version", 5);
      consumer.endMessage();
    }

    private void field(int index, String name, @Nullable byte[] value) {
      if (value != null) {
        consumer.startField(name, index);
        consumer.addBinary(Binary.fromConstantByteArray(value));
        consumer.endField(name, index);
      }
    }

    private static byte[] bytes(String value) {
      return value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
