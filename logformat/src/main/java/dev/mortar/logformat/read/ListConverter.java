package dev.mortar.logformat.read;

import org.apache.flink.table.runtime.typeutils.ArrayDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;

/**
 * Builds one ARRAY value per Parquet LIST group, in the 3-level or a 2-level layout ({@link
 * ParquetProjection#repeatedIsElement}), and writes it into its parent's slot.
 */
final class ListConverter extends GroupConverter {
  private final ElementBuffer elements;
  private final Converter repeated;
  private final Slot parent;
  private final ArrayDataSerializer serializer;

  ListConverter(GroupType list, ArrayType arrayType, String path, Slot parent) {
    LogicalType elementType = arrayType.getElementType();
    this.elements = new ElementBuffer(elementType);
    String elementPath = path + "[]";
    if (ParquetProjection.repeatedIsElement(list)) {
      this.repeated = Converters.of(list.getType(0), elementType, elementPath, elements);
    } else {
      GroupType wrapper = list.getType(0).asGroupType();
      Converter element = Converters.of(wrapper.getType(0), elementType, elementPath, elements);
      this.repeated = new EntryConverter(new Converter[] {element}, elements);
    }
    this.parent = parent;
    this.serializer = new ArrayDataSerializer(elementType);
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return repeated;
  }

  @Override
  public void start() {
    elements.reset();
  }

  @Override
  public void end() {
    int pos = parent.claim();
    parent.writer().writeArray(pos, elements.finish(), serializer);
  }
}
