package dev.mortar.writer.table;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;

/**
 * Shows a table's {@link WriterLease}, and releases it for a writer that died without doing so (a
 * running holder then fails before its next commit):
 *
 * <pre>
 *   WriterLeaseCommand --path &lt;table base path&gt; [--release]
 * </pre>
 */
public final class WriterLeaseCommand {
  private WriterLeaseCommand() {}

  /** The command line that releases the lease of the table at {@code basePath}. */
  static String usage(String basePath) {
    return "bin/lease --path "
        + basePath
        + " --release (on a cluster: java -cp <mortar bundle>:"
        + "$(hadoop classpath) "
        + WriterLeaseCommand.class.getName()
        + " --path "
        + basePath
        + " --release)";
  }

  public static void main(String[] args) throws IOException {
    boolean release = args.length == 3 && args[2].equals("--release");
    if (args.length < 2 || !args[0].equals("--path") || (args.length > 2 && !release)) {
      System.err.println("usage: lease --path <table base path> [--release]");
      System.exit(2);
    }
    run(args[1], release, System.out);
  }

  /** Prints the lease of the table at {@code basePath} and, if {@code release}, releases it. */
  static void run(String basePath, boolean release, PrintStream out) throws IOException {
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      WriterLease lease =
          WriterLease.of(fs, TableFileSystems.path(basePath), Duration.ofMillis(Long.MAX_VALUE));
      Optional<WriterLease.State> state;
      if (release) {
        LeaseHolder me =
            new LeaseHolder(
                UUID.randomUUID().toString(),
                "lease command",
                InetAddress.getLocalHost().getHostName(),
                System.currentTimeMillis());
        state = lease.releaseAnyHolder(me);
      } else {
        state = lease.read();
      }
      if (state.isEmpty()) {
        out.println("The table at " + basePath + " has no writer lease.");
        return;
      }
      WriterLease.State current = state.get();
      out.println(
          (current.released() ? "Released by " : "Held by ")
              + current.holder()
              + ", last heartbeat "
              + lease.ageMillis(current) / 1000.0
              + " s ago"
              + (release && !current.released() ? "; released it." : "."));
    }
  }
}
