package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRow;
import dev.mortar.writer.SinkSettings;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/** First step of the sink in front of the bucket shuffle: a {@link ShuffleRowMaker} per task. */
public final class RowKeyAssigner extends RichFlatMapFunction<RowData, MortarRow> {
  private static final long serialVersionUID = 1L;

  private final ShuffleRowMaker rows;

  public RowKeyAssigner(SinkSettings settings) {
    this.rows = new ShuffleRowMaker(settings);
  }

  @Override
  public void open(OpenContext openContext) {
    rows.open(getRuntimeContext().getMetricGroup());
  }

  @Override
  public void flatMap(RowData row, Collector<MortarRow> collector) {
    MortarRow shuffleRow = rows.toShuffleRow(row);
    if (shuffleRow != null) {
      collector.collect(shuffleRow);
    }
  }
}
