package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.serde.OpaqueTypeInfo;
import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With object reuse off, the sink's first operator (the batcher, or a write task chained to its
 * input) takes its input's rows without Flink's copy between chained operators, and keeps none of
 * them: the operator in front of the sink hands over one row object that it overwrites for every
 * change, and Hudi's reader must still show exactly the latest row per key. The rows' type counts
 * the copies its serializer makes; the sink's input edge must make none.
 */
class UncopiedInputITCase {
  private static final Logger LOG = LoggerFactory.getLogger(UncopiedInputITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  private static final AtomicLong COPIES = new AtomicLong();

  @TempDir Path dir;

  @ParameterizedTest(name = "write tasks {0}")
  @ValueSource(ints = {1, 2})
  void theSinkTakesItsInputRowsUncopiedAndKeepsNone(int writeTasks) throws Exception {
    long seed = Seeds.seed("UncopiedInputITCase");
    LOG.info("seed {} with {} write tasks", seed, writeTasks);
    Changelog changelog = Changelog.random(seed, 1000, 200, 100, 50);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(writeTasks)
            .ordering(true)
            .buckets(3)
            .perCheckpoint(250)
            .build();
    StreamExecutionEnvironment env = job.environment();
    assertThat(env.getConfig().isObjectReuseEnabled()).isFalse();
    DataStream<RowData> rows =
        job.changelogSource(env, changelog)
            .map(new OneRowObject())
            .returns(new CopyCountingRowType())
            .setParallelism(1);
    job.addSink(rows);
    COPIES.set(0);

    env.execute("uncopied input");

    assertThat(COPIES.get()).as("copies of input rows, seed %s", seed).isZero();
    job.verify(changelog);
  }

  /** Hands every change on in the same row object, overwritten for the next one. */
  private static final class OneRowObject implements MapFunction<RowData, RowData> {
    private static final long serialVersionUID = 1L;

    private transient GenericRowData row;

    @Override
    public RowData map(RowData change) {
      if (row == null) {
        row = new GenericRowData(change.getArity());
      }
      row.setRowKind(change.getRowKind());
      GenericRowData fields = (GenericRowData) change;
      for (int i = 0; i < change.getArity(); i++) {
        row.setField(i, fields.getField(i));
      }
      return row;
    }
  }

  /** The changelog's row type, whose serializer counts the rows it copies in {@link #COPIES}. */
  private static final class CopyCountingRowType extends OpaqueTypeInfo<RowData> {
    private static final long serialVersionUID = 1L;

    CopyCountingRowType() {
      super(RowData.class);
    }

    @Override
    protected TypeSerializer<RowData> serializer() {
      return new CopyCountingSerializer();
    }
  }

  private static final class CopyCountingSerializer extends RowDataSerializer {
    private static final long serialVersionUID = 1L;

    CopyCountingSerializer() {
      super(Changelog.ROW_TYPE);
    }

    @Override
    public TypeSerializer<RowData> duplicate() {
      return new CopyCountingSerializer();
    }

    @Override
    public RowData copy(RowData from) {
      COPIES.incrementAndGet();
      return super.copy(from);
    }

    @Override
    public RowData copy(RowData from, RowData reuse) {
      COPIES.incrementAndGet();
      return super.copy(from, reuse);
    }
  }
}
