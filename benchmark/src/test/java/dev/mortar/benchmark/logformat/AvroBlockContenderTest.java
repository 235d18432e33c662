package dev.mortar.benchmark.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import org.junit.jupiter.api.Test;

/** The contenders are comparable: every one writes exactly the same block bytes. */
class AvroBlockContenderTest {
  @Test
  void everyContenderWritesTheSameBlock() throws Exception {
    for (WorkloadSchema schema :
        new WorkloadSchema[] {WorkloadSchema.SCHEMA1, WorkloadSchema.SCHEMA3}) {
      BlockInput input = BlockInput.generate(schema, 200, 7);
      AvroBlockContender.Encoder mortar = AvroBlockContender.MORTAR.prepare(input);
      int size = mortar.encodeBlock();
      assertThat(size).isGreaterThan(200 * 100);
      byte[] expected = mortar.lastBlock();
      for (AvroBlockContender contender : AvroBlockContender.values()) {
        AvroBlockContender.Encoder encoder = contender.prepare(input);
        encoder.encodeBlock();
        // A second block through the same encoder: reuse must not leak state between blocks.
        assertThat(encoder.encodeBlock()).as("%s %s", schema, contender).isEqualTo(size);
        assertThat(encoder.lastBlock()).as("%s %s", schema, contender).isEqualTo(expected);
      }
    }
  }
}
