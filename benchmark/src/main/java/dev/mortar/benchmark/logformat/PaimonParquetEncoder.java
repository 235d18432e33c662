package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.ParquetCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.JoinedRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.flink.FlinkRowWrapper;
import org.apache.paimon.flink.LogicalTypeConversion;
import org.apache.paimon.format.FileFormatFactory.FormatContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.FormatWriterFactory;
import org.apache.paimon.format.parquet.ParquetFileFormat;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/**
 * {@link ParquetBlockContender#PAIMON}: Paimon's own Parquet writer, the {@link
 * FormatWriterFactory} of {@link ParquetFileFormat} that writes a Paimon table's data files, one
 * file per block into a reused in-memory buffer. Its rows are Paimon {@link BinaryRow}s made in
 * set-up: the five meta fields as leading STRING columns with Mortar's values, then the row's
 * fields, so both write the same columns. It writes Paimon's schema (field ids, no Avro schema in
 * the footer) with Paimon's own parquet-mr (relocated inside the Paimon jar, so it does not meet
 * Mortar's), at the same codec, dictionary setting, page and row group sizes and ZSTD level.
 */
final class PaimonParquetEncoder extends BufferedBlockEncoder {
  /** parquet-mr's default ZSTD level, which Mortar's writer keeps; Paimon's own default is 1. */
  private static final String PARQUET_MR_ZSTD_LEVEL = "3";

  private final List<BinaryRow> rows;
  private final FormatWriterFactory writers;
  private final String compression;
  private final PositionOutputStream output = new BufferOutputStream(content);

  PaimonParquetEncoder(
      org.apache.flink.table.types.logical.RowType rowType,
      List<BinaryRowData> rows,
      List<BinaryStringData> keys,
      ParquetCodec codec,
      boolean dictionary) {
    RowType paimonType = withMetaFields(LogicalTypeConversion.toDataType(rowType));
    Options options = new Options();
    options.set("parquet.enable.dictionary", Boolean.toString(dictionary));
    options.set("parquet.compression.codec.zstd.level", PARQUET_MR_ZSTD_LEVEL);
    this.writers =
        new ParquetFileFormat(new FormatContext(options, 1024, 1024))
            .createWriterFactory(paimonType);
    this.compression = codec.parquetName().name();
    this.rows = new ArrayList<>(rows.size());
    InternalRowSerializer serializer = new InternalRowSerializer(paimonType);
    for (int i = 0; i < rows.size(); i++) {
      GenericRow meta = new GenericRow(AvroSchemas.META_FIELDS.size());
      String[] metaValues = BlockInput.metaFieldValues(keys.get(i), i);
      for (int m = 0; m < metaValues.length; m++) {
        meta.setField(m, BinaryString.fromString(metaValues[m]));
      }
      JoinedRow row = new JoinedRow(meta, new FlinkRowWrapper(rows.get(i)));
      this.rows.add(serializer.toBinaryRow(row).copy());
    }
  }

  /** The meta fields as nullable STRING columns, then {@code fields}, numbered anew from 0. */
  private static RowType withMetaFields(RowType fields) {
    List<DataField> all = new ArrayList<>();
    for (String name : AvroSchemas.META_FIELDS) {
      all.add(new DataField(all.size(), name, DataTypes.STRING()));
    }
    for (DataField field : fields.getFields()) {
      all.add(new DataField(all.size(), field.name(), field.type()));
    }
    return new RowType(all);
  }

  @Override
  void writeBlock() throws IOException {
    content.reset();
    FormatWriter writer = writers.create(output, compression);
    for (int i = 0; i < rows.size(); i++) {
      writer.addElement(rows.get(i));
    }
    writer.close();
  }

  /** Paimon's output stream over a {@link BlockBuffer}; closing it keeps the bytes. */
  private static final class BufferOutputStream extends PositionOutputStream {
    private final BlockBuffer buffer;

    BufferOutputStream(BlockBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public long getPos() {
      return buffer.size();
    }

    @Override
    public void write(int b) {
      buffer.writeByte(b);
    }

    @Override
    public void write(byte[] bytes) {
      buffer.writeBytes(bytes, 0, bytes.length);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      buffer.writeBytes(bytes, offset, length);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
