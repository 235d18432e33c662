package dev.mortar.writer.input;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;

/**
 * A row of the table's columns over a sink's input row that lacks some of them: column {@code i} is
 * the input's field {@code inputFields[i]}, or null where that is -1. A view, reused: {@link
 * #pointTo} sets the input row, nothing is copied.
 */
final class MissingColumnsRow implements RowData {
  private final int[] inputFields;
  private RowData input;

  MissingColumnsRow(int[] inputFields) {
    this.inputFields = inputFields;
  }

  MissingColumnsRow pointTo(RowData row) {
    this.input = row;
    return this;
  }

  @Override
  public int getArity() {
    return inputFields.length;
  }

  @Override
  public RowKind getRowKind() {
    return input.getRowKind();
  }

  @Override
  public void setRowKind(RowKind kind) {
    input.setRowKind(kind);
  }

  @Override
  public boolean isNullAt(int pos) {
    return inputFields[pos] < 0 || input.isNullAt(inputFields[pos]);
  }

  @Override
  public boolean getBoolean(int pos) {
    return input.getBoolean(inputFields[pos]);
  }

  @Override
  public byte getByte(int pos) {
    return input.getByte(inputFields[pos]);
  }

  @Override
  public short getShort(int pos) {
    return input.getShort(inputFields[pos]);
  }

  @Override
  public int getInt(int pos) {
    return input.getInt(inputFields[pos]);
  }

  @Override
  public long getLong(int pos) {
    return input.getLong(inputFields[pos]);
  }

  @Override
  public float getFloat(int pos) {
    return input.getFloat(inputFields[pos]);
  }

  @Override
  public double getDouble(int pos) {
    return input.getDouble(inputFields[pos]);
  }

  @Override
  public StringData getString(int pos) {
    return input.getString(inputFields[pos]);
  }

  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    return input.getDecimal(inputFields[pos], precision, scale);
  }

  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    return input.getTimestamp(inputFields[pos], precision);
  }

  @Override
  public <T> RawValueData<T> getRawValue(int pos) {
    return input.getRawValue(inputFields[pos]);
  }

  @Override
  public byte[] getBinary(int pos) {
    return input.getBinary(inputFields[pos]);
  }

  @Override
  public ArrayData getArray(int pos) {
    return input.getArray(inputFields[pos]);
  }

  @Override
  public MapData getMap(int pos) {
    return input.getMap(inputFields[pos]);
  }

  @Override
  public RowData getRow(int pos, int numFields) {
    return input.getRow(inputFields[pos], numFields);
  }
}
