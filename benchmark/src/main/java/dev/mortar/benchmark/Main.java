package dev.mortar.benchmark;

import java.util.Arrays;

/**
 * Entry point of the runnable benchmark jar ({@code benchmark/target/mortar-benchmarks.jar}).
 *
 * <p>The first argument picks the program; the rest go to it.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    String command = args.length == 0 ? "help" : args[0];
    String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
    switch (command) {
      case "jmh" -> org.openjdk.jmh.Main.main(rest);
      case "quickstart" -> dev.mortar.benchmark.quickstart.QuickStart.main(rest);
      case "e2e" -> dev.mortar.benchmark.e2e.Harness.main(rest);
      case "readcost" -> dev.mortar.benchmark.readcost.ReadCostBenchmark.main(rest);
      case "compaction" -> dev.mortar.benchmark.compaction.CompactionBenchmark.main(rest);
      default -> {
        System.out.println("usage: java -jar mortar-benchmarks.jar <command> [args]");
        System.out.println(
            "  jmh [JMH options]   run the JMH micro-benchmarks (-h for JMH's help)");
        System.out.println(
            "  quickstart [flags]  DataGen upserts into a fresh local MOR table, read back by Hudi");
        System.out.println(
            "  e2e [flags]         the end-to-end upsert benchmark (--help lists the flags)");
        System.out.println(
            "  readcost [flags]    Hudi's read time of tables streamed with table services on and off");
        System.out.println(
            "  compaction [flags]  Mortar's compactor against Hudi's Java client (--help: flags)");
        if (!command.equals("help")) {
          System.exit(2);
        }
      }
    }
  }
}
