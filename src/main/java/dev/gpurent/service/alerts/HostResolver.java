package dev.gpurent.service.alerts;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.net.InetAddress;
import java.util.List;

/**
 * Every address of a host name, as webhooks look them up before each try (so that each one is
 * checked, and the try connects to one of them). Injected, so that a test can point a name
 * anywhere without DNS.
 */
@FunctionalInterface
public interface HostResolver {

  /** The host's addresses; a failed future when it has none. */
  Future<List<InetAddress>> resolve(String host);

  /**
   * The system resolver (hosts file, then DNS, with the JVM's cache) on two worker threads of
   * their own, so that slow lookups hold no other worker and no event loop.
   */
  static HostResolver system(Vertx vertx) {
    WorkerExecutor lookups = vertx.createSharedWorkerExecutor("gpurent-webhook-dns", 2);
    return host -> lookups.executeBlocking(() -> List.of(InetAddress.getAllByName(host)), false);
  }
}
