package dev.mortar.writer.compaction;

import java.util.ArrayList;
import java.util.List;

/** The base files and log files of one file group as listed, in no particular order. */
public record FileGroupFiles(List<BaseFile> baseFiles, List<LogFile> logFiles) {
  public static FileGroupFiles empty() {
    return new FileGroupFiles(new ArrayList<>(), new ArrayList<>());
  }
}
