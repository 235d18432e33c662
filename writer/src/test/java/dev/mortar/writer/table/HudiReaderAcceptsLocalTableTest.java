package dev.mortar.writer.table;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;

class HudiReaderAcceptsLocalTableTest extends HudiReaderAcceptsTableContract {
  @TempDir java.nio.file.Path dir;

  @Override
  FileSystem fs() throws Exception {
    return FileSystem.getLocal(new Configuration());
  }

  @Override
  String basePath(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
