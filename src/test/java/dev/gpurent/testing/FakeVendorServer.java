package dev.gpurent.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A vendor API on loopback that serves the real recorded payloads from ../shared/data, one per
 * path, each with a switchable fault. Counts the requests each path receives. APIs with one
 * endpoint for every action (Tencent's X-TC-Action header, Alibaba's x-acs-action, UCloud's
 * Action parameter) get one payload per action on the same path ({@link #serveAction}); the
 * requests received are kept, headers, parameters and body, in {@link #seen}.
 */
public final class FakeVendorServer {

  /** How a path misbehaves. */
  public enum Fault { NONE, SLOW, HANG, HTTP_503, RESET, TRUNCATED, GARBAGE, ZERO_PRICES, NEGATIVE_PRICES }

  private final Vertx vertx;
  private final Map<String, Buffer> payloads = new ConcurrentHashMap<>();
  private final Map<String, Fault> faults = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  private HttpServer server;
  /** A request as received. */
  public record Seen(String path, String action, io.vertx.core.MultiMap headers, io.vertx.core.MultiMap params, Buffer body) {}
  /** Every request received, in order. */
  public final java.util.List<Seen> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Delay of {@link Fault#SLOW}: slower than usual, still inside the vendor timeout. */
  public volatile long slowMillis = 200;

  public FakeVendorServer(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Serves a recorded file at {@code /name}. */
  public FakeVendorServer serve(String name, Path file) throws java.io.IOException {
    payloads.put("/" + name, Buffer.buffer(Files.readAllBytes(file)));
    faults.put("/" + name, Fault.NONE);
    hits.put("/" + name, new AtomicInteger());
    return this;
  }

  /** Serves a documented or recorded file at {@code /name} to requests for {@code action} only. */
  public FakeVendorServer serveAction(String name, String action, Path file) throws java.io.IOException {
    payloads.put("/" + name + "#" + action, Buffer.buffer(Files.readAllBytes(file)));
    faults.putIfAbsent("/" + name, Fault.NONE);
    hits.put("/" + name + "#" + action, new AtomicInteger());
    hits.putIfAbsent("/" + name, new AtomicInteger());
    return this;
  }

  public Future<FakeVendorServer> start() {
    return vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return this;
    });
  }

  public String url(String name) {
    return "http://127.0.0.1:" + server.actualPort() + "/" + name;
  }

  /** Rewrites the payload served at {@code /name} (a price change at the vendor). */
  public void rewrite(String name, java.util.function.UnaryOperator<String> change) {
    payloads.computeIfPresent("/" + name, (k, b) -> Buffer.buffer(change.apply(b.toString())));
  }

  /** Every price of a SkyPilot catalog CSV (its Price column) times {@code factor}; quoted fields may hold commas. */
  public static String scaleCsv(String csv, java.math.BigDecimal factor) {
    String[] lines = csv.split("\n", -1);
    int price = java.util.List.of(lines[0].trim().split(",")).indexOf("Price");
    StringBuilder sb = new StringBuilder(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      sb.append('\n');
      String line = lines[i];
      // where the Price field starts and ends: after its price-th comma outside quotes, up to the next one
      int field = 0, from = price == 0 ? 0 : -1, to = line.length();
      boolean quoted = false;
      for (int c = 0; c < line.length() && to == line.length(); c++) {
        char ch = line.charAt(c);
        if (ch == '"') quoted = !quoted;
        else if (ch == ',' && !quoted && ++field == price) from = c + 1;
        else if (ch == ',' && !quoted && field == price + 1) to = c;
      }
      String value = from < 0 ? "" : line.substring(from, to).trim();
      if (value.isEmpty() || value.startsWith("\"")) {
        sb.append(line);
      } else {
        sb.append(line, 0, from).append(new java.math.BigDecimal(value).multiply(factor).stripTrailingZeros().toPlainString())
            .append(line, to, line.length());
      }
    }
    return sb.toString();
  }

  public void fault(String name, Fault fault) {
    faults.put("/" + name, fault);
  }

  public int hits(String name) {
    return hits.get("/" + name).get();
  }

  private void handle(HttpServerRequest req) {
    req.body().onComplete(ar -> respond(req, ar.succeeded() ? ar.result() : Buffer.buffer()));
  }

  private void respond(HttpServerRequest req, Buffer received) {
    String path = req.path();
    String action = req.getHeader("X-TC-Action") != null ? req.getHeader("X-TC-Action")
        : req.getHeader("x-acs-action") != null ? req.getHeader("x-acs-action") : req.getParam("Action");
    seen.add(new Seen(path, action, io.vertx.core.MultiMap.caseInsensitiveMultiMap().addAll(req.headers()),
        io.vertx.core.MultiMap.caseInsensitiveMultiMap().addAll(req.params()), received));
    String key = action != null && payloads.containsKey(path + "#" + action) ? path + "#" + action : path;
    Buffer body = payloads.get(key);
    if (body == null) {
      req.response().setStatusCode(404).end();
      return;
    }
    hits.get(key).incrementAndGet();
    if (!key.equals(path)) hits.get(path).incrementAndGet();
    switch (faults.get(path)) {
      case NONE -> req.response().end(body);
      case SLOW -> vertx.setTimer(slowMillis, t -> req.response().end(body));
      case HANG -> { /* never answers: the vendor timeout must cut it */ }
      case HTTP_503 -> req.response().setStatusCode(503).end("Service Unavailable");
      case RESET -> req.connection().close();
      case TRUNCATED -> {
        req.response().putHeader("content-length", Integer.toString(body.length()));
        req.response().write(body.slice(0, body.length() / 2)).onComplete(x -> req.connection().close());
      }
      case GARBAGE -> req.response().end(Buffer.buffer("\u0000\u00ff<html>502 Bad Gateway</html>{{{"));
      case ZERO_PRICES -> req.response().end(Buffer.buffer(body.toString().replaceAll("(Price\"\\s*:\\s*)[0-9.]+", "$10")));
      case NEGATIVE_PRICES -> req.response().end(Buffer.buffer(body.toString().replaceAll("(Price\"\\s*:\\s*)([0-9.]+)", "$1-$2")));
    }
  }

  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }
}
