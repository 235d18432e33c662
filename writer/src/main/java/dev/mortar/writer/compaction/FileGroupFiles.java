package dev.mortar.writer.compaction;

import java.util.ArrayList;
import java.util.List;

/** The base files and log files of one file group as listed, in no particular order. */
record FileGroupFiles(List<BaseFile> baseFiles, List<LogFile> logFiles) {
  static FileGroupFiles empty() {
    return new FileGroupFiles(new ArrayList<>(), new ArrayList<>());
  }
}
