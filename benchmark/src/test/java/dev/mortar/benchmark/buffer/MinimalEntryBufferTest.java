package dev.mortar.benchmark.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.serde.Operation;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The yardstick of the buffer benchmark must hold what it is given, or its figures mean nothing:
 * every record comes back in order with its key, ordering value, operation and row bytes, across
 * page changes (small pages, so there are many), and again after a clear.
 */
class MinimalEntryBufferTest {
  private static final int RECORDS = 1_000;

  @ParameterizedTest
  @EnumSource(
      value = WorkloadSchema.class,
      names = {"SCHEMA1", "SCHEMA3"})
  void everyRecordComesBackAsAppended(WorkloadSchema schema) {
    BufferInput input = new BufferInput(schema, RECORDS, RECORDS);
    int arity = schema.rowType().getFieldCount();
    MinimalEntryBuffer buffer = new MinimalEntryBuffer(8 * 1024, 1_024, arity);
    for (int cycle = 0; cycle < 2; cycle++) {
      input.appendTo(buffer);
      buffer.rewind();
      List<String> read = new ArrayList<>();
      while (buffer.next()) {
        assertThat(buffer.operation()).isEqualTo(Operation.UPDATE);
        read.add(buffer.orderingValue() + "/" + buffer.key() + "/" + hex(buffer.row()));
      }
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        input.pointAt(i);
        expected.add(i + "/" + input.key() + "/" + hex(input.row()));
      }
      assertThat(read).containsExactlyElementsOf(expected);
      buffer.clear();
    }
  }

  private static String hex(BinaryRowData row) {
    byte[] bytes = new byte[row.getSizeInBytes()];
    row.getSegments()[0].get(row.getOffset(), bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
