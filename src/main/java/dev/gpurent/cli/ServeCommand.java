package dev.gpurent.cli;

import dev.gpurent.service.boot.Bootstrap;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code serve}: the whole service, until SIGTERM or Ctrl-C, which close it gracefully. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Runs the service: REST API, live rankings over WebSocket, the dashboard. Config: config/gpurent.yaml, "
        + "then -Dsection.key=value, then GPURENT_SECTION_KEY=value.")
public final class ServeCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  SharedOptions.Root root;

  @Option(names = "--cluster", description = "Join the cluster of the config's cluster: section (Hazelcast, TCP-IP join to "
      + "cluster.members; needs a PostgreSQL store.url). Without it: one node, no Hazelcast, unless cluster.enabled is true.")
  boolean cluster;

  @Option(names = "--offline", description = "read only file sources; other vendors answer from their last fetched quotes, stale "
      + "(as quotes.offline: true)")
  boolean offline;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Bootstrap.Running running;
    try {
      java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
      if (offline) env.put("GPURENT_QUOTES_OFFLINE", "true");  // the environment layer is the last word, as the flag should be
      running = new Bootstrap(root.dir, env, Clock.systemUTC()).clustered(cluster).start()
          .toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) throw (IllegalArgumentException) cause;
      spec.commandLine().getErr().println("gpurent: cannot start: " + cause.getMessage());
      return 1;
    }
    out.println("gpurent: serving on http://" + running.host() + ":" + running.port() + "/ (API docs at /api/docs)");
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      running.close().toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS)
          .whenComplete((v, e) -> stopped.countDown());
      try {
        stopped.await(35, TimeUnit.SECONDS);
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
    }, "gpurent-shutdown"));
    stopped.await();
    return 0;
  }
}
