package dev.mortar.writer.compaction;

import dev.mortar.writer.table.CompactionWriteStat;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * A compaction task's answer for one {@link CompactionTask}: the base file it wrote, or, with no
 * stat, that the end of input abandoned it.
 */
public record CompactionResult(
    String instant, int planSize, FileGroupId fileGroup, @Nullable CompactionWriteStat stat)
    implements Serializable {

  static CompactionResult written(CompactionTask task, CompactionWriteStat stat) {
    return new CompactionResult(task.instant(), task.planSize(), task.fileGroup(), stat);
  }

  static CompactionResult abandoned(CompactionTask task) {
    return new CompactionResult(task.instant(), task.planSize(), task.fileGroup(), null);
  }
}
