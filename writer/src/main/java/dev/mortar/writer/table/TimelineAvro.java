package dev.mortar.writer.table;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Hudi's timeline files of table version 9 (commit metadata, compaction plans) are Avro container
 * files holding one record of one of Hudi's Avro schemas. Mortar keeps a copy of each schema it
 * writes as a resource beside the class that fills the record.
 */
public final class TimelineAvro {
  private TimelineAvro() {}

  /** The schema in the resource {@code name} beside {@code owner}. */
  public static Schema schema(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + name + " beside " + owner.getName());
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load " + name, e);
    }
  }

  /** {@code record} as the bytes of an Avro container file of its one record. */
  public static byte[] bytes(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(record, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a " + record.getSchema().getName(), e);
    }
    return out.toByteArray();
  }

  /** Writes {@code record} to {@code out} as an Avro container file of its one record. */
  public static void write(GenericRecord record, OutputStream out) throws IOException {
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<>(record.getSchema()))) {
      writer.create(record.getSchema(), out);
      writer.append(record);
    }
  }
}
