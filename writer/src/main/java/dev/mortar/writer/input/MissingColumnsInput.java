package dev.mortar.writer.input;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The sink's input as rows of the table's columns when the sink lacks some of them ({@code
 * write.null-for-missing-columns}): a map chained to the input, behind and in front of uncopied
 * edges ({@link UncopiedInput}), that hands on one reused {@link MissingColumnsRow} over each input
 * row. The sink's first operator copies a row's bytes before it returns, so the view is never read
 * after the next row.
 */
public final class MissingColumnsInput implements MapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  private final int[] inputFields;
  private transient MissingColumnsRow row;

  private MissingColumnsInput(int[] inputFields) {
    this.inputFields = inputFields;
  }

  /**
   * {@code input} as rows of {@code rowType}, column {@code i} its field {@code inputFields[i]}.
   */
  public static DataStream<RowData> of(
      DataStream<RowData> input, RowType rowType, int[] inputFields, String name) {
    return UncopiedInput.of(
        UncopiedInput.of(input)
            .map(new MissingColumnsInput(inputFields))
            .returns(InternalTypeInfo.of(rowType))
            .name(name)
            .setParallelism(input.getParallelism()));
  }

  @Override
  public RowData map(RowData input) {
    if (row == null) {
      row = new MissingColumnsRow(inputFields);
    }
    return row.pointTo(input);
  }
}
