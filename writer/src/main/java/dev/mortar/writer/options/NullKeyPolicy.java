package dev.mortar.writer.options;

/** What the sink does with a row that has no record key ({@link WriterOptions#NULL_KEY_POLICY}). */
public enum NullKeyPolicy {
  FAIL,
  DROP
}
