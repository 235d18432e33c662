package org.apache.flink.streaming.api.functions.source.legacy;

/**
 * Flink 1.20's {@code RichSourceFunction} under the name Flink 2 gave it, so that a test or
 * benchmark source compiles on both lines; its {@code SourceContext} is inherited, so the source
 * names it without an import.
 */
public abstract class RichSourceFunction<T>
    extends org.apache.flink.streaming.api.functions.source.RichSourceFunction<T> {
  private static final long serialVersionUID = 1L;
}
