package dev.mortar.writer.table;

import java.util.List;

/**
 * The Hudi key generators Mortar writes as, chosen like Hudi's Flink table factory
 * (HoodieTableFactory#setupHoodieKeyOptions): no partition field gives the non-partitioned
 * generator, exactly one key and one partition field the simple one, anything else the complex one.
 * The name is what hoodie.properties stores as {@code hoodie.table.keygenerator.type}.
 */
public enum KeyGeneratorType {
  SIMPLE_AVRO,
  COMPLEX_AVRO,
  NON_PARTITION_AVRO;

  static KeyGeneratorType of(int recordKeyFieldCount, int partitionFieldCount) {
    if (partitionFieldCount == 0) {
      return NON_PARTITION_AVRO;
    }
    if (recordKeyFieldCount == 1 && partitionFieldCount == 1) {
      return SIMPLE_AVRO;
    }
    return COMPLEX_AVRO;
  }

  /**
   * Whether the record key is written as {@code f1:v1,f2:v2} (Hudi's complex key format; in 1.1
   * also for a single field under the complex generator) rather than the bare value.
   */
  boolean usesFieldValuePairs(List<String> recordKeyFields) {
    return switch (this) {
      case SIMPLE_AVRO -> false;
      case NON_PARTITION_AVRO -> recordKeyFields.size() > 1;
      case COMPLEX_AVRO -> true;
    };
  }
}
