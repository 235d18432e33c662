package dev.mortar.writer.archive;

import javax.annotation.Nullable;

/**
 * One record of Hudi's archived timeline ({@code HoodieLSMTimelineInstant}, version 1): the
 * instant's times and action, the bytes of its completed file as {@code metadata} and, for a
 * compaction or a clean, the bytes of its requested file (the plan) as {@code plan}.
 */
record ArchivedInstant(
    String instantTime,
    String completionTime,
    String action,
    @Nullable byte[] metadata,
    @Nullable byte[] plan) {}
