package dev.mortar.writer.input;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The sink's input as rows of the table's columns when the sink lacks some of them ({@code
 * write.null-for-missing-columns}): a map chained to the input, behind and in front of uncopied
 * edges ({@link UncopiedInput}), that hands on one reused view over each input row. The view is
 * made of Flink's own rows, so it implements {@code RowData} as each Flink line defines it: the
 * input joined to a row of nulls, projected so that a missing column reads one of the nulls.
 *
 * <pre>
 *   input (k fields) ⨝ nulls (one per missing column) ──project──▶ the table's columns
 *   column i: input field inputFields[i], or k + j for the j-th missing column
 * </pre>
 *
 * The sink's first operator copies a row's bytes before it returns, so the view is never read after
 * the next row.
 */
public final class MissingColumnsInput implements MapFunction<RowData, RowData> {
  private static final long serialVersionUID = 1L;

  /** For each column of the table, its field in the joined row. */
  private final int[] projection;

  private final int missing;
  private transient GenericRowData nulls;
  private transient JoinedRowData joined;
  private transient ProjectedRowData row;

  private MissingColumnsInput(int[] inputFields) {
    int inputArity = 0;
    for (int field : inputFields) {
      inputArity += field >= 0 ? 1 : 0;
    }
    this.projection = new int[inputFields.length];
    int nullsBefore = 0;
    for (int i = 0; i < inputFields.length; i++) {
      projection[i] = inputFields[i] >= 0 ? inputFields[i] : inputArity + nullsBefore++;
    }
    this.missing = nullsBefore;
  }

  /**
   * {@code input} as rows of {@code rowType}: column {@code i} the input's field {@code
   * inputFields[i]}, or null where that is -1 (every input field is one column).
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
      nulls = new GenericRowData(missing);
      joined = new JoinedRowData();
      row = ProjectedRowData.from(projection).replaceRow(joined);
    }
    joined.replace(input, nulls);
    joined.setRowKind(input.getRowKind());
    return row;
  }
}
