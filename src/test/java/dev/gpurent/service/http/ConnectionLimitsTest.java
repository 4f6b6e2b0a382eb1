package dev.gpurent.service.http;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.boot.Bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow senders hold nothing: with {@code http.headerTimeout} 3 s (time enough to open 320), connections whose headers never
 * finish are closed (more of them than Java caches boxed timer ids for, which once hid the bug
 * that let all but the first hundred stay open); past {@code http.maxConnections} a new one is
 * closed at once, which the log says. No timing is asserted: closes are polled for, up to a minute.
 */
class ConnectionLimitsTest {

  static RunningService app;
  static Vertx vertx;
  static Bootstrap.Running service;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root).env(Map.of())
        .config(config -> config.getJsonObject("http").put("headerTimeout", "3s").put("maxConnections", 300));
    vertx = app.vertx();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  /**
   * Opens {@code n} connections that send half a request, and waits (polling, up to a minute) until
   * the server has closed {@code expected} of them; returns how many it closed.
   */
  static int closedOf(int n, int expected, List<NetSocket> kept) throws Exception {
    NetClient net = vertx.createNetClient();
    AtomicInteger closed = new AtomicInteger();
    List<Future<NetSocket>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add(net.connect(service.port(), "127.0.0.1").onSuccess(s -> {
        kept.add(s);
        s.closeHandler(v -> closed.incrementAndGet());
        s.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
      }));
    }
    ServiceFixtures.await(Future.join(all));
    long end = System.nanoTime() + 60_000_000_000L;
    while (closed.get() < expected && System.nanoTime() < end) Thread.sleep(50);
    return closed.get();
  }

  @Test
  void connections_whose_headers_never_finish_are_closed() throws Exception {
    List<NetSocket> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
    assertEquals(250, closedOf(250, 250, kept));
    // the service still answers
    assertEquals(200, ServiceFixtures.await(WebClient.create(vertx).get(service.port(), "127.0.0.1", "/health").send()).statusCode());
  }

  @Test
  void a_connection_past_the_cap_is_closed_at_once_and_logged_once() throws Exception {
    List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler capture = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        logged.add(r.getLevel() + " " + r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Logger http = java.util.logging.Logger.getLogger("dev.gpurent.http");
    http.addHandler(capture);
    try {
      List<NetSocket> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
      int closed = closedOf(320, 20, kept);
      assertTrue(closed >= 20, closed + " closed");
      kept.forEach(NetSocket::close);
      // one line for the whole burst: at most one a minute
      assertEquals(1, logged.size(), String.valueOf(logged));
      assertTrue(logged.get(0).startsWith("WARNING 1 connection(s) closed at once: 300 open, http.maxConnections is 300"), logged.get(0));
    } finally {
      http.removeHandler(capture);
    }
  }
}
