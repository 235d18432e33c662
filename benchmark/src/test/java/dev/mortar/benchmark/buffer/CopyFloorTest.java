package dev.mortar.benchmark.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.Arrays;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The buffer benchmark's copy floor is a bound only if it really copies every row: each row's bytes
 * must be in the pages, in record order, a row that does not fit the rest of a page at the start of
 * the next.
 */
class CopyFloorTest {
  private static final int RECORDS = 500;
  private static final int PAGE_SIZE = 16 * 1024;

  @ParameterizedTest
  @EnumSource(
      value = WorkloadSchema.class,
      names = {"SCHEMA1", "SCHEMA3"})
  void everyRowIsInThePagesInOrder(WorkloadSchema schema) {
    BufferInput input = new BufferInput(schema, RECORDS, RECORDS);
    byte[][] pages = new byte[1_024][];
    long copied = input.copyRowsTo(pages, PAGE_SIZE);
    int page = 0;
    int position = 0;
    long expected = 0;
    for (int i = 0; i < RECORDS; i++) {
      input.pointAt(i);
      BinaryRowData row = input.row();
      byte[] bytes = row.getSegments()[0].getArray();
      int length = row.getSizeInBytes();
      if (position + length > PAGE_SIZE) {
        page++;
        position = 0;
      }
      assertThat(Arrays.copyOfRange(pages[page], position, position + length))
          .as("row %d", i)
          .isEqualTo(Arrays.copyOfRange(bytes, row.getOffset(), row.getOffset() + length));
      position += length;
      expected += length;
    }
    assertThat(copied).isEqualTo(expected);
    assertThat(page).as("pages used").isPositive();
  }

  @Test
  void runningOutOfPagesIsAnError() {
    BufferInput input = new BufferInput(WorkloadSchema.SCHEMA3, RECORDS, RECORDS);
    assertThatThrownBy(() -> input.copyRowsTo(new byte[2][], PAGE_SIZE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no page left for row");
  }
}
