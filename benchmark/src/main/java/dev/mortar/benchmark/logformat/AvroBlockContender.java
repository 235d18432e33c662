package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.AvroBlockBuilder;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.MetaFieldValues;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Ways to encode the content of one AVRO_DATA_BLOCK (version, count, length-prefixed datums with
 * the five meta fields) from {@code BinaryRowData}. All three produce the same bytes.
 *
 * <ul>
 *   <li>{@link #MORTAR}: {@link AvroBlockBuilder}, straight from the row's memory segments into one
 *       reused buffer.
 *   <li>{@link #HUDI_1_0}: Hudi's pre-1.1 path: meta row joined to the row ({@code JoinedRowData}),
 *       RowData → {@code GenericRecord} (Flink's {@code RowDataToAvroConverters}, which Hudi
 *       copies), {@code GenericDatumWriter} into a per-record {@code ByteArrayOutputStream}, {@code
 *       toByteArray()}, then written into the block stream.
 *   <li>{@link #HUDI_1_1}: the same with {@code ByteArrayOutputStream.writeTo} instead of {@code
 *       toByteArray} (PRs #12578, #13186).
 * </ul>
 *
 * The baselines reuse one {@code GenericDatumWriter}, encoder and block stream across records and
 * blocks, which is kinder to them than Hudi is to itself.
 */
public enum AvroBlockContender {
  MORTAR,
  HUDI_1_0,
  HUDI_1_1;

  /** Encodes blocks of the given input; {@link Encoder#encodeBlock()} returns the content size. */
  public Encoder prepare(BlockInput input) {
    RowType rowType = input.schema.rowType();
    if (this == MORTAR) {
      return new MortarEncoder(input, rowType);
    }
    return new GenericRecordEncoder(input, rowType, this == HUDI_1_1);
  }

  /** One contender set up for one input. */
  public interface Encoder {
    /** Encodes all rows of the input as one block; returns the block content size in bytes. */
    int encodeBlock() throws IOException;

    /** The content of the last block (for equality checks, not timed). */
    byte[] lastBlock();
  }

  private static final class MortarEncoder implements Encoder {
    private final BlockInput input;
    private final AvroBlockBuilder builder;
    private BlockBuffer last;

    MortarEncoder(BlockInput input, RowType rowType) {
      this.input = input;
      MetaFieldValues meta =
          new MetaFieldValues(
              BlockInput.INSTANT, BlockInput.WRITE_TOKEN, BlockInput.PARTITION, BlockInput.FILE_ID);
      this.builder = new AvroBlockBuilder(rowType, meta, new BlockBuffer(1 << 20));
    }

    @Override
    public int encodeBlock() {
      for (int i = 0; i < input.rows.size(); i++) {
        builder.add(input.keys.get(i), i, input.rows.get(i));
      }
      last = builder.finishBlock();
      return last.size();
    }

    @Override
    public byte[] lastBlock() {
      return java.util.Arrays.copyOf(last.array(), last.size());
    }
  }

  private static final class GenericRecordEncoder implements Encoder {
    private final BlockInput input;
    private final boolean writeTo;
    private final Schema schema;
    private final RowDataToAvroConverters.RowDataToAvroConverter converter;
    private final GenericDatumWriter<IndexedRecord> datumWriter;
    private final ByteArrayOutputStream block = new ByteArrayOutputStream(1 << 20);
    private final DataOutputStream blockOut = new DataOutputStream(block);
    private final StringData instant = StringData.fromString(BlockInput.INSTANT);
    private final StringData partition = StringData.fromString(BlockInput.PARTITION);
    private final StringData fileId = StringData.fromString(BlockInput.FILE_ID);
    private final String seqnoPrefix = BlockInput.SEQNO_PREFIX;
    private BinaryEncoder encoder;

    GenericRecordEncoder(BlockInput input, RowType rowType, boolean writeTo) {
      this.input = input;
      this.writeTo = writeTo;
      this.schema = AvroSchemas.of(rowType, "record", true);
      List<RowType.RowField> fields = new ArrayList<>();
      for (String name : AvroSchemas.META_FIELDS) {
        fields.add(new RowType.RowField(name, VarCharType.STRING_TYPE));
      }
      fields.addAll(rowType.getFields());
      this.converter = RowDataToAvroConverters.createConverter(new RowType(fields));
      this.datumWriter = new GenericDatumWriter<>(schema);
    }

    @Override
    public int encodeBlock() throws IOException {
      block.reset();
      blockOut.writeInt(3);
      blockOut.writeInt(input.rows.size());
      for (int i = 0; i < input.rows.size(); i++) {
        GenericRowData meta =
            GenericRowData.of(
                instant,
                StringData.fromString(seqnoPrefix + i),
                input.keys.get(i),
                partition,
                fileId);
        IndexedRecord record =
            (IndexedRecord) converter.convert(schema, new JoinedRowData(meta, input.rows.get(i)));
        ByteArrayOutputStream recordBytes = new ByteArrayOutputStream();
        encoder = EncoderFactory.get().binaryEncoder(recordBytes, encoder);
        datumWriter.write(record, encoder);
        encoder.flush();
        if (writeTo) {
          blockOut.writeInt(recordBytes.size());
          recordBytes.writeTo(blockOut);
        } else {
          byte[] bytes = recordBytes.toByteArray();
          blockOut.writeInt(bytes.length);
          blockOut.write(bytes);
        }
      }
      blockOut.flush();
      return block.size();
    }

    @Override
    public byte[] lastBlock() {
      return block.toByteArray();
    }
  }
}
