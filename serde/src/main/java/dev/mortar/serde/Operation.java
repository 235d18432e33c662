package dev.mortar.serde;

import org.apache.flink.types.RowKind;

/**
 * What a record does to its key in the table. The code is what {@link MortarRowWireFormat} puts in
 * the two operation bits of the header byte, so codes must stay in {@code 0..3} and never change.
 */
public enum Operation {
  INSERT((byte) 0, RowKind.INSERT),
  UPDATE((byte) 1, RowKind.UPDATE_AFTER),
  DELETE((byte) 2, RowKind.DELETE);

  private static final Operation[] BY_CODE = {INSERT, UPDATE, DELETE};

  private final byte code;
  private final RowKind rowKind;

  Operation(byte code, RowKind rowKind) {
    this.code = code;
    this.rowKind = rowKind;
  }

  /** The stable wire code of this operation, in {@code 0..2}. */
  public byte code() {
    return code;
  }

  /** The operation with wire code {@code code}; throws for codes no operation has. */
  public static Operation ofCode(byte code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException(
          "unknown operation code " + code + ": expected 0 (INSERT), 1 (UPDATE) or 2 (DELETE)");
    }
    return BY_CODE[code];
  }

  /**
   * INSERT → INSERT, UPDATE_AFTER → UPDATE, DELETE → DELETE. UPDATE_BEFORE has no operation: upsert
   * sinks drop it before calling this.
   */
  public static Operation fromRowKind(RowKind kind) {
    switch (kind) {
      case INSERT:
        return INSERT;
      case UPDATE_AFTER:
        return UPDATE;
      case DELETE:
        return DELETE;
      default:
        throw new IllegalArgumentException(
            "row kind "
                + kind
                + " has no Mortar operation: an upsert sink drops UPDATE_BEFORE rows before"
                + " converting, only INSERT, UPDATE_AFTER and DELETE map to an operation");
    }
  }

  /** The Flink row kind of this operation (UPDATE → UPDATE_AFTER). */
  public RowKind toRowKind() {
    return rowKind;
  }
}
