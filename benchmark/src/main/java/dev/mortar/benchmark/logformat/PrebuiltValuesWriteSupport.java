package dev.mortar.benchmark.logformat;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Hands parquet-mr's {@link RecordConsumer} values made before the timed loop and does nothing else
 * per record: the writer of {@link ParquetBlockContender#PARQUET_MR_FLOOR}. The schema is flat, of
 * BINARY and INT64 columns, and every record has a value in every column.
 */
final class PrebuiltValuesWriteSupport extends WriteSupport<PrebuiltValuesWriteSupport.Values> {
  /** One record: its BINARY columns' values and its INT64 columns' values, each in column order. */
  record Values(Binary[] binaries, long[] longs) {}

  private final MessageType schema;
  private final Map<String, String> footer;
  private final String[] names;
  private final boolean[] binary;
  private RecordConsumer consumer;

  /** {@code footer}: the key-value pairs the file's footer gets. */
  PrebuiltValuesWriteSupport(MessageType schema, Map<String, String> footer) {
    this.schema = schema;
    this.footer = footer;
    this.names = new String[schema.getFieldCount()];
    this.binary = new boolean[names.length];
    for (int i = 0; i < names.length; i++) {
      Type field = schema.getType(i);
      PrimitiveTypeName type =
          field.isPrimitive() ? field.asPrimitiveType().getPrimitiveTypeName() : null;
      if (type != PrimitiveTypeName.BINARY && type != PrimitiveTypeName.INT64) {
        throw new IllegalArgumentException(
            "column " + field.getName() + " is " + field + "; expected a BINARY or INT64 column");
      }
      names[i] = field.getName();
      binary[i] = type == PrimitiveTypeName.BINARY;
    }
  }

  /** Whether column {@code index} is BINARY (else INT64). */
  boolean isBinary(int index) {
    return binary[index];
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(schema, footer);
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(Values record) {
    consumer.startMessage();
    int binaries = 0;
    int longs = 0;
    for (int i = 0; i < names.length; i++) {
      consumer.startField(names[i], i);
      if (binary[i]) {
        consumer.addBinary(record.binaries[binaries++]);
      } else {
        consumer.addLong(record.longs[longs++]);
      }
      consumer.endField(names[i], i);
    }
    consumer.endMessage();
  }
}
