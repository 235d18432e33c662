package dev.mortar.benchmark;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The JMH settings the component micro-benchmarks share, which JMH reads through the class
 * hierarchy: state per thread, throughput in operations per millisecond, one fork with a fixed 1
 * GiB heap. {@code -Xms} equals {@code -Xmx} so that the heap's growth does not move results
 * between runs. A {@code -jvmArgsAppend} on the command line replaces these flags rather than
 * adding to them. A benchmark extends this class and adds its iterations and operations per
 * invocation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class ThroughputBenchmark {}
