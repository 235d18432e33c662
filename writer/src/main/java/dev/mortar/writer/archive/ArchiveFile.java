package dev.mortar.writer.archive;

import dev.mortar.writer.table.TimelineAvro;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
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
 * Parquet reader reads it as one of its own.
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

  private ArchiveFile() {}

  /** The name of a layer-0 file holding the instants {@code min} to {@code max}. */
  static String name(String min, String max) {
    return min + "_" + max + "_0.parquet";
  }

  /** Writes {@code instants} to a new file {@code path} (never over an existing one). */
  static void write(FileSystem fs, Path path, List<ArchivedInstant> instants) throws IOException {
    OutputFile out = HadoopOutputFile.fromPath(path, fs.getConf());
    try (ParquetWriter<ArchivedInstant> writer =
        new Builder(out)
            .withConf(new Configuration(false))
            .withWriteMode(ParquetFileWriter.Mode.CREATE)
            .withCompressionCodec(CompressionCodecName.GZIP)
            .build()) {
      for (ArchivedInstant instant : instants) {
        writer.write(instant);
      }
    }
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
