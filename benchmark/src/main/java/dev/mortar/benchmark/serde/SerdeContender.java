package dev.mortar.benchmark.serde;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.MortarRowSerializer;
import dev.mortar.serde.Operation;
import dev.mortar.serde.PayloadWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.formats.avro.typeutils.AvroSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.infra.Blackhole;

/** The ways to ship a shuffle record that the serde benchmark compares. */
public enum SerdeContender {
  /** {@link MortarRow} through {@link MortarRowSerializer}. */
  MORTAR {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      List<MortarRow> records = mortarRows(rowType, inputs);
      return new SerdeCase<>(
          new MortarRowSerializer(rowType),
          records,
          SerdeContender::readMortarRow,
          mortarRowBuilder(records));
    }
  },
  /**
   * {@link MortarRow}s in {@code MortarRowBatch}es of 8 KiB, read back as views: the writer's
   * shuffle.
   */
  MORTAR_BATCHED {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      List<MortarRow> records = mortarRows(rowType, inputs);
      return new BatchedMortarCase(rowType, records, mortarRowBuilder(records));
    }
  },
  /** The same {@link MortarRow} objects as a Kryo generic type (no type information). */
  KRYO {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      List<MortarRow> records = mortarRows(rowType, inputs);
      return new SerdeCase<>(
          new KryoSerializer<>(MortarRow.class, new SerializerConfigImpl()),
          records,
          SerdeContender::readMortarRow,
          mortarRowBuilder(records));
    }
  },
  /**
   * An Avro {@code GenericRecord} of the metadata columns plus the row through flink-avro's {@link
   * AvroSerializer}: the legacy Hudi path.
   */
  AVRO {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      RowType withMeta = MetaColumns.rowType(rowType);
      Schema schema = AvroSchemaConverter.convertToSchema(withMeta);
      RowDataToAvroConverters.RowDataToAvroConverter converter =
          RowDataToAvroConverters.createConverter(withMeta);
      return new SerdeCase<>(
          new AvroSerializer<>(GenericRecord.class, schema),
          inputs.stream()
              .map(input -> (GenericRecord) converter.convert(schema, MetaColumns.row(input)))
              .toList(),
          (record, blackhole) -> {
            blackhole.consume(record.get(0));
            blackhole.consume(record.get(1));
            blackhole.consume(record.get(2));
            blackhole.consume(record.get(3));
          },
          index -> (GenericRecord) converter.convert(schema, MetaColumns.row(inputs.get(index))));
    }
  },
  /** A binary row with the metadata as four extra columns through Flink's RowDataSerializer. */
  ROW_DATA {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      RowDataSerializer serializer = new RowDataSerializer(MetaColumns.rowType(rowType));
      List<GenericRowData> metadata = inputs.stream().map(MetaColumns::metadata).toList();
      JoinedRowData joined = new JoinedRowData();
      return new SerdeCase<RowData>(
          serializer,
          inputs.stream()
              .map(input -> (RowData) serializer.toBinaryRow(MetaColumns.row(input)).copy())
              .toList(),
          (row, blackhole) -> {
            blackhole.consume(row.getString(0));
            blackhole.consume(row.getString(1));
            blackhole.consume(row.getInt(2));
            blackhole.consume(row.getByte(3));
          },
          // The sender joins the metadata and the binary row; the serializer makes it one binary
          // row (field by field: the row's fields move behind the four new ones).
          index -> joined.replace(metadata.get(index), inputs.get(index).binaryRow()));
    }
  },
  /** Hudi 1.1's {@code HoodieFlinkInternalRow} layout, re-implemented. */
  HUDI_1_1 {
    @Override
    ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs) {
      return new SerdeCase<>(
          new HudiFlinkInternalRowSerializer(rowType),
          inputs.stream().map(SerdeContender::hudiRow).toList(),
          (row, blackhole) -> {
            blackhole.consume(row.recordKey);
            blackhole.consume(row.partitionPath);
            blackhole.consume(row.fileId);
            blackhole.consume(row.operationType);
          },
          index -> hudiRow(inputs.get(index)));
    }
  };

  /** The contender's serializer and the inputs converted to the records it ships. */
  abstract ShuffleCase prepare(RowType rowType, List<ShuffleInput> inputs);

  static void readMortarRow(MortarRow row, Blackhole blackhole) {
    blackhole.consume(row.getRecordKey());
    blackhole.consume(row.getPartitionPath());
    blackhole.consume(row.getBucket());
    blackhole.consume(row.getOperation());
  }

  /** One reused {@link MortarRow} pointed at each record's key, partition and row: no copy. */
  private static SerdeCase.RecordBuilder<MortarRow> mortarRowBuilder(List<MortarRow> records) {
    MortarRow reuse = new MortarRow();
    return index -> {
      MortarRow record = records.get(index);
      reuse.setRecordKey(record.getRecordKey());
      reuse.setPartitionPath(record.getPartitionPath());
      reuse.setBucket(record.getBucket());
      reuse.setOperation(record.getOperation());
      reuse.setPayload(record.getPayload());
      return reuse;
    };
  }

  /** Hudi 1.1's record: a new object per record with the five strings and the row. */
  private static HudiFlinkInternalRow hudiRow(ShuffleInput input) {
    return new HudiFlinkInternalRow(
        false,
        StringData.fromString(input.recordKey()),
        StringData.fromString(input.partitionPath()),
        StringData.fromString(HUDI_FILE_IDS[input.bucket()]),
        StringData.fromString("U"),
        StringData.fromString(hudiOperation(input.operation())),
        input.binaryRow());
  }

  /**
   * Mortar's records, their rows as the writer's payload step makes them ({@link PayloadWriter}:
   * Flink's layout without padding after strings).
   */
  private static List<MortarRow> mortarRows(RowType rowType, List<ShuffleInput> inputs) {
    PayloadWriter payloadWriter = new PayloadWriter(rowType);
    return inputs.stream()
        .map(
            input -> {
              BinaryRowData payload = payloadWriter.toBinaryRow(input.row()).copy();
              return new MortarRow(
                  BinaryStringData.fromString(input.recordKey()),
                  BinaryStringData.fromString(input.partitionPath()),
                  input.bucket(),
                  input.operation(),
                  payload);
            })
        .toList();
  }

  /** File ids per bucket, built once as Hudi's bucket assigner does. */
  private static final String[] HUDI_FILE_IDS =
      IntStream.range(0, ShuffleInput.BUCKETS)
          .mapToObj(SerdeContender::hudiFileId)
          .toArray(String[]::new);

  /** A bucket-index file id as Hudi builds it: 8-digit bucket, UUID tail, "-0" (38 chars). */
  private static String hudiFileId(int bucket) {
    UUID uuid = UUID.nameUUIDFromBytes(Integer.toString(bucket).getBytes(StandardCharsets.UTF_8));
    return String.format("%08d", bucket) + uuid.toString().substring(8) + "-0";
  }

  /** HoodieOperation's short name as Hudi puts it in the operationType string. */
  private static String hudiOperation(Operation operation) {
    return switch (operation) {
      case INSERT -> "I";
      case UPDATE -> "U";
      case DELETE -> "D";
    };
  }
}
