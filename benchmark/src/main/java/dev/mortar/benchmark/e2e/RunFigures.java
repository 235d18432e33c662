package dev.mortar.benchmark.e2e;

import java.util.Map;

/**
 * The figures of one measured job, as printed by {@link RunOne} (one JSON line) and collected by
 * the {@link Harness}.
 *
 * <p>The measured window runs from the last instant the source had emitted nothing to the end of
 * the job (the sink's last flush and commit included); CPU and wall time are over that window.
 *
 * @param steadyRowsPerSec the source's emission rate between 10 % and 90 % of the rows, with the
 *     sink back-pressuring it (what Paimon's cluster benchmark samples)
 * @param tailSeconds from the source's last row to the job's end (drain, last flush, commit)
 * @param endToEndRowsPerSec rows divided by the measured window
 * @param cpuSecPerMillionRows process CPU seconds (all threads) per million rows
 * @param cores CPU seconds per wall second over the window
 * @param cpuMicrosPerRowByThread CPU µs per row by thread group over the whole job ({@link
 *     CpuByThread})
 * @param peakHeapBytes sum of the heap pools' peaks during the job
 * @param bytesOnDisk the table's files after the job (Hadoop {@code .crc} side files excluded)
 * @param heapBaselineBytes heap after a full GC once the warm-up job ended
 * @param heapAfterBytes heap after a full GC once the measured job ended
 * @param poolBytesOut bytes still held by Mortar's page pools after the job (-1: not a Mortar run)
 * @param leakFree {@code poolBytesOut <= 0} and heap growth within {@code leakMarginBytes}
 * @param filesLeft what the job left in its table, by name ({@link SystemUnderTest#filesLeft})
 */
public record RunFigures(
    String system,
    String workload,
    String variant,
    int parallelism,
    int buckets,
    boolean objectReuse,
    boolean shuffled,
    int repeat,
    long rows,
    double windowSeconds,
    double wallSeconds,
    double tailSeconds,
    double steadyRowsPerSec,
    double endToEndRowsPerSec,
    double logicalMBPerSec,
    double cpuSeconds,
    double cpuSecPerMillionRows,
    double cores,
    Map<String, Double> cpuMicrosPerRowByThread,
    long gcMillis,
    long gcCount,
    long peakHeapBytes,
    long bytesOnDisk,
    long heapBaselineBytes,
    long heapAfterBytes,
    long leakMarginBytes,
    long poolBytesOut,
    boolean leakFree,
    Map<String, Long> filesLeft) {}
