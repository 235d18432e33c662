package dev.mortar.writer.compaction;

import dev.mortar.writer.table.CompactionWriteStat;
import java.io.Serializable;

/** A compaction task's answer for one {@link CompactionTask}: the base file it wrote. */
public record CompactionResult(String instant, int planSize, CompactionWriteStat stat)
    implements Serializable {}
