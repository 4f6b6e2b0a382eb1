package dev.gpurent.bench;

import static dev.gpurent.bench.BenchSupport.await;
import static dev.gpurent.bench.BenchSupport.fmt;
import static dev.gpurent.bench.BenchSupport.ms;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.Bootstrap;
import dev.gpurent.service.FakeVendorServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Live re-ranking at scale: 10,000 live scenarios of mixed sizes (the five shipped scenarios in
 * turn, each with its own stored data: 100 + i GB), 1,000 WebSocket dashboards following one
 * scenario each (every tenth, so the five kinds come in equal shares), on the recorded sample root
 * ({@code bench/sample-root.sh}) with one vendor served by a fake vendor server: Lambda (SkyPilot
 * CSV; it has a plan in the open template's rankings only) or RunPod (the home of every scenario's
 * mixed plan, so its change changes every ranking). A price change is that vendor's recorded payload
 * with every price rescaled (1 + n/100), then POST /api/admin/refresh?vendor=it. Measured per
 * change: latency from the refresh request to each dashboard's new ranking; dashboards whose ranking
 * changed (the engine ranks their scenarios in full on the books before and after, in this JVM,
 * after the change is measured) against those that received one (lost: changed, not received 300 ms
 * after the pass ended; extra: received, not changed); the CPU time the ranking workers spent
 * ({@code gpurent_ranking_live_cpu_seconds_total}) and the whole process's CPU time from the request
 * until the pass ended ({@code gpurent_ranking_live_pass_seconds_count} moved and
 * {@code gpurent_ranking_live_running} is 0; a change starts only when no pass runs), plus the
 * pass's wall time.
 * Run twice in the same JVM: incremental ({@code ranking.incremental: true}, the default) and full
 * ({@code false}), the same scenarios and dashboards. Heap after GC with every scenario live is
 * taken in the incremental run (the service and this driver share the JVM).
 *
 * <p>System properties: bench.root (the sample root, required), bench.vendor (lambda or runpod), bench.scenarios (10000),
 * bench.clients (1000), bench.warmup (3 changes, not recorded), bench.changes (10, incremental),
 * bench.fullChanges (5).
 */
public final class LiveRerank {

  static final int SCENARIOS = Integer.getInteger("bench.scenarios", 10_000);
  static final int CLIENTS = Integer.getInteger("bench.clients", 1000);
  static final int WARMUP = Integer.getInteger("bench.warmup", 3);
  static final int CHANGES = Integer.getInteger("bench.changes", 10);
  static final int FULL_CHANGES = Integer.getInteger("bench.fullChanges", 5);
  /** The vendor whose prices change: lambda (a plan in the open template only) or runpod (the home of every mixed plan). */
  static final String VENDOR = System.getProperty("bench.vendor", "lambda");
  static final Map<String, Path> PAYLOADS = Map.of("runpod", BenchSupport.RUNPOD,
      "lambda", BenchSupport.DATA.resolve("skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv"));
  static final String[] FILES = {"guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml",
      "team-large.yaml"};
  /** Longest wait for a pass to end; a dashboard that has not received 300 ms after it ended is lost. */
  static final long PASS_LIMIT_MS = 120_000;

  /** One dashboard and when its ranking of the current change arrived (0: not yet). */
  static final class Client {
    final int index;
    final int scenario;
    volatile long at;

    Client(int index, int scenario) {
      this.index = index;
      this.scenario = scenario;
    }
  }

  /** The figures of one mode. */
  static final class Mode {
    final String name;
    final Histogram latency = BenchSupport.micros();
    final List<Double> workerCpu = new ArrayList<>();
    final List<Double> processCpu = new ArrayList<>();
    final List<Double> passMs = new ArrayList<>();
    long expected, received, lost, extra, changedScenarios, sampled;
    double heapLiveMiB = Double.NaN, heapBaseMiB = Double.NaN;
    long bytes;

    Mode(String name) {
      this.name = name;
    }
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(System.getProperty("bench.root", "target/sample-root"));
    if (!Files.isDirectory(root.resolve("adapters"))) throw new IllegalStateException("no sample root at " + root + " (bench/sample-root.sh)");
    System.out.println(fmt("== LiveRerank: %d live scenarios, %d dashboards, one vendor (%s) changes; %d changes incremental, %d full, "
        + "after %d unrecorded", SCENARIOS, CLIENTS, VENDOR, CHANGES, FULL_CHANGES, WARMUP));
    System.out.println("load average at start: " + BenchSupport.loadAverage());
    Mode incremental = run(root, true, CHANGES);
    Mode full = run(root, false, FULL_CHANGES);

    System.out.println();
    System.out.println("Per price change at " + VENDOR + " (latency from POST /api/admin/refresh to a dashboard's new ranking)");
    System.out.println(fmt("%-12s %7s %8s %8s %8s %9s %6s %6s %10s %10s %9s %9s", "mode", "changes", "p50 ms", "p99 ms", "max ms",
        "dashboards", "lost", "extra", "worker CPU", "proc. CPU", "pass ms", "changed"));
    for (Mode m : List.of(incremental, full)) {
      System.out.println(fmt("%-12s %7d %8s %8s %8s %9d %6d %6d %9.3fs %9.3fs %9.0f %8.0f%%", m.name, m.workerCpu.size(),
          ms(m.latency.getValueAtPercentile(50)), ms(m.latency.getValueAtPercentile(99)), ms(m.latency.getMaxValue()), m.expected,
          m.lost, m.extra, median(m.workerCpu), median(m.processCpu), median(m.passMs), 100.0 * m.changedScenarios / Math.max(1, m.sampled)));
    }
    System.out.println("  (worker CPU, process CPU and pass: medians over the changes; dashboards: rankings expected in all; changed: "
        + "share of the followed scenarios whose ranking changed)");
    System.out.println(fmt("heap after GC: %.0f MiB with the service up and no live scenario, %.0f MiB with %d live and %d dashboards "
        + "(incremental run; service and driver in one JVM); a ranking message averages %,d bytes", incremental.heapBaseMiB,
        incremental.heapLiveMiB, SCENARIOS, CLIENTS, incremental.bytes));
    System.out.println();
    System.out.println("Targets");
    long p99 = incremental.latency.getValueAtPercentile(99);
    System.out.println(fmt("  %s p99 <= 250 ms, incremental: %s ms", BenchSupport.verdict(p99 <= 250_000), ms(p99)));
    System.out.println(fmt("  %s 0 lost: %d incremental, %d full (extra: %d, %d)", BenchSupport.verdict(incremental.lost + full.lost == 0),
        incremental.lost, full.lost, incremental.extra, full.extra));
    double ratio = median(full.workerCpu) / median(incremental.workerCpu);
    double procRatio = median(full.processCpu) / median(incremental.processCpu);
    System.out.println(fmt("  %s incremental at least 5x cheaper than full: %.1fx by the workers' CPU, %.1fx by the process's",
        BenchSupport.verdict(ratio >= 5), ratio, procRatio));
    System.out.println(fmt("load average at end: %s", BenchSupport.loadAverage()));
    System.exit(0);
  }

  static Mode run(Path root, boolean incremental, int changes) throws Exception {
    Mode mode = new Mode(incremental ? "incremental" : "full");
    System.out.println();
    System.out.println("-- " + mode.name);
    Vertx vendors = Vertx.vertx();
    String original = Files.readString(PAYLOADS.get(VENDOR));
    FakeVendorServer fake = new FakeVendorServer(vendors).serve(VENDOR, PAYLOADS.get(VENDOR));
    await(fake.start());
    configure(root, fake, incremental);
    // live scenarios are durable: each mode starts from an empty store, not with the last mode's 10,000
    for (String f : List.of("gpurent.db", "gpurent.db-wal", "gpurent.db-shm")) Files.deleteIfExists(root.resolve("data").resolve(f));
    Bootstrap.Running service = await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN), Clock.systemUTC()).start(), 120);
    int port = service.port();
    Vertx clients = Vertx.vertx();
    WebClient http = WebClient.create(clients);
    GpuCatalog catalog = GpuCatalog.load(root.resolve("config/gpus.yaml"));
    CostModel model = new CostModel(catalog, RankingRules.from(BenchSupport.map(YamlFiles.load(root.resolve("config/gpurent.yaml")))));
    ScenarioReader reader = new ScenarioReader(catalog);
    try {
      refresh(http, port, "");
      mode.heapBaseMiB = BenchSupport.heapAfterGcMiB();
      long t0 = System.nanoTime();
      List<String> ids = new ArrayList<>();
      List<Scenario> scenarios = new ArrayList<>();
      Semaphore inFlight = new Semaphore(16);
      List<Future<String>> registered = new ArrayList<>();
      for (int i = 0; i < SCENARIOS; i++) {
        JsonObject s = BenchSupport.scenario(FILES[i % FILES.length]).put("name", "live " + i).put("storedGb", 100 + i);
        scenarios.add(reader.read(BenchSupport.map(s.getMap())));
        inFlight.acquire();
        registered.add(http.post(port, "127.0.0.1", "/api/scenarios").sendJsonObject(s).map(r -> {
          if (r.statusCode() != 201) throw new IllegalStateException("register: " + r.statusCode() + " " + r.bodyAsString());
          return r.bodyAsJsonObject().getString("id");
        }).onComplete(x -> inFlight.release()));
      }
      for (Future<String> f : registered) ids.add(await(f, 600));
      System.out.println(fmt("registered %d scenarios in %.1f s", SCENARIOS, (System.nanoTime() - t0) / 1e9));

      List<Client> all = new ArrayList<>();
      for (int j = 0; j < CLIENTS; j++) all.add(new Client(j, (j * 10 + j % 10) % SCENARIOS));
      WebSocketClient ws = clients.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(CLIENTS * 2)
          .setMaxFrameSize(1 << 20).setMaxMessageSize(16 << 20));
      AtomicInteger first = new AtomicInteger();
      long[] bytes = {0};
      for (int from = 0; from < CLIENTS; from += 100) {
        List<Future<WebSocket>> batch = new ArrayList<>();
        for (Client c : all.subList(from, Math.min(CLIENTS, from + 100))) {
          batch.add(ws.connect(port, "127.0.0.1", "/ws").onSuccess(sock -> {
            sock.textMessageHandler(text -> {
              if (!text.startsWith("{\"type\":\"ranking\"")) return;
              long now = System.nanoTime();
              if (c.at == 0) {
                c.at = now;
                if (first.incrementAndGet() <= CLIENTS) synchronized (bytes) { bytes[0] += text.length(); }
              }
            });
            sock.writeTextMessage(new JsonObject().put("subscribe", new JsonArray().add(ids.get(c.scenario))).encode());
          }));
        }
        await(Future.all(batch), 60);
      }
      long until = System.nanoTime() + 60_000_000_000L;
      while (first.get() < CLIENTS && System.nanoTime() < until) Thread.sleep(10);
      mode.bytes = bytes[0] / Math.max(1, first.get());
      System.out.println(fmt("%d dashboards connected, %d have their first ranking", CLIENTS, first.get()));

      for (int n = 1; n <= WARMUP + changes; n++) {
        boolean recorded = n > WARMUP;
        // a pass of its own: one that another book started (a vendor's scheduled refresh) ends first
        idle(http, port);
        QuoteBook before = book(service);
        double cpu0 = metric(http, port, "gpurent_ranking_live_cpu_seconds_total");
        double passes0 = metric(http, port, "gpurent_ranking_live_pass_seconds_count");
        double passSum0 = metric(http, port, "gpurent_ranking_live_pass_seconds_sum");
        for (Client c : all) c.at = 0;
        BigDecimal factor = BigDecimal.ONE.add(BigDecimal.valueOf(n, 2));
        fake.rewrite(VENDOR, body -> VENDOR.equals("runpod") ? BenchSupport.scaleRunPod(original, factor) : scaleCsv(original, factor));
        long proc0 = processCpu();
        long start = System.nanoTime();
        refresh(http, port, "?vendor=" + VENDOR);
        long deadline = start + PASS_LIMIT_MS * 1_000_000;
        while ((metric(http, port, "gpurent_ranking_live_pass_seconds_count") <= passes0
            || metric(http, port, "gpurent_ranking_live_running") > 0) && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        long proc1 = processCpu();
        double cpu1 = metric(http, port, "gpurent_ranking_live_cpu_seconds_total");
        double passSum1 = metric(http, port, "gpurent_ranking_live_pass_seconds_sum");
        Thread.sleep(300);  // messages still on their way
        QuoteBook after = book(service);
        // which followed scenarios changed, by the engine in full on both books
        Map<Integer, Boolean> changed = new HashMap<>();
        for (Client c : all) {
          changed.computeIfAbsent(c.scenario, k -> !shown(model, scenarios.get(k), before).equals(shown(model, scenarios.get(k), after)));
        }
        long exp = 0, got = 0, lost = 0, extra = 0;
        Histogram one = BenchSupport.micros();
        for (Client c : all) {
          boolean want = changed.get(c.scenario);
          if (want) exp++;
          if (c.at != 0 && want) {
            got++;
            one.recordValue(Math.max(0, (c.at - start) / 1000));
          } else if (want) {
            lost++;
          } else if (c.at != 0) {
            extra++;
          }
        }
        long changedScenarios = changed.values().stream().filter(b -> b).count();
        System.out.println(fmt("change %2d%s: %d of %d followed scenarios changed; %d dashboards expected, %d received, %d lost, %d extra; "
            + "p99 %s ms, max %s ms; workers %.3f s CPU, process %.3f s CPU, pass %.0f ms", n, recorded ? "" : " (warm-up)",
            changedScenarios, changed.size(), exp, got, lost, extra, ms(one.getValueAtPercentile(99)), ms(one.getMaxValue()), cpu1 - cpu0,
            (proc1 - proc0) / 1e9, (passSum1 - passSum0) * 1000));
        if (!recorded) continue;
        mode.latency.add(one);
        mode.expected += exp;
        mode.received += got;
        mode.lost += lost;
        mode.extra += extra;
        mode.changedScenarios += changedScenarios;
        mode.sampled += changed.size();
        mode.workerCpu.add(cpu1 - cpu0);
        mode.processCpu.add((proc1 - proc0) / 1e9);
        mode.passMs.add((passSum1 - passSum0) * 1000);
      }
      if (incremental) mode.heapLiveMiB = BenchSupport.heapAfterGcMiB();
    } finally {
      clients.close();
      await(service.close(), 60);
      vendors.close();
    }
    return mode;
  }

  /** The sample root's config for this run: port 0, room for every scenario from one address, the mode; RunPod at the fake. */
  static void configure(Path root, FakeVendorServer fake, boolean incremental) throws Exception {
    Path cfg = root.resolve("config/gpurent.yaml");
    JsonObject config = new JsonObject(BenchSupport.map(YamlFiles.load(cfg)));
    config.getJsonObject("http").put("port", 0);
    config.getJsonObject("ranking").put("maxScenarios", SCENARIOS).put("maxScenariosPerClient", SCENARIOS).put("incremental", incremental);
    Files.writeString(cfg, config.encodePrettily());
    Path def = root.resolve("adapters/" + VENDOR + ".yaml");
    JsonObject vendor = new JsonObject(BenchSupport.map(YamlFiles.load(def)));
    vendor.put("source", fake.url(VENDOR)).put("timeout", "30s");
    Files.writeString(def, vendor.encodePrettily());
  }

  /** Every price of a SkyPilot catalog CSV (the Price column; the columns before it hold no quoted commas) times {@code factor}. */
  static String scaleCsv(String csv, BigDecimal factor) {
    String[] lines = csv.split("\n", -1);
    int price = List.of(lines[0].trim().split(",")).indexOf("Price");
    StringBuilder sb = new StringBuilder(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      sb.append('\n');
      String[] f = lines[i].split(",", price + 2);
      if (f.length > price + 1 && !f[price].isEmpty()) {
        f[price] = new BigDecimal(f[price]).multiply(factor).stripTrailingZeros().toPlainString();
        sb.append(String.join(",", f));
      } else {
        sb.append(lines[i]);
      }
    }
    return sb.toString();
  }

  static void refresh(WebClient http, int port, String query) throws Exception {
    var reply = await(http.post(port, "127.0.0.1", "/api/admin/refresh" + query).bearerTokenAuthentication(BenchSupport.TOKEN).send(), 120);
    // The sample root's GCP price sheet is refused whole (GPU-only prices): only the changing vendor must come in.
    if (reply.statusCode() != 200 || reply.bodyAsJsonObject().getJsonObject("failed").containsKey(VENDOR)) {
      throw new IllegalStateException("refresh: " + reply.statusCode() + " " + reply.bodyAsString());
    }
  }

  static QuoteBook book(Bootstrap.Running service) throws Exception {
    return await(service.vertx().eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body()));
  }

  /** What a dashboard sees of a ranking: everything but its quotes' time. */
  static String shown(CostModel model, Scenario s, QuoteBook book) {
    Map<String, Object> m = model.rank(s, book).toMap();
    m.remove("quotesAt");
    return Json.encode(m);
  }

  /** Waits until no pass over the live scenarios runs. */
  static void idle(WebClient http, int port) throws Exception {
    long until = System.nanoTime() + PASS_LIMIT_MS * 1_000_000;
    while (metric(http, port, "gpurent_ranking_live_running") > 0 && System.nanoTime() < until) Thread.sleep(20);
  }

  /** A value from GET /metrics (Prometheus text), 0 when absent. */
  static double metric(WebClient http, int port, String name) throws Exception {
    String text;
    try {
      text = await(http.get(port, "127.0.0.1", "/metrics").send()).bodyAsString();
    } catch (java.util.concurrent.ExecutionException closed) {
      // a kept-alive connection the server closed as idle (http.idleTimeout) while this reused it: once more, on a new one
      text = await(http.get(port, "127.0.0.1", "/metrics").send()).bodyAsString();
    }
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
    return 0;
  }

  static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static double median(List<Double> v) {
    double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length == 0 ? Double.NaN : a[a.length / 2];
  }
}
