package dev.gpurent.testing;
import dev.gpurent.service.boot.Bootstrap;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * One node of {@link ClusterTest}: the service as {@code serve --cluster} runs it, on the root
 * given, saying "serving PORT" once it is up (or "failed WHY"), then running until killed.
 *
 * <p>Arguments: root.
 */
public final class ClusterChild {

  private ClusterChild() {}

  public static void main(String[] args) throws Exception {
    try {
      Bootstrap.Running running = new Bootstrap(Path.of(args[0]), Map.of("GPURENT_ADMIN_TOKEN", ServiceFixtures.TOKEN), Clock.systemUTC())
          .clustered(true).start().toCompletionStage().toCompletableFuture().get();
      System.out.println("serving " + running.port());
      System.out.flush();
    } catch (Exception e) {
      System.out.println("failed " + e.getCause());
      System.out.flush();
      System.exit(1);
    }
    Thread.currentThread().join();
  }
}
