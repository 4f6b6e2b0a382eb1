package dev.gpurent.bench;

import static dev.gpurent.bench.BenchSupport.await;
import static dev.gpurent.bench.BenchSupport.fmt;
import static dev.gpurent.bench.BenchSupport.ms;

import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeVendorServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;

/**
 * Dashboard fan-out: 1,000 WebSocket clients over 20 live scenarios (team-medium with the cards
 * left to the engine, peakQps 1..20), 50 per scenario. A price change is the fake RunPod's recorded
 * payload rescaled, then POST /api/admin/refresh?vendor=runpod; it changes every ranking, and each
 * client's latency runs from the refresh request to the arrival of its new ranking.
 *
 * <p>Phases, after 20 warm-up changes: A, every client reads (20 changes); B, 10% stop reading (20 changes, readers measured);
 * C, changes go on until the server has closed the stalled dashboards (http.wsStallLimit 5 s for
 * this run); D, 20 changes once they are gone. Heap after GC throughout, and the kernel's unsent
 * bytes on the server's sockets. The readers are Vert.x WebSocket clients; the 10% that will stop
 * reading are plain NIO sockets ({@link RawWebSockets}) so that what they do not read stays in
 * kernel buffers, not in a client library's queue on the heap this benchmark measures.
 *
 * <p>System properties: bench.clients (1000), bench.scenarios (20), bench.slowShare (0.1),
 * bench.changes (per phase, 20), bench.stallLimit (5s), bench.wsQueueBytes (the shipped default
 * when unset), bench.slowReceiveBuffer (stopped readers' SO_RCVBUF, OS default when 0),
 * bench.stormSeconds (60), bench.lingerSeconds (how long to watch the closed-but-unread connections, 12).
 */
public final class WsFanout {

  static final int CLIENTS = Integer.getInteger("bench.clients", 1000);
  static final int SCENARIOS = Integer.getInteger("bench.scenarios", 20);
  static final double SLOW_SHARE = Double.parseDouble(System.getProperty("bench.slowShare", "0.1"));
  static final int CHANGES = Integer.getInteger("bench.changes", 20);
  static final String STALL_LIMIT = System.getProperty("bench.stallLimit", "5s");
  static final Integer WS_QUEUE_BYTES = Integer.getInteger("bench.wsQueueBytes");
  static final int SLOW_RCVBUF = Integer.getInteger("bench.slowReceiveBuffer", 0);
  static final long STORM_SECONDS = Integer.getInteger("bench.stormSeconds", 60);
  static final int MAX_STORM_CHANGES = 2000;
  static final long LOST_AFTER_MS = 10_000;
  static final int LINGER_SECONDS = Integer.getInteger("bench.lingerSeconds", 12);

  /** One dashboard: a Vert.x client (reader) or a raw socket (one that will stop reading). */
  static final class Client {
    final int index;
    final String scenario;
    final boolean slow;
    WebSocket ws;
    RawWebSockets.Conn raw;
    volatile short closeStatus = -1;
    /** The price change this client must answer, if any. */
    volatile Round round;

    Client(int index, String scenario, boolean slow) {
      this.index = index;
      this.scenario = scenario;
      this.slow = slow;
    }
  }

  /** One price change: when the refresh was requested, and who has received since. */
  static final class Round {
    final long start = System.nanoTime();
    volatile long replied;
    final AtomicLongArray at;
    final AtomicInteger waiting;

    Round(int clients, int expect) {
      this.at = new AtomicLongArray(clients);
      this.waiting = new AtomicInteger(expect);
    }
  }

  /** Latencies of one phase. */
  static final class Phase {
    final String name;
    final Histogram latency = BenchSupport.micros();
    /** Per change: its own p99, the refresh reply, and the last client served (microseconds). */
    final List<Long> p99s = new ArrayList<>();
    final List<Long> replies = new ArrayList<>();
    final List<Long> lasts = new ArrayList<>();
    long lost;
    int changes;
    int clients;

    Phase(String name) {
      this.name = name;
    }

    long p99() {
      return latency.getValueAtPercentile(99);
    }

    void add(Round r, List<Client> measured) {
      changes++;
      clients = measured.size();
      Histogram one = BenchSupport.micros();
      for (Client c : measured) {
        long at = r.at.get(c.index);
        if (at == 0) {
          lost++;
        } else {
          latency.recordValue(Math.max(0, (at - r.start) / 1000));
          one.recordValue(Math.max(0, (at - r.start) / 1000));
        }
      }
      p99s.add(one.getValueAtPercentile(99));
      lasts.add(one.getMaxValue());
      replies.add((r.replied - r.start) / 1000);
    }

    /** The median over this phase's changes of each change's own p99: robust to one change hit by a pause. */
    long medianP99() {
      return median(p99s);
    }

    static long median(List<Long> v) {
      long[] a = v.stream().mapToLong(Long::longValue).sorted().toArray();
      return a.length == 0 ? 0 : a[a.length / 2];
    }

    void print() {
      System.out.println(fmt("%-42s %7d %7d %8s %8s %8s %8s %6d %9s %9s %9s", name, changes, clients, ms(latency.getValueAtPercentile(50)),
          ms(latency.getValueAtPercentile(99)), ms(latency.getMaxValue()), ms(latency.getMean()), lost, ms(medianP99()),
          ms(median(replies)), ms(median(lasts))));
    }
  }

  public static void main(String[] args) throws Exception {
    long started = System.nanoTime();
    JsonObject httpConfig = new JsonObject().put("wsStallLimit", STALL_LIMIT);
    if (WS_QUEUE_BYTES != null) httpConfig.put("wsQueueBytes", WS_QUEUE_BYTES);
    System.out.println(fmt("== WsFanout: %d clients over %d scenarios, %.0f%% stop reading; %d price changes a phase; http %s",
        CLIENTS, SCENARIOS, SLOW_SHARE * 100, CHANGES, httpConfig.encode()));
    System.out.println("load average at start: " + BenchSupport.loadAverage());
    Vertx vendors = Vertx.vertx();
    String original = Files.readString(BenchSupport.RUNPOD);
    FakeVendorServer fake = new FakeVendorServer(vendors).serve("runpod", BenchSupport.RUNPOD).serve("vast", BenchSupport.VAST);
    await(fake.start());
    Path root = Files.createTempDirectory("gpurent-bench-ws");
    BenchSupport.writeRoot(root, fake, httpConfig);
    Bootstrap.Running service = await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN), Clock.systemUTC()).start());
    int port = service.port();
    Vertx clients = Vertx.vertx();
    WebClient http = WebClient.create(clients);
    List<Client> all = new ArrayList<>();
    RawWebSockets raw = new RawWebSockets((conn, now) -> received(all.get(conn.index), now));
    try {
      await(http.post(port, "127.0.0.1", "/api/admin/refresh").bearerTokenAuthentication(BenchSupport.TOKEN).send());
      List<String> ids = new ArrayList<>();
      for (int s = 0; s < SCENARIOS; s++) {
        JsonObject scenario = BenchSupport.scenario("team-medium.yaml");
        scenario.put("name", "fan-out " + s);
        // Cards left to the engine: with team-medium's pinned cards (rtx-4090, a100-40g-sxm) RunPod
        // has no plan, and its price changes would change no ranking.
        scenario.getJsonArray("workloads").forEach(w -> ((JsonObject) w).remove("gpu"));
        scenario.getJsonArray("workloads").getJsonObject(0).put("peakQps", 1 + s);
        var r = await(http.post(port, "127.0.0.1", "/api/scenarios").sendJsonObject(scenario));
        if (r.statusCode() != 201) throw new IllegalStateException("register: " + r.statusCode() + " " + r.bodyAsString());
        ids.add(r.bodyAsJsonObject().getString("id"));
      }
      JsonObject sample = await(http.get(port, "127.0.0.1", "/api/scenarios/" + ids.get(0) + "/ranking").send()).bodyAsJsonObject();
      boolean runpodRanked = sample.getJsonArray("plans").stream()
          .anyMatch(p -> "runpod".equals(((JsonObject) p).getString("vendor")));
      System.out.println(fmt("%d scenarios registered; a ranking message is %,d bytes; RunPod has a plan in it: %s", SCENARIOS,
          sample.encode().length(), runpodRanked));
      if (!runpodRanked) throw new IllegalStateException("RunPod has no plan in the scenario: its price changes would change no ranking");

      WebSocketClient wsClient = clients.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(CLIENTS * 2));
      int slowEvery = SLOW_SHARE <= 0 ? Integer.MAX_VALUE : (int) Math.round(1 / SLOW_SHARE);
      Round initial = new Round(CLIENTS, CLIENTS);
      for (int i = 0; i < CLIENTS; i++) {
        // client i follows scenario i % 20; every 10th row of 20 stops reading: 10% of each scenario's clients
        Client c = new Client(i, ids.get(i % SCENARIOS), (i / SCENARIOS) % slowEvery == slowEvery - 1);
        c.round = initial;
        all.add(c);
      }
      for (int from = 0; from < CLIENTS; from += 100) {
        List<Future<WebSocket>> batch = new ArrayList<>();
        for (Client c : all.subList(from, Math.min(CLIENTS, from + 100))) {
          String subscribe = new JsonObject().put("subscribe", new JsonArray().add(c.scenario)).encode();
          if (c.slow) {
            c.raw = raw.connect(c.index, port, "/ws", subscribe, SLOW_RCVBUF);
            continue;
          }
          batch.add(wsClient.connect(port, "127.0.0.1", "/ws").onSuccess(ws -> {
            c.ws = ws;
            ws.textMessageHandler(text -> {
              if (text.startsWith("{\"type\":\"ranking\"")) received(c, System.nanoTime());
            });
            ws.closeHandler(v -> c.closeStatus = ws.closeStatusCode() == null ? 0 : ws.closeStatusCode());
            ws.writeTextMessage(subscribe);
          }));
        }
        await(Future.all(batch), 60);
      }
      waitFor(initial, 30_000);
      System.out.println(fmt("connected %d clients; first ranking received by %d in %.1f s; server dashboards: %d", CLIENTS,
          CLIENTS - initial.waiting.get(), (System.nanoTime() - initial.start) / 1e9, dashboards(http, port)));
      if (initial.waiting.get() > 0) throw new IllegalStateException(initial.waiting.get() + " clients never got their first ranking");
      List<Client> readers = all.stream().filter(c -> !c.slow).toList();
      List<Client> slow = all.stream().filter(c -> c.slow).toList();
      int[] change = {0};
      Phase warm = new Phase("warm-up: all " + CLIENTS + " reading");
      for (int i = 0; i < CHANGES; i++) warm.add(priceChange(http, port, fake, original, ++change[0], all), all);
      double heapBefore = BenchSupport.heapAfterGcMiB();

      Phase a = new Phase("A: all " + CLIENTS + " reading");
      for (int i = 0; i < CHANGES; i++) a.add(priceChange(http, port, fake, original, ++change[0], all), all);

      for (Client c : slow) raw.pause(c.raw);
      long pausedAt = System.nanoTime();
      Phase b = new Phase("B: " + slow.size() + " stopped reading (readers)");
      for (int i = 0; i < CHANGES; i++) b.add(priceChange(http, port, fake, original, ++change[0], readers), readers);

      Phase c3 = new Phase("C: until they are closed (readers)");
      double heapStalledMax = Double.NaN;
      BenchSupport.TcpQueues tcpMax = BenchSupport.tcpQueues(port);
      long nextHeap = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      long stormEnd = pausedAt + TimeUnit.SECONDS.toNanos(STORM_SECONDS);
      int dash = dashboards(http, port);
      long closedSeenAt = 0;
      long fullSeenAt = 0;
      while (c3.changes < MAX_STORM_CHANGES && System.nanoTime() < stormEnd) {
        c3.add(priceChange(http, port, fake, original, ++change[0], readers), readers);
        BenchSupport.TcpQueues q = BenchSupport.tcpQueues(port);
        if (q.unsentBytes() > tcpMax.unsentBytes()) tcpMax = q;
        else if (fullSeenAt == 0 && q.withUnsent() >= slow.size() && q.unsentBytes() == tcpMax.unsentBytes()) fullSeenAt = System.nanoTime();
        if (System.nanoTime() > nextHeap) {
          heapStalledMax = Double.isNaN(heapStalledMax) ? BenchSupport.heapAfterGcMiB() : Math.max(heapStalledMax, BenchSupport.heapAfterGcMiB());
          nextHeap = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        }
        dash = dashboards(http, port);
        if (dash <= readers.size()) {
          closedSeenAt = System.nanoTime();
          break;
        }
      }
      BenchSupport.TcpQueues tcpClosed = BenchSupport.tcpQueues(port);

      Phase d = new Phase("D: after they were closed (readers)");
      for (int i = 0; i < CHANGES; i++) d.add(priceChange(http, port, fake, original, ++change[0], readers), readers);
      double heapAfter = BenchSupport.heapAfterGcMiB();
      BenchSupport.TcpQueues tcpAfter = BenchSupport.tcpQueues(port);
      // does the server ever let go of the connections it "closed" while their clients still do not read?
      long lingerFrom = System.nanoTime();
      long lingerUntil = lingerFrom + TimeUnit.SECONDS.toNanos(LINGER_SECONDS);
      BenchSupport.TcpQueues tcpLinger = tcpAfter;
      while (System.nanoTime() < lingerUntil && tcpLinger.withUnsent() >= slow.size()) {
        Thread.sleep(500);
        tcpLinger = BenchSupport.tcpQueues(port);
      }
      double lingered = (System.nanoTime() - lingerFrom) / 1e9;

      // the stopped clients read again: what did the server leave them?
      for (Client c : slow) raw.resume(c.raw);
      long resumeUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(LINGER_SECONDS);
      while (System.nanoTime() < resumeUntil && slow.stream().anyMatch(c -> !c.raw.eof)) Thread.sleep(20);
      long eof = slow.stream().filter(c -> c.raw.eof).count();
      long with1008 = slow.stream().filter(c -> c.raw.closeStatus == 1008).count();
      double readAfterResume = slow.stream().mapToLong(c -> c.raw.bytes).average().orElse(0) / 1048576.0;
      long readersClosed = readers.stream().filter(c -> c.closeStatus >= 0).count();
      double heapResumed = BenchSupport.heapAfterGcMiB();
      BenchSupport.TcpQueues tcpResumed = BenchSupport.tcpQueues(port);

      System.out.println();
      System.out.println("Latency from POST /api/admin/refresh?vendor=runpod to a client's new ranking");
      System.out.println(fmt("%-42s %7s %7s %8s %8s %8s %8s %6s %9s %9s %9s", "phase", "changes", "clients", "p50 ms", "p99 ms", "max ms",
          "mean ms", "lost", "p99/chg", "reply", "last"));
      System.out.println("  (p99, p50, max and mean pool every client of every change; p99/chg, reply and last are medians over the changes of each "
          + "change's p99, of the refresh request's reply (fetch, parse, new book) and of its last client served)");
      for (Phase p : List.of(warm, a, b, c3, d)) p.print();
      System.out.println();
      System.out.println("The stopped readers");
      System.out.println(fmt("  server dashboards %d -> %d: the stalled ones closed %s after they stopped reading (%d changes)", CLIENTS, dash,
          closedSeenAt == 0 ? "NOT within " + STORM_SECONDS + " s" : fmt("%.1f s", (closedSeenAt - pausedAt) / 1e9), c3.changes + b.changes));
      System.out.println(fmt("  server-side kernel send queues: largest while stalled %s%s", tcpMax,
          fullSeenAt == 0 ? "" : fmt(" (stopped growing %.1f s after the pause)", (fullSeenAt - pausedAt) / 1e9)));
      System.out.println("  right after the close:           " + tcpClosed);
      System.out.println("  after phase D:                   " + tcpAfter);
      System.out.println(fmt("  %.1f s later, still not read:     %s", lingered + 0.0, tcpLinger));
      System.out.println("  after they read again:           " + tcpResumed);
      System.out.println(fmt("  on resuming, the stopped clients read %.2f MiB each on average; %d of %d then saw the connection end, %d read a "
          + "1008 close frame", readAfterResume, eof, slow.size(), with1008));
      System.out.println(fmt("  readers closed by the server (should be 0): %d", readersClosed));
      System.out.println(fmt("  heap after GC: before %.1f MiB, largest while stalled %.1f MiB, after the close %.1f MiB, after they read again %.1f MiB",
          heapBefore, heapStalledMax, heapAfter, heapResumed));

      System.out.println();
      System.out.println("Targets");
      System.out.println(fmt("  %s p99 <= 100 ms, every client reading: %s ms (margin %+.2f ms)", BenchSupport.verdict(a.p99() <= 100_000),
          ms(a.p99()), (100_000 - a.p99()) / 1000.0));
      long lost = a.lost + b.lost + c3.lost + d.lost;
      System.out.println(fmt("  %s no client lost (nothing within %d s): %d", BenchSupport.verdict(lost == 0), LOST_AFTER_MS / 1000, lost));
      double movedB = (b.p99() - (double) a.p99()) / a.p99();
      double movedC = (c3.p99() - (double) a.p99()) / a.p99();
      System.out.println(fmt("  %s slow clients move the readers' p99 by <= 10%%: %s -> %s ms (%+.1f%%) just after they stopped; "
          + "%s ms (%+.1f%%) until they were closed", BenchSupport.verdict(movedB <= 0.10), ms(a.p99()), ms(b.p99()), movedB * 100,
          ms(c3.p99()), movedC * 100));
      double medB = (b.medianP99() - (double) a.medianP99()) / a.medianP99();
      double medC = (c3.medianP99() - (double) a.medianP99()) / a.medianP99();
      System.out.println(fmt("  %s   the same on the median of each change's p99: %s -> %s ms (%+.1f%%); %s ms (%+.1f%%) until they were closed",
          BenchSupport.verdict(medB <= 0.10), ms(a.medianP99()), ms(b.medianP99()), medB * 100, ms(c3.medianP99()), medC * 100));
      System.out.println(fmt("  %s   p99 <= 100 ms on the median of each change's p99, every client reading: %s ms",
          BenchSupport.verdict(a.medianP99() <= 100_000), ms(a.medianP99())));
      int queueBytes = WS_QUEUE_BYTES == null ? 262144 : WS_QUEUE_BYTES;
      double bound = heapBefore * 1.1 + 8 + slow.size() * (queueBytes + 2.0 * sample.encode().length()) / 1048576;
      System.out.println(fmt("  %s heap bounded while stalled: %.1f <= %.1f MiB (before %.1f + 10%% + 8 MiB + per stopped reader its write "
          + "queue limit and 2 messages)", BenchSupport.verdict(!(heapStalledMax > bound)), heapStalledMax, bound, heapBefore));
      double back = heapBefore * 1.1 + 8;
      System.out.println(fmt("  %s heap released once they are closed: %.1f <= %.1f MiB (before + 10%% + 8 MiB); %.1f MiB once they read again",
          BenchSupport.verdict(heapAfter <= back), heapAfter, back, heapResumed));
      System.out.println(fmt("  %s the stalled dashboards were closed: %d of %d", BenchSupport.verdict(dash <= readers.size()),
          CLIENTS - dash, slow.size()));
      System.out.println(fmt("load average at end: %s; total %.0f s", BenchSupport.loadAverage(), (System.nanoTime() - started) / 1e9));
    } finally {
      raw.close();
      clients.close();
      service.close();
      vendors.close();
      BenchSupport.deleteTree(root);
    }
    System.exit(0);
  }

  static void received(Client c, long now) {
    Round r = c.round;
    if (r != null && r.at.compareAndSet(c.index, 0, now)) r.waiting.decrementAndGet();
  }

  /** Rescales RunPod's recorded prices by 1 + n/100 and refreshes it; waits until {@code expect} have the new ranking (10 s at most). */
  static Round priceChange(WebClient http, int port, FakeVendorServer fake, String original, int n, List<Client> expect) throws Exception {
    BigDecimal factor = BigDecimal.ONE.add(BigDecimal.valueOf(n, 2));
    fake.rewrite("runpod", body -> BenchSupport.scaleRunPod(original, factor));
    Round r = new Round(CLIENTS, expect.size());
    for (Client c : expect) c.round = r;
    var reply = await(http.post(port, "127.0.0.1", "/api/admin/refresh?vendor=runpod").bearerTokenAuthentication(BenchSupport.TOKEN).send());
    r.replied = System.nanoTime();
    if (reply.statusCode() != 200 || !reply.bodyAsJsonObject().getJsonObject("failed").isEmpty()) {
      throw new IllegalStateException("refresh: " + reply.statusCode() + " " + reply.bodyAsString());
    }
    waitFor(r, LOST_AFTER_MS);
    return r;
  }

  static void waitFor(Round r, long millis) throws InterruptedException {
    long until = r.start + TimeUnit.MILLISECONDS.toNanos(millis);
    while (r.waiting.get() > 0 && System.nanoTime() < until) Thread.sleep(1);
  }

  static int dashboards(WebClient http, int port) throws Exception {
    return await(http.get(port, "127.0.0.1", "/health").send()).bodyAsJsonObject().getInteger("dashboards");
  }
}
