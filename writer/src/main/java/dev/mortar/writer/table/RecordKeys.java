package dev.mortar.writer.table;

import java.util.List;

/**
 * Builds the record key string the way Hudi's Avro key generators do, from the key fields' values
 * already rendered as strings. Bare value for the simple form; {@code f1:v1,f2:v2} for the complex
 * form, where a null value is written {@code __null__} and an empty one {@code __empty__}. A key
 * whose every value is null or empty is rejected, as Hudi rejects it.
 */
public final class RecordKeys {
  static final String NULL_VALUE = "__null__";
  static final String EMPTY_VALUE = "__empty__";

  private final List<String> fields;
  private final boolean fieldValuePairs;

  private RecordKeys(List<String> fields, boolean fieldValuePairs) {
    this.fields = fields;
    this.fieldValuePairs = fieldValuePairs;
  }

  public static RecordKeys of(TableSettings settings) {
    List<String> fields = settings.recordKeyFields();
    return new RecordKeys(fields, settings.keyGeneratorType().usesFieldValuePairs(fields));
  }

  /** Whether the key is the bare rendering of its single field (not {@code f1:v1,...}). */
  public boolean isBareValue() {
    return !fieldValuePairs;
  }

  /**
   * The record key for the given values, one per record key field in declaration order.
   *
   * @throws IllegalArgumentException if the key is null or empty (simple form) or all its values
   *     are (complex form)
   */
  public String build(String... values) {
    if (values.length != fields.size()) {
      throw new IllegalArgumentException(
          "expected " + fields.size() + " record key values " + fields + ", got " + values.length);
    }
    if (!fieldValuePairs) {
      String value = values[0];
      if (value == null || value.isEmpty()) {
        throw nullKey();
      }
      return value;
    }
    StringBuilder key = new StringBuilder();
    boolean allNullOrEmpty = true;
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        key.append(',');
      }
      key.append(fields.get(i)).append(':');
      String value = values[i];
      if (value == null) {
        key.append(NULL_VALUE);
      } else if (value.isEmpty()) {
        key.append(EMPTY_VALUE);
      } else {
        key.append(value);
        allNullOrEmpty = false;
      }
    }
    if (allNullOrEmpty) {
      throw nullKey();
    }
    return key.toString();
  }

  private IllegalArgumentException nullKey() {
    return new IllegalArgumentException(
        "record key fields " + fields + " are all null or empty; a Hudi record needs a key");
  }
}
