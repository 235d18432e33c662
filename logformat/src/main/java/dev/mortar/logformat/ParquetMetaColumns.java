package dev.mortar.logformat;

import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/** Writes the five meta fields ({@link AvroSchemas#META_FIELDS}) of the record of a row. */
interface ParquetMetaColumns {
  /** Writes the meta fields, the first five fields of the record the consumer has open. */
  void write(RecordConsumer consumer, BinaryRowData row);

  /** Writes meta field {@code index} with a non-null value. */
  static void writeField(RecordConsumer consumer, int index, Binary value) {
    String name = AvroSchemas.META_FIELDS.get(index);
    consumer.startField(name, index);
    consumer.addBinary(value);
    consumer.endField(name, index);
  }
}
