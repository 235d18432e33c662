package dev.mortar.serde;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The byte layout of one {@link MortarRow} on the wire (network shuffle and Flink state), version
 * {@value #VERSION}. Nothing of the layout lives anywhere else: {@link MortarRowSerializer} only
 * calls the helpers here.
 *
 * <pre>
 * +--------+--------+---------+----------+---------+-----------+-----------+-----------+
 * | header | bucket | key len | part len | row len | key bytes | partition | row bytes |
 * | 1 byte | varint | varint  | varint   | varint  | UTF-8     | UTF-8     | BinaryRow |
 * +--------+--------+---------+----------+---------+-----------+-----------+-----------+
 *                             '- if P --''- if R -''------------ body ----------------'
 *
 *  header bits:  7 6 5 4 3 2 1 0
 *               +-+-+-+-+-+-+-+-+
 *               |0|0|0|0|R|P| op|   op = Operation.code() (0 INSERT, 1 UPDATE, 2 DELETE)
 *               +-+-+-+-+-+-+-+-+   P  = the partition path is not empty (else no length, 0 bytes)
 *                                   R  = a payload row follows (else no length, payload is null)
 *                                   bits 4-7 are 0; a reader rejects anything else as corrupt
 * </pre>
 *
 * <ul>
 *   <li>All lengths come before the body, so a reader knows the body size after the prefix and
 *       reads the key, the partition path and the row with one {@code readFully} into one array
 *       (which the three then share), and a stream copy moves the body with one {@code write}.
 *   <li>Varints are unsigned LEB128 over the int's 32 bits: 7 bits per byte, low group first, high
 *       bit set on every byte but the last. Values below 128 take one byte; a negative bucket takes
 *       five.
 *   <li>Key and partition path are the UTF-8 bytes of their {@code BinaryStringData}.
 *   <li>The row is the {@code BinaryRowData} bytes exactly as they sit in its memory segments (null
 *       bits, fixed-length part, variable-length part). The arity is not written: it comes from the
 *       payload row type every serializer is built for. The writer's rows come from {@link
 *       PayloadWriter}, which leaves out the padding after strings; any binary row is accepted.
 * </ul>
 *
 * What a record costs against Hudi's own shuffle row is in rfc/0001-serde.md.
 */
public final class MortarRowWireFormat {
  /** Wire format version; {@link MortarRowSerializerSnapshot} records the version it wrote. */
  public static final int VERSION = 1;

  /** Bits 0-1 of the header: the operation code. */
  public static final int OPERATION_MASK = 0b0000_0011;

  /** Bit 2 of the header: the partition path is not empty (its length and bytes are present). */
  public static final int HAS_PARTITION = 0b0000_0100;

  /** Bit 3 of the header: the payload row is present (its length and bytes are present). */
  public static final int HAS_PAYLOAD = 0b0000_1000;

  /** Bits a version-1 header never sets. */
  public static final int RESERVED_MASK = 0b1111_0000;

  /** Most bytes a varint of 32 bits takes. */
  public static final int MAX_VARINT_BYTES = 5;

  private MortarRowWireFormat() {}

  /** The header byte for a row with this operation and these optional parts. */
  public static int header(Operation operation, boolean hasPartition, boolean hasPayload) {
    return operation.code() | (hasPartition ? HAS_PARTITION : 0) | (hasPayload ? HAS_PAYLOAD : 0);
  }

  /** Reads the header byte and checks its reserved bits and operation code. */
  public static int readHeader(DataInputView in) throws IOException {
    int header = in.readUnsignedByte();
    if ((header & RESERVED_MASK) != 0 || (header & OPERATION_MASK) == OPERATION_MASK) {
      throw new IOException(
          String.format(
              "corrupt MortarRow header byte 0x%02x: wire format version %d allows only bits 0-3"
                  + " with an operation code of 0-2 (is the reader's serializer version older than"
                  + " the writer's?)",
              header, VERSION));
    }
    return header;
  }

  public static Operation operationOf(int header) {
    return Operation.ofCode((byte) (header & OPERATION_MASK));
  }

  public static boolean hasPartition(int header) {
    return (header & HAS_PARTITION) != 0;
  }

  public static boolean hasPayload(int header) {
    return (header & HAS_PAYLOAD) != 0;
  }

  /** Writes {@code value}'s 32 bits as an unsigned varint (1-5 bytes). */
  public static void writeVarInt(DataOutputView out, int value) throws IOException {
    while ((value & ~0x7F) != 0) {
      out.writeByte((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.writeByte(value);
  }

  /** Reads a varint written by {@link #writeVarInt}. */
  public static int readVarInt(DataInputView in) throws IOException {
    int first = in.readUnsignedByte();
    return first < 0x80 ? first : readVarIntAfter(first, in); // one byte: lengths below 128
  }

  private static int readVarIntAfter(int first, DataInputView in) throws IOException {
    int value = first & 0x7F;
    for (int shift = 7; shift < 7 * MAX_VARINT_BYTES; shift += 7) {
      int b = in.readUnsignedByte();
      value |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException(
        "corrupt MortarRow varint: more than " + MAX_VARINT_BYTES + " bytes for a 32-bit value");
  }

  /** Reads a varint length and checks it is not negative (a corrupt or truncated stream). */
  public static int readLength(DataInputView in, String what) throws IOException {
    int length = readVarInt(in);
    if (length < 0) {
      throw new IOException(
          "corrupt MortarRow: " + what + " length " + length + " is negative (unsigned > 2^31)");
    }
    return length;
  }

  /** Reads the partition path's length when the header says it is there, else 0. */
  public static int readPartitionLength(DataInputView in, int header) throws IOException {
    return hasPartition(header) ? readLength(in, "partition path") : 0;
  }

  /** Reads the payload's length when the header says it is there, else -1 (no payload). */
  public static int readPayloadLength(DataInputView in, int header) throws IOException {
    return hasPayload(header) ? readLength(in, "payload") : -1;
  }

  /** Bytes {@link #writeVarInt} spends on {@code value}. */
  public static int varIntSize(int value) {
    int bits = 32 - Integer.numberOfLeadingZeros(value | 1);
    return (bits + 6) / 7;
  }
}
