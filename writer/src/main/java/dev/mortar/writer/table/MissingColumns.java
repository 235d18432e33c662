package dev.mortar.writer.table;

import org.apache.flink.table.types.logical.RowType;

/**
 * What a sink writes when it lacks some of the table's columns ({@code
 * write.null-for-missing-columns}): the table's row type (the sink's columns where it has them, its
 * nullable columns added after the table's last), and for each of its columns the sink's field that
 * holds it, or -1 for a column written as null.
 */
public record MissingColumns(RowType rowType, int[] inputFields) {}
