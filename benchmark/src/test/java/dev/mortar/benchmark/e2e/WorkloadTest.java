package dev.mortar.benchmark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/** The workload's DataGen SQL yields rows of the declared shapes. */
class WorkloadTest {

  @Test
  void schema1RowsLookLikeTheQ1View() throws Exception {
    List<Row> rows = collect(Workload.of(WorkloadSchema.SCHEMA1), 500);

    assertThat(rows).hasSize(500);
    for (Row row : rows) {
      long key = (Long) row.getField(0);
      assertThat(key).isBetween(0L, WorkloadSchema.KEY_SPACE - 1);
      // q1.sql: the name is cut to 64 + key % 32 characters.
      assertThat(((String) row.getField(1)).length()).isEqualTo(64 + (int) (key % 32));
      assertThat(row.getArity()).isEqualTo(WorkloadSchema.SCHEMA1.rowType().getFieldCount());
      assertThat(row.getField(10)).isNotNull();
    }
  }

  @Test
  void sizedRowsHoldTheirBytes() throws Exception {
    Workload workload = Workload.sized(1024);
    for (Row row : collect(workload, 50)) {
      assertThat(8 + ((String) row.getField(1)).length()).isEqualTo(1024);
    }
    assertThat(workload.logicalBytesPerRow()).isEqualTo(1024);
  }

  private static List<Row> collect(Workload workload, long rows) throws Exception {
    TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.getConfig().getConfiguration().setString("parallelism.default", "1");
    for (String statement : workload.sourceStatements(rows)) {
      env.executeSql(statement);
    }
    List<Row> result = new ArrayList<>();
    try (CloseableIterator<Row> it = env.executeSql("SELECT * FROM workload").collect()) {
      it.forEachRemaining(result::add);
    }
    return result;
  }
}
