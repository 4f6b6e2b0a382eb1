package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dashboards hold their place among {@code http.maxConnections} until they are gone, however they
 * go (closed, reset by the client, reset by the server for what they hold, closed for silence),
 * and a client's pings cannot make the server hold more than the control-frame rate allows. With
 * a cap of {@value #CAP}, twice as many dashboards come and go by each path and {@code /health}
 * still answers, its connection count back to its own. The clients that misbehave are plain
 * sockets (as an attacker's would be): one that never reads leaves what it is sent in the kernel,
 * not in a client library's queue. Nothing is timed: each end is polled for, up to a minute, and
 * each dashboard's place is seen freed before the next one opens.
 */
class WebSocketLimitsTest {

  static final int CAP = 8;
  static RunningService app;
  static Vertx vertx;
  static Bootstrap.Running service;
  /** A new connection for each request, closed by the server after its answer: the only one /health counts. */
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    // refreshed below by this test's own client, which keeps no connection open to be counted
    app = RunningService.prepare(root).refreshed(false)
        .config(config -> config.getJsonObject("http").put("maxConnections", CAP).put("idleTimeout", "5s")
            .put("wsQueueBytes", 4096).put("wsMaxHeldBytes", 16384).put("wsStallLimit", "10m").put("wsControlFrameRate", 20));
    vertx = app.vertx();
    service = app.start();
    client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(false));
    ServiceFixtures.refreshAll(client, service);
    backToOne();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  void dashboards_opened_and_closed_twice_the_cap_leave_the_count_where_it_started() throws Exception {
    for (int i = 0; i < 2 * CAP; i++) {
      WebSocket ws = ServiceFixtures.await(vertx.createWebSocketClient().connect(service.port(), "127.0.0.1", "/ws"));
      ServiceFixtures.await(ws.close());
      // its place is freed when the server has read the close, which a busy machine may do after the
      // next one arrives: waited for, so that the cap refuses none (places never freed would fail here)
      backToOne();
    }
  }

  @Test
  void dashboards_reset_by_their_client_free_their_place() throws Exception {
    for (int i = 0; i < 2 * CAP; i++) {
      Socket s = upgraded(0);
      s.setSoLinger(true, 0);
      s.close();  // a TCP reset, no close frame
      backToOne();
    }
  }

  @Test
  void a_dashboard_holding_past_the_ceiling_that_reads_none_of_it_is_reset() throws Exception {
    double before = metric("gpurent_ws_closed_total", "reason=\"held\"");
    var created = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/scenarios").sendJson(largest()));
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String id = created.bodyAsJsonObject().getString("id");
    try (Socket s = upgraded(4096)) {
      long ranking = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/scenarios/" + id + "/ranking").send()).body().length();
      assertTrue(ranking > 4 * 16384, ranking + " bytes: a ranking well over the ceiling");
      // Subscribed again and again, it is sent the whole ranking each time, and never reads: once the
      // kernel's buffers are full, what it is sent stays queued on the server.
      OutputStream out = s.getOutputStream();
      String subscribe = new JsonObject().put("subscribe", new JsonArray().add(id)).encode();
      String unsubscribe = new JsonObject().put("unsubscribe", new JsonArray().add(id)).encode();
      boolean writing = true;
      long end = System.nanoTime() + 60_000_000_000L;
      while (metric("gpurent_ws_closed_total", "reason=\"held\"") == before) {
        if (System.nanoTime() > end) fail("not reset within a minute");
        try {
          if (writing) {
            text(out, subscribe);
            text(out, unsubscribe);
          }
        } catch (IOException reset) {
          writing = false;
        }
      }
      backToOne();
    } finally {
      ServiceFixtures.await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + id).send());
    }
  }

  @Test
  void a_dashboard_that_answers_no_ping_is_closed_after_the_idle_timeout() throws Exception {
    double before = metric("gpurent_ws_closed_total", "reason=\"idle\"");
    try (Socket s = upgraded(0)) {
      s.setSoTimeout(60_000);
      List<int[]> frames = readToEnd(s.getInputStream());  // reads the server's pings and answers none
      int[] close = frames.stream().filter(f -> f[0] == 0x8).findFirst().orElseThrow(() -> new AssertionError("no close frame"));
      assertEquals(1000, close[1]);
      assertTrue(frames.stream().anyMatch(f -> f[0] == 0x9), "the server pinged it first");
    }
    assertEquals(before + 1, metric("gpurent_ws_closed_total", "reason=\"idle\""));
    backToOne();
  }

  @Test
  void a_ping_flood_that_never_reads_is_cut_off_having_been_answered_only_up_to_the_rate() throws Exception {
    double answered = metric("gpurent_ws_pings_total", "outcome=\"answered\"");
    double flooded = metric("gpurent_ws_closed_total", "reason=\"control-frames\"");
    byte[] ping = frame(0x9, new byte[125]);
    long sent = 0;
    boolean cutOff = false;
    try (Socket s = upgraded(4096)) {
      OutputStream out = s.getOutputStream();
      // up to 100 MB of pings, never reading a pong: the server cuts it off long before
      for (; sent < 100L << 20 && !cutOff; sent += ping.length) {
        try {
          out.write(ping);
        } catch (IOException reset) {
          cutOff = true;
        }
      }
    }
    assertTrue(cutOff, "still open after " + sent + " bytes of pings");
    until("the flood is counted", () -> metric("gpurent_ws_closed_total", "reason=\"control-frames\"") == flooded + 1);
    double pongs = metric("gpurent_ws_pings_total", "outcome=\"answered\"") - answered;
    // the flood may straddle two of the limit's one-second windows; never more
    assertTrue(pongs <= 2 * 20, pongs + " pings answered: more than the rate lets through");
    backToOne();
  }

  // ------------------------------------------------------------------ helpers

  /** A scenario of the most workloads admitted (50): a large ranking. */
  static JsonObject largest() {
    JsonArray workloads = new JsonArray();
    for (int i = 0; i < 50; i++) {
      workloads.add(new JsonObject().put("kind", "inference").put("paramsBillions", 1 + i).put("peakQps", 1 + i)
          .put("secondsPerRequest", 2).put("concurrentPerCard", 4));
    }
    return new JsonObject().put("currency", "USD").put("workloads", workloads);
  }

  /** /health answers 200 again, counting one connection (its own) and no dashboard. */
  static void backToOne() throws Exception {
    until("/health answers with its own connection only", () -> {
      var r = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/health").send());
      JsonObject h = r.statusCode() == 200 ? r.bodyAsJsonObject() : new JsonObject();
      return h.getInteger("connections", -1) == 1 && h.getInteger("dashboards", -1) == 0;
    });
  }

  static void until(String what, Callable<Boolean> condition) throws Exception {
    long end = System.nanoTime() + 60_000_000_000L;
    Exception last = null;
    while (System.nanoTime() < end) {
      try {
        if (condition.call()) return;
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(100);
    }
    fail("not within a minute: " + what + (last == null ? "" : " (last: " + last + ")"));
  }

  /** One series of the service's /metrics: {@code name} with the label given. */
  static double metric(String name, String label) throws Exception {
    String text = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/metrics").send()).bodyAsString();
    for (String line : text.split("\n")) {
      if (line.startsWith(name + "{") && line.contains(label)) return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
    throw new AssertionError("no metric " + name + " " + label);
  }

  /** A plain socket upgraded to /ws (its receive buffer {@code receiveBuffer} bytes, or the system's when 0). */
  static Socket upgraded(int receiveBuffer) throws IOException {
    Socket s = new Socket();
    if (receiveBuffer > 0) s.setReceiveBufferSize(receiveBuffer);
    s.connect(new java.net.InetSocketAddress("127.0.0.1", service.port()));
    byte[] key = new byte[16];
    ThreadLocalRandom.current().nextBytes(key);
    String req = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + service.port() + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) throw new IOException("closed during the upgrade: " + head);
      head.append((char) b);
    }
    assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
    return s;
  }

  static void text(OutputStream out, String text) throws IOException {
    out.write(frame(0x1, text.getBytes(StandardCharsets.UTF_8)));
  }

  /** One masked frame (RFC 6455: a client masks) of at most 65,535 bytes. */
  static byte[] frame(int opcode, byte[] payload) {
    ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 8);
    f.write(0x80 | opcode);
    if (payload.length < 126) {
      f.write(0x80 | payload.length);
    } else {
      f.write(0x80 | 126);
      f.write(payload.length >>> 8);
      f.write(payload.length);
    }
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    f.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) f.write(payload[i] ^ mask[i & 3]);
    return f.toByteArray();
  }

  /** The server's frames until it closes the connection: each as {opcode, close status (or -1)}. */
  static List<int[]> readToEnd(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) >= 0; ) all.write(buf, 0, n);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server did not close it within a minute");
    } catch (java.net.SocketException reset) {
      // closed by a reset rather than a FIN: the end all the same
    }
    byte[] b = all.toByteArray();
    List<int[]> frames = new ArrayList<>();
    for (int at = 0; at + 2 <= b.length; ) {
      int opcode = b[at] & 0x0f;
      int len = b[at + 1] & 0x7f;
      int header = 2;
      if (len == 126) {
        len = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
        header = 4;
      }
      int status = opcode == 0x8 && len >= 2 ? ((b[at + header] & 0xff) << 8) | (b[at + header + 1] & 0xff) : -1;
      frames.add(new int[] {opcode, status});
      at += header + len;
    }
    return frames;
  }
}
