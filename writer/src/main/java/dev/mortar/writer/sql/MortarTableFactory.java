package dev.mortar.writer.sql;

import dev.mortar.writer.MortarOptions;
import dev.mortar.writer.settings.SinkSettings;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'mortar'}: a Hudi Merge-On-Read upsert sink. Options are validated when the
 * job is built: unknown or misspelt keys by Flink's {@link FactoryUtil} helper, values and the
 * schema (PRIMARY KEY present, fields and types) by {@link SinkSettings}, and an existing table at
 * the path against the DDL.
 */
public final class MortarTableFactory implements DynamicTableSinkFactory {
  public static final String IDENTIFIER = "mortar";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(MortarOptions.PATH);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options = new HashSet<>(MortarOptions.all());
    options.removeAll(requiredOptions());
    return options;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validate();
    ResolvedCatalogTable table = context.getCatalogTable();
    ResolvedSchema schema = table.getResolvedSchema();
    String tableName = context.getObjectIdentifier().getObjectName();
    List<String> primaryKey =
        schema
            .getPrimaryKey()
            .map(UniqueConstraint::getColumns)
            .orElseThrow(
                () ->
                    new ValidationException(
                        "Mortar table '"
                            + tableName
                            + "' needs a PRIMARY KEY (the Hudi record key), e.g. PRIMARY KEY (id)"
                            + " NOT ENFORCED"));
    RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
    SinkSettings settings;
    try {
      settings =
          SinkSettings.of(
                  helper.getOptions(), rowType, primaryKey, table.getPartitionKeys(), tableName)
              .checkedAgainstExistingTable();
    } catch (RuntimeException e) {
      throw new ValidationException(
          "Invalid Mortar table '" + tableName + "': " + e.getMessage(), e);
    }
    return new MortarDynamicSink(settings);
  }
}
