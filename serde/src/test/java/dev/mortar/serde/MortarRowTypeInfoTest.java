package dev.mortar.serde;

import org.apache.flink.api.common.typeutils.TypeInformationTestBase;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Flink's contract for type information: equal instances are equal and hash alike, different
 * payload types are different, every instance survives Java serialization.
 */
class MortarRowTypeInfoTest extends TypeInformationTestBase<MortarRowTypeInfo> {
  @Override
  protected MortarRowTypeInfo[] getTestData() {
    return new MortarRowTypeInfo[] {
      new MortarRowTypeInfo(RowType.of(new BigIntType())),
      new MortarRowTypeInfo(RowType.of(new BigIntType(false), new VarCharType(10))),
      new MortarRowTypeInfo(RowType.of(new VarCharType(VarCharType.MAX_LENGTH)))
    };
  }
}
