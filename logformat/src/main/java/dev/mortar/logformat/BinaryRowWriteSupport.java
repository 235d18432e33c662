package dev.mortar.logformat;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link BinaryRowData} as Parquet records of {@link ParquetSchemas#of}: the meta fields
 * from a {@link ParquetMetaColumns} (none if it is null), then the data fields by a {@link
 * BinaryRowParquetEncoder}. The Avro schema goes into the footer as {@code parquet.avro.schema}, so
 * Hudi's Avro-based Parquet reader reads the records back.
 */
final class BinaryRowWriteSupport extends WriteSupport<BinaryRowData> {
  private final Schema avroSchema;
  private final MessageType parquetSchema;
  private final ParquetMetaColumns metaColumns;
  private final BinaryRowParquetEncoder encoder;
  private RecordConsumer consumer;
  private Map<String, String> closingFooter = Map.of();

  /**
   * @param dataType the data fields, at positions {@code firstDataField} onwards of each row
   * @param avroSchema the Avro schema of the records, with meta fields if {@code metaColumns} is
   *     not null
   */
  BinaryRowWriteSupport(
      RowType dataType, int firstDataField, Schema avroSchema, ParquetMetaColumns metaColumns) {
    boolean metaFields = metaColumns != null;
    this.avroSchema = avroSchema;
    this.parquetSchema = ParquetSchemas.of(dataType, avroSchema, metaFields);
    this.metaColumns = metaColumns;
    this.encoder =
        new BinaryRowParquetEncoder(
            dataType, firstDataField, metaFields ? AvroSchemas.META_FIELDS.size() : 0);
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(parquetSchema, Map.of("parquet.avro.schema", avroSchema.toString()));
  }

  /** Key-value pairs the footer gets when the file is closed, beside the Avro schema. */
  void setClosingFooter(Map<String, String> footer) {
    this.closingFooter = footer;
  }

  @Override
  public FinalizedWriteContext finalizeWrite() {
    return new FinalizedWriteContext(closingFooter);
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(BinaryRowData row) {
    consumer.startMessage();
    if (metaColumns != null) {
      metaColumns.write(consumer, row);
    }
    encoder.writeFields(row, consumer);
    consumer.endMessage();
  }
}
