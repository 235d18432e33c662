package dev.mortar.writer.sql;

import dev.mortar.writer.MortarSink;
import dev.mortar.writer.settings.SinkSettings;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * The planned SQL sink: adds the same topology as the DataStream {@code MortarSink}. It takes an
 * upsert changelog (INSERT, UPDATE_AFTER, DELETE), and declares an insert-only input as such: the
 * sink keeps the last row per key of appended rows itself, so the planner neither adds an upsert
 * materializer nor (Flink 2.3) asks for an {@code ON CONFLICT} clause. Static partitions of {@code
 * INSERT ... PARTITION (...)} need nothing here: the planner writes their values into the rows.
 */
final class MortarDynamicSink implements DynamicTableSink, SupportsPartitioning {
  private final SinkSettings settings;

  MortarDynamicSink(SinkSettings settings) {
    this.settings = settings;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    return requestedMode.containsOnly(RowKind.INSERT)
        ? ChangelogMode.insertOnly()
        : ChangelogMode.upsert();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    return new DataStreamSinkProvider() {
      @Override
      public DataStreamSink<?> consumeDataStream(
          ProviderContext providerContext, DataStream<RowData> input) {
        return MortarSink.of(settings, providerContext::generateUid).sinkTo(input);
      }
    };
  }

  @Override
  public void applyStaticPartition(Map<String, String> partition) {
    // The planner adds the static values to the rows themselves.
  }

  @Override
  public DynamicTableSink copy() {
    return new MortarDynamicSink(settings);
  }

  @Override
  public String asSummaryString() {
    return "Mortar(" + settings.basePath() + ")";
  }
}
