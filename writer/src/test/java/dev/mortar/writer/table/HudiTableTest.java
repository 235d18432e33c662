package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.common.config.RecordMergeMode;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.HoodieTableVersion;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HudiTableTest {
  private static final TableSettings SETTINGS =
      new TableSettings(
          "t1", HudiReaderAcceptsTableContract.ROW, List.of("id"), List.of("dt"), "ts");

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.resolve("t1").toString());
  }

  @Test
  void writesTheKeySetOfHudisTableBuilder() throws Exception {
    HudiTable.createOrValidate(fs, base, SETTINGS);
    Properties written = PropertiesFile.read(fs, new Path(base, ".hoodie/hoodie.properties"));
    assertThat(written.stringPropertyNames())
        .containsExactlyInAnyOrder(
            "hoodie.table.name",
            "hoodie.table.type",
            "hoodie.table.version",
            "hoodie.table.initial.version",
            "hoodie.timeline.layout.version",
            "hoodie.timeline.path",
            "hoodie.timeline.history.path",
            "hoodie.archivelog.folder",
            "hoodie.table.recordkey.fields",
            "hoodie.table.partition.fields",
            "hoodie.table.ordering.fields",
            "hoodie.record.merge.mode",
            "hoodie.table.keygenerator.type",
            "hoodie.table.base.file.format",
            "hoodie.populate.meta.fields",
            "hoodie.datasource.write.drop.partition.columns",
            "hoodie.table.create.schema",
            "hoodie.table.checksum");
    assertThat(written.getProperty("hoodie.table.checksum")).isEqualTo("3609136688");
    for (String dir :
        List.of(".hoodie/timeline/history", ".hoodie/.aux", ".hoodie/.temp", ".hoodie/.schema")) {
      assertThat(fs.getFileStatus(new Path(base, dir)).isDirectory()).as(dir).isTrue();
    }
  }

  @Test
  void hudisTableConfigReadsTheProperties() {
    HudiTable.createOrValidate(fs, base, SETTINGS);
    HoodieTableConfig config =
        HoodieTableMetaClient.builder()
            .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
            .setBasePath(base.toString())
            .build()
            .getTableConfig();
    assertThat(config.getTableType()).isEqualTo(HoodieTableType.MERGE_ON_READ);
    assertThat(config.getTableVersion()).isEqualTo(HoodieTableVersion.NINE);
    assertThat(config.getRecordKeyFields().get()).containsExactly("id");
    assertThat(config.getPartitionFields().get()).containsExactly("dt");
    assertThat(config.getOrderingFields()).containsExactly("ts");
    assertThat(config.getRecordMergeMode()).isEqualTo(RecordMergeMode.EVENT_TIME_ORDERING);
    Schema schema = config.getTableCreateSchema().get();
    assertThat(schema.getFullName()).isEqualTo("hoodie.t1.t1_record");
    assertThat(schema.getFields())
        .extracting(Schema.Field::name)
        .containsExactly("id", "dt", "ts", "v");
  }

  @Test
  void nonAsciiTableNameSurvivesWithAChecksumHudiAccepts() {
    TableSettings settings =
        new TableSettings(
            "tàble-ü", HudiReaderAcceptsTableContract.ROW, List.of("id"), List.of(), null);
    HudiTable.createOrValidate(fs, base, settings);
    HoodieTableConfig config =
        HoodieTableMetaClient.builder()
            .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
            .setBasePath(base.toString())
            .build()
            .getTableConfig();
    assertThat(config.getTableName()).isEqualTo("tàble-ü");
    assertThat(config.getTableCreateSchema().get().getFullName())
        .isEqualTo("hoodie.t__ble____.t__ble_____record");
  }

  @Test
  void reopeningWithTheSameSettingsSucceedsAndKeepsTheFile() throws Exception {
    HudiTable.createOrValidate(fs, base, SETTINGS);
    Path file = new Path(base, ".hoodie/hoodie.properties");
    long modified = fs.getFileStatus(file).getModificationTime();
    HudiTable.createOrValidate(fs, base, SETTINGS);
    assertThat(fs.getFileStatus(file).getModificationTime()).isEqualTo(modified);
  }

  @Test
  void mismatchedSettingsFailNamingEveryDifference() {
    HudiTable.createOrValidate(fs, base, SETTINGS);
    TableSettings other =
        new TableSettings(
            "t1", HudiReaderAcceptsTableContract.ROW, List.of("v"), List.of(), null, false);
    assertThatThrownBy(() -> HudiTable.createOrValidate(fs, base, other))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "the Hudi table at "
                + base
                + " does not match the sink's settings: record key fields: the table has [id],"
                + " the sink has [v]; partition fields: the table has [dt], the sink has [];"
                + " meta fields (hoodie.populate.meta.fields): the table has 'true', the sink has"
                + " 'false'; ordering field: the table has 'ts', the sink has none; key generator: the table"
                + " has 'SIMPLE', the sink has 'NON_PARTITION'. Configure the sink as the table is,"
                + " or write to a new path.");
  }

  @Test
  void copyOnWriteOrOlderTablesAreRejected() throws Exception {
    Map<String, String> props = new java.util.HashMap<>(TableProperties.of(SETTINGS));
    props.put("hoodie.table.version", "8");
    props.remove("hoodie.table.type");
    writeProperties(props);
    assertThatThrownBy(() -> HudiTable.createOrValidate(fs, base, SETTINGS))
        .hasMessageContaining(
            "table type: the table has 'COPY_ON_WRITE', the sink has 'MERGE_ON_READ';"
                + " table version: the table has '8', the sink has '9'");
  }

  @Test
  void aDifferentRecordKeyFormatIsRejected() throws Exception {
    Map<String, String> props = new java.util.HashMap<>(TableProperties.of(SETTINGS));
    props.put("hoodie.table.keygenerator.type", "COMPLEX_AVRO");
    writeProperties(props);
    assertThatThrownBy(() -> HudiTable.createOrValidate(fs, base, SETTINGS))
        .hasMessageContaining("key generator: the table has 'COMPLEX', the sink has 'SIMPLE'");
  }

  @Test
  void sparkStyleKeyGeneratorClassOfTheSameFamilyIsAccepted() throws Exception {
    Map<String, String> props = new java.util.HashMap<>(TableProperties.of(SETTINGS));
    props.remove("hoodie.table.keygenerator.type");
    props.put("hoodie.table.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator");
    writeProperties(props);
    assertThat(HudiTable.createOrValidate(fs, base, SETTINGS).settings()).isEqualTo(SETTINGS);
  }

  @Test
  void partitionMetafileCarriesFirstInstantAndDepth() throws Exception {
    HudiTable table = HudiTable.createOrValidate(fs, base, SETTINGS);
    table.ensurePartition("2024/01", "20261122121208113");
    table.ensurePartition("2024/01", "20261122121208999");
    Properties meta = PropertiesFile.read(fs, new Path(base, "2024/01/.hoodie_partition_metadata"));
    assertThat(meta)
        .containsOnly(
            Map.entry("commitTime", "20261122121208113"), Map.entry("partitionDepth", "2"));
    table.ensurePartition("", "20261122121208113");
    assertThat(PropertiesFile.read(fs, new Path(base, ".hoodie_partition_metadata")))
        .containsEntry("partitionDepth", "0");
  }

  /** Creates the table, then replaces its hoodie.properties with {@code props}. */
  private void writeProperties(Map<String, String> props) throws Exception {
    HudiTable.createOrValidate(fs, base, SETTINGS);
    fs.delete(new Path(base, ".hoodie/hoodie.properties"), false);
    PropertiesFile.publish(
        fs, new Path(dir.toString()), new Path(base, ".hoodie/hoodie.properties"), props, null);
  }
}
