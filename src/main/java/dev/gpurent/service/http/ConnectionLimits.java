package dev.gpurent.service.http;

import dev.gpurent.service.HttpSettings;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Bounds what idle and slow connections hold: at most {@code http.maxConnections} open at once
 * (a new one past it is closed at once, and said so in the log at most once a minute), and a
 * connection whose request headers have not all arrived {@code http.headerTimeout} after it opened,
 * or after its last answer, is closed. The idle timeout (nothing sent or received) is the server's
 * own option. A connection holds its place until it is gone, however it goes: an HTTP one until
 * its close handler runs, an upgraded one (a dashboard) until its TCP connection ends, since after
 * the upgrade Vert.x never runs the HTTP connection's close handler. Used on one event loop.
 */
final class ConnectionLimits {

  private static final Logger LOG = Logger.getLogger("dev.gpurent.http");
  private static final long LOG_EVERY = 60_000_000_000L;

  private final Vertx vertx;
  private final int max;
  private final long headerTimeoutMs;
  /** Open connections, each with its header timer (-1 while a request is being answered). */
  private final Map<HttpConnection, Long> open = new HashMap<>();
  private long refused;
  private long refusedUnlogged;
  private long loggedAt;

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
      refusedUnlogged++;
      c.close();
      logRefused();
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

  /**
   * {@code c} was upgraded to a WebSocket: it keeps its place until {@code closed} (the end of
   * its TCP connection), and waits for no more headers.
   */
  void upgraded(HttpConnection c, Future<Void> closed) {
    if (!open.containsKey(c)) return;
    closed.onComplete(v -> open.remove(c));
  }

  /** One line for the first refusal, then at most one a minute with the count since the last line. */
  private void logRefused() {
    long now = System.nanoTime();
    if (loggedAt != 0 && now - loggedAt < LOG_EVERY) return;
    loggedAt = now;
    LOG.warning(refusedUnlogged + " connection(s) closed at once: " + open.size() + " open, http.maxConnections is " + max);
    refusedUnlogged = 0;
  }

  private long arm(HttpConnection c) {
    return vertx.setTimer(headerTimeoutMs, id -> {
      // the ids are boxed: compared as numbers, not as objects
      Long armed = open.get(c);
      if (armed != null && armed.longValue() == id.longValue()) c.close();
    });
  }
}
