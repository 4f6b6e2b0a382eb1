package dev.gpurent.service;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * Bounds what idle and slow connections hold: at most {@code http.maxConnections} open at once
 * (a new one past it is closed at once), and a connection whose request headers have not all
 * arrived {@code http.headerTimeout} after it opened, or after its last answer, is closed. The
 * idle timeout (nothing sent or received) is the server's own option. Used on one event loop.
 */
final class ConnectionLimits {

  private final Vertx vertx;
  private final int max;
  private final long headerTimeoutMs;
  /** Open connections, each with its header timer (-1 while a request is being answered). */
  private final Map<HttpConnection, Long> open = new HashMap<>();
  private long refused;

  ConnectionLimits(Vertx vertx, HttpSettings settings) {
    this.vertx = vertx;
    this.max = settings.maxConnections();
    this.headerTimeoutMs = Math.max(1, settings.headerTimeout().toMillis());
  }

  int open() {
    return open.size();
  }

  long refused() {
    return refused;
  }

  /** A connection opened. */
  void opened(HttpConnection c) {
    if (open.size() >= max) {
      refused++;
      c.close();
      return;
    }
    open.put(c, arm(c));
    c.closeHandler(v -> {
      Long t = open.remove(c);
      if (t != null && t >= 0) vertx.cancelTimer(t);
    });
  }

  /**
   * A request's headers are in: its connection waits for no headers until the answer is sent
   * (never again after a WebSocket upgrade, whose connection the dashboards' own limits watch).
   */
  void request(HttpServerRequest req, boolean upgrade) {
    HttpConnection c = req.connection();
    Long t = open.get(c);
    if (t == null) return;
    if (t >= 0) vertx.cancelTimer(t);
    open.put(c, -1L);
    if (upgrade) return;
    req.response().endHandler(v -> {
      if (open.containsKey(c)) open.put(c, arm(c));
    });
  }

  private long arm(HttpConnection c) {
    return vertx.setTimer(headerTimeoutMs, id -> {
      // the ids are boxed: compared as numbers, not as objects
      Long armed = open.get(c);
      if (armed != null && armed.longValue() == id.longValue()) c.close();
    });
  }
}
