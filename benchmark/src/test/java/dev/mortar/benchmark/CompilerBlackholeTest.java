package dev.mortar.benchmark;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CompilerBlackholeTest {
  @Test
  void aJvmWithoutTheCompileCommandIsToldWhichOptionsToAdd() {
    // surefire starts the test JVM without the blackhole compile command
    assertThatThrownBy(() -> CompilerBlackhole.create("SomeHarness"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("SomeHarness needs JMH's compiler blackholes")
        .hasMessageEndingWith(CompilerBlackhole.JVM_OPTIONS);
  }
}
