package dev.mortar.writer.clean;

import dev.mortar.writer.compaction.AfterCompaction;
import dev.mortar.writer.table.HudiTable;
import org.apache.flink.metrics.MetricGroup;
import org.apache.hadoop.fs.FileSystem;

/**
 * Cleaning after compactions, as the compaction committer's {@link AfterCompaction} service: each
 * committer attempt cleans once when it opens (finishing a clean a failed attempt left) and after
 * every compaction it commits, keeping the files the last {@code retainCommits} commits need.
 */
public record Cleaning(int retainCommits) implements AfterCompaction {
  @Override
  public AfterCompaction.Service open(FileSystem fs, HudiTable table, MetricGroup operatorGroup) {
    CleanService service = new CleanService(new Cleaner(fs, table, retainCommits), operatorGroup);
    service.start();
    return service;
  }
}
