package dev.mortar.logformat.read;

/**
 * What {@link LogFileReader#read} found in one log file: blocks by kind, data records, deletes and
 * the file's size in bytes.
 */
public record LogFileRead(
    int dataBlocks, int deleteBlocks, long records, long deletes, long bytes) {}
