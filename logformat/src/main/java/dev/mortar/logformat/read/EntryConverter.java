package dev.mortar.logformat.read;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;

/**
 * One repeated group that holds one entry of a collection: the {@code list} group around an array
 * element (3-level layout) or a map's {@code key_value} group. Field {@code i} goes to collection
 * {@code i}; a field the group leaves out is a null element there.
 */
final class EntryConverter extends GroupConverter {
  private final Converter[] fields;
  private final ElementBuffer[] collections;
  private final int[] countsAtStart;

  EntryConverter(Converter[] fields, ElementBuffer... collections) {
    this.fields = fields;
    this.collections = collections;
    this.countsAtStart = new int[collections.length];
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return fields[fieldIndex];
  }

  @Override
  public void start() {
    for (int i = 0; i < collections.length; i++) {
      countsAtStart[i] = collections[i].count();
    }
  }

  @Override
  public void end() {
    for (int i = 0; i < collections.length; i++) {
      if (collections[i].count() == countsAtStart[i]) {
        collections[i].appendNull();
      }
    }
  }
}
