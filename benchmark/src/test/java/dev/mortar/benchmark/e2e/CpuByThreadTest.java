package dev.mortar.benchmark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Thread names as Flink 1.20 and Mortar give them, and the group each falls in. */
class CpuByThreadTest {

  @Test
  void groupsThreadsByName() {
    assertThat(
            CpuByThread.groupOf(
                "Legacy Source Thread - Source: workload_source[1] -> ConstraintEnforcer[2] (1/2)#0"))
        .isEqualTo(CpuByThread.SOURCE_TASK);
    assertThat(CpuByThread.groupOf("Source: workload_source[1] -> ConstraintEnforcer[2] (2/2)#0"))
        .isEqualTo(CpuByThread.SOURCE_TASK);
    assertThat(CpuByThread.groupOf("mortar-write: workload_sink (1/2)#0"))
        .isEqualTo(CpuByThread.SINK_TASKS);
    assertThat(CpuByThread.groupOf("workload_sink[3]: Writer (2/2)#0"))
        .isEqualTo(CpuByThread.SINK_TASKS);
    assertThat(CpuByThread.groupOf("mortar-flush: workload_sink (1)#0"))
        .isEqualTo(CpuByThread.MORTAR_FLUSH);
    assertThat(CpuByThread.groupOf("mortar-compact: workload_sink (1/2)#0"))
        .isEqualTo(CpuByThread.COMPACTION);
    assertThat(CpuByThread.groupOf("Writer : workload_sink (1/2)#0-compaction-thread-1"))
        .isEqualTo(CpuByThread.COMPACTION);
    assertThat(CpuByThread.groupOf("mortar-archiver-thread-1"))
        .isEqualTo(CpuByThread.MORTAR_SERVICES);
    assertThat(CpuByThread.groupOf("flink-pekko.actor.default-dispatcher-4"))
        .isEqualTo(CpuByThread.OTHER_JAVA);
    assertThat(JvmThreadCpu.groupOf("G1 Conc#0")).isEqualTo(CpuByThread.GC);
    assertThat(JvmThreadCpu.groupOf("GC Thread#1")).isEqualTo(CpuByThread.GC);
    assertThat(JvmThreadCpu.groupOf("C2 CompilerThre")).isEqualTo(CpuByThread.JIT);
    assertThat(JvmThreadCpu.groupOf("mortar-flush: w")).isNull();
  }

  @Test
  void everyGroupIsReportedAndCollectionsCountAsGc() throws InterruptedException {
    try (CpuByThread threads = CpuByThread.start()) {
      long sum = 0;
      for (long i = 0; i < 50_000_000L; i++) {
        sum += i ^ (sum >>> 3);
      }
      assertThat(sum).isNotZero();
      for (int i = 0; i < 3; i++) {
        System.gc();
      }
      var perRow = threads.stopAndDivide(1);
      assertThat(perRow.keySet()).containsExactly(CpuByThread.GROUPS);
      // this test's thread is "main" or a surefire worker: other Java
      assertThat(perRow.get(CpuByThread.OTHER_JAVA)).isGreaterThan(1_000.0);
      if (System.getProperty("os.name").equals("Linux")) {
        assertThat(perRow.get(CpuByThread.GC)).isPositive();
      }
    }
  }
}
