package dev.mortar.benchmark;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A JMH {@link Blackhole} for the CPU-time harnesses that run outside JMH, in the mode a JMH fork
 * on JDK 17 uses: the JIT treats {@code consume} as a use of the value and emits no call. In its
 * other mode every {@code consume} is a call with a volatile read, which charges a contender for
 * each value it hands over (rfc/0002: Mortar's buffer cursor, which hands over a key and a row,
 * paid one call per record more than Flink's sort buffer, which hands over a row).
 */
public final class CompilerBlackhole {
  /** The compile command that makes {@code consumeCompiler} a JIT blackhole. */
  private static final String BLACKHOLE_COMMAND =
      "-XX:CompileCommand=blackhole,org/openjdk/jmh/infra/Blackhole.consumeCompiler";

  /** The JVM options a harness must run with; JMH passes the same to its forks. */
  public static final String JVM_OPTIONS =
      "-XX:+UnlockExperimentalVMOptions " + BLACKHOLE_COMMAND + " -DcompilerBlackholesEnabled=true";

  private CompilerBlackhole() {}

  /**
   * A blackhole in compiler mode.
   *
   * @throws IllegalStateException naming {@link #JVM_OPTIONS} when this JVM did not start with them
   */
  public static Blackhole create(String harness) {
    boolean compilerMode =
        Boolean.getBoolean("compilerBlackholesEnabled")
            && ManagementFactory.getRuntimeMXBean().getInputArguments().contains(BLACKHOLE_COMMAND);
    if (!compilerMode) {
      throw new IllegalStateException(
          harness
              + " needs JMH's compiler blackholes, or it charges each contender per value it hands"
              + " over: start the JVM with "
              + JVM_OPTIONS);
    }
    return new Blackhole(
        "Today's password is swordfish. I understand instantiating Blackholes directly is"
            + " dangerous.");
  }
}
