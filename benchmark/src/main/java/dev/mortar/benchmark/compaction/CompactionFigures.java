package dev.mortar.benchmark.compaction;

/**
 * What one compaction run cost: wall time, process CPU, CPU of the compaction threads alone, and
 * the peak heap, for the records its commits wrote and the bytes its plans read.
 */
record CompactionFigures(
    String schema,
    String system,
    long records,
    long inputBytes,
    long wallNanos,
    long cpuNanos,
    long compactionThreadCpuNanos,
    long heapPeakBytes) {

  double wallSeconds() {
    return wallNanos / 1e9;
  }

  double cpuSeconds() {
    return cpuNanos / 1e9;
  }

  double compactionThreadCpuSeconds() {
    return compactionThreadCpuNanos / 1e9;
  }

  double recordsPerSecond() {
    return records / wallSeconds();
  }

  double megabytesPerSecond() {
    return inputBytes / 1e6 / wallSeconds();
  }

  double cpuSecondsPerMillionRecords() {
    return cpuSeconds() / (records / 1e6);
  }

  double recordsPerCpuSecond() {
    return records / cpuSeconds();
  }

  double heapPeakMegabytes() {
    return heapPeakBytes / 1e6;
  }
}
