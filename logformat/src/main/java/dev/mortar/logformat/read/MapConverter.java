package dev.mortar.logformat.read;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryMapData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.MapDataSerializer;
import org.apache.flink.table.types.logical.MapType;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;

/**
 * Builds one MAP value per Parquet MAP group ({@code repeated group key_value { key; value }}) and
 * writes it into its parent's slot. The map is assembled in a reused buffer in {@link
 * BinaryMapData}'s layout: the key array's size in bytes (4 bytes), the key array, the value array.
 */
final class MapConverter extends GroupConverter {
  private final ElementBuffer keys;
  private final ElementBuffer values;
  private final EntryConverter entry;
  private final Slot parent;
  private final MapDataSerializer serializer;
  private final BinaryMapData map = new BinaryMapData();
  private byte[] mapBytes = new byte[0];
  private MemorySegment mapSegment = MemorySegmentFactory.wrap(mapBytes);

  MapConverter(GroupType mapGroup, MapType mapType, String path, Slot parent) {
    this.keys = new ElementBuffer(mapType.getKeyType());
    this.values = new ElementBuffer(mapType.getValueType());
    GroupType keyValue = mapGroup.getType(0).asGroupType();
    Converter key = Converters.of(keyValue.getType(0), mapType.getKeyType(), path + ".key", keys);
    Converter value =
        Converters.of(keyValue.getType(1), mapType.getValueType(), path + ".value", values);
    this.entry = new EntryConverter(new Converter[] {key, value}, keys, values);
    this.parent = parent;
    this.serializer = new MapDataSerializer(mapType.getKeyType(), mapType.getValueType());
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return entry;
  }

  @Override
  public void start() {
    keys.reset();
    values.reset();
  }

  @Override
  public void end() {
    BinaryArrayData keyArray = keys.finish();
    BinaryArrayData valueArray = values.finish();
    int keyBytes = keyArray.getSizeInBytes();
    int valueBytes = valueArray.getSizeInBytes();
    int size = 4 + keyBytes + valueBytes;
    if (mapBytes.length < size) {
      mapBytes = new byte[Math.max(size, 2 * mapBytes.length)];
      mapSegment = MemorySegmentFactory.wrap(mapBytes);
    }
    mapSegment.putInt(0, keyBytes);
    BinarySegmentUtils.copyToBytes(
        keyArray.getSegments(), keyArray.getOffset(), mapBytes, 4, keyBytes);
    BinarySegmentUtils.copyToBytes(
        valueArray.getSegments(), valueArray.getOffset(), mapBytes, 4 + keyBytes, valueBytes);
    map.pointTo(mapSegment, 0, size);
    int pos = parent.claim();
    parent.writer().writeMap(pos, map, serializer);
  }
}
