package dev.mortar.writer.assign;

import dev.mortar.writer.input.FieldRenderer;
import dev.mortar.writer.input.KeyFields;
import dev.mortar.writer.table.RecordKeys;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Builds a row's Hudi record key as UTF-8, byte for byte the string {@link RecordKeys#build} makes
 * of the rendered key fields. A key that is one integer or string field in the bare form (the
 * common case) is encoded straight from the field, without a Java {@code String}; any other key
 * goes through {@link KeyFields#render} and {@link RecordKeys#build}.
 */
abstract class RecordKeyEncoder {

  /**
   * The row's record key, or null when Hudi would reject it (null or empty); the returned value may
   * share memory with the row or with this encoder and is valid until the next call.
   */
  @Nullable
  abstract BinaryStringData encode(RowData row);

  static RecordKeyEncoder of(KeyFields keyFields, RecordKeys recordKeys) {
    if (keyFields.size() == 1 && recordKeys.isBareValue()) {
      FieldRenderer field = keyFields.field(0);
      switch (field.type().getTypeRoot()) {
        case TINYINT, SMALLINT, INTEGER, BIGINT -> {
          return new IntegerKey(field);
        }
        case CHAR, VARCHAR -> {
          return new StringKey(field.position());
        }
        default -> {}
      }
    }
    return new RenderedKey(keyFields, recordKeys);
  }

  /** The decimal digits of an integer field ({@code Long.toString}), written into one buffer. */
  private static final class IntegerKey extends RecordKeyEncoder {
    /** "-9223372036854775808" is the longest rendering. */
    private static final int MAX_DIGITS = 20;

    private final FieldRenderer field;
    private final byte[] digits = new byte[MAX_DIGITS];
    private final MemorySegment[] segments = {MemorySegmentFactory.wrap(digits)};

    IntegerKey(FieldRenderer field) {
      this.field = field;
    }

    @Override
    BinaryStringData encode(RowData row) {
      int position = field.position();
      if (row.isNullAt(position)) {
        return null;
      }
      long value =
          switch (field.type().getTypeRoot()) {
            case TINYINT -> row.getByte(position);
            case SMALLINT -> row.getShort(position);
            case INTEGER -> row.getInt(position);
            default -> row.getLong(position);
          };
      // Digits are produced from the negated value so that Long.MIN_VALUE needs no special case.
      boolean negative = value < 0;
      long remaining = negative ? value : -value;
      int start = MAX_DIGITS;
      do {
        digits[--start] = (byte) ('0' - remaining % 10);
        remaining /= 10;
      } while (remaining != 0);
      if (negative) {
        digits[--start] = '-';
      }
      return BinaryStringData.fromAddress(segments, start, MAX_DIGITS - start);
    }
  }

  /** A CHAR or VARCHAR field is its own key: its UTF-8 bytes, not copied. */
  private static final class StringKey extends RecordKeyEncoder {
    private final int position;

    StringKey(int position) {
      this.position = position;
    }

    @Override
    BinaryStringData encode(RowData row) {
      if (row.isNullAt(position)) {
        return null;
      }
      BinaryStringData key = (BinaryStringData) row.getString(position);
      key.ensureMaterialized();
      return key.getSizeInBytes() == 0 ? null : key;
    }
  }

  /** Any key: rendered field by field and joined as Hudi's key generator joins them. */
  private static final class RenderedKey extends RecordKeyEncoder {
    private final KeyFields keyFields;
    private final RecordKeys recordKeys;
    private String[] values;

    RenderedKey(KeyFields keyFields, RecordKeys recordKeys) {
      this.keyFields = keyFields;
      this.recordKeys = recordKeys;
    }

    @Override
    BinaryStringData encode(RowData row) {
      values = keyFields.render(row, values);
      try {
        return BinaryStringData.fromString(recordKeys.build(values));
      } catch (IllegalArgumentException allNullOrEmpty) {
        return null;
      }
    }
  }
}
