package dev.mortar.benchmark.serde;

import java.io.IOException;
import java.util.List;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One contender's way through the shuffle, ready to run on the benchmark records: sender, wire and
 * receiver. The receiver reads each record's shuffle metadata (key, partition path, bucket,
 * operation), as the bucket writer does before it buffers the row.
 */
interface ShuffleCase {
  /** The benchmark records in the contender's shape. */
  List<?> records();

  /** Ships every record built beforehand and reads each one's metadata on the receiving side. */
  void roundTrip(Blackhole blackhole) throws IOException;

  /** The same, with each record built by the sender right before it is serialized. */
  void buildAndRoundTrip(Blackhole blackhole) throws IOException;

  /** The records after one round trip, as independent objects: they must equal {@link #records}. */
  List<?> roundTripped() throws IOException;

  /** The records built per record after one round trip: they must equal {@link #records}. */
  List<?> builtRoundTripped() throws IOException;

  /** Average bytes on the wire per record. */
  double bytesPerRecord() throws IOException;
}
