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
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeVendorServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
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
 * change: latency from the refresh request to each dashboard's new ranking (its last frame read;
 * the driver does not decode the text, a browser's work that would be taken from the service's cores); dashboards whose ranking
 * changed (the engine ranks their scenarios in full on the books before and after, in this JVM,
 * after the change is measured) against those that received one (lost: changed, not received 300 ms
 * after the pass ended; extra: received, not changed); the CPU time the ranking workers spent
 * ({@code gpurent_ranking_live_cpu_seconds_total}) and the whole process's CPU time from the request
 * until the pass ended ({@code gpurent_ranking_live_pass_seconds_count} moved and
 * {@code gpurent_ranking_live_running} is 0; a change starts only when no pass runs), plus the
 * pass's wall time.
 * Run twice, the service started afresh for each: incremental ({@code ranking.incremental: true}, the
 * default) and full ({@code false}), the same scenarios and dashboards. Heap after GC with every
 * scenario live is taken in the incremental run.
 *
 * <p>With bench.nodes above 1 the service is a cluster ({@link LiveCluster}): the scenarios are
 * registered through the nodes in turn, dashboard j connects to node j mod N, the change is
 * refreshed at the node holding the vendor's lease, a change has ended when every node's pass has;
 * CPU is the nodes' summed, the pass time the longest node's. With one node the service and this
 * driver share the JVM (its process CPU includes the dashboards' reading).
 *
 * <p>System properties: bench.root (the sample root, required), bench.vendor (lambda or runpod), bench.scenarios (10000),
 * bench.clients (1000), bench.warmup (3 changes, not recorded), bench.changes (10, incremental),
 * bench.fullChanges (5), bench.nodes (1), bench.nodeHeap (each node's -Xmx, 4g), bench.nodeJvm (more options for each node's JVM),
 * bench.deltas (true: the dashboards connect with {@code ?deltas=true}, as the dashboard page does, and receive a change as a
 * delta against their last ranking; false: whole rankings).
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
  /** 1: the service in this JVM; more: a cluster of that many node JVMs ({@link LiveCluster}). */
  static final int NODES = Integer.getInteger("bench.nodes", 1);
  /** A node's process CPU time (Micrometer's process.cpu.time, nanoseconds). */
  static final String PROCESS_CPU = "process_cpu_time_ns_total";

  /** The service measured: its nodes' HTTP ports, and the book its rankings should come from. */
  interface Service {
    List<Integer> ports();

    /** The port whose refresh fetches the changing vendor (in a cluster, its lease holder's); refreshes it once. */
    int fetcher(WebClient http) throws Exception;

    QuoteBook book() throws Exception;

    /** After a change is measured: {@link #book} takes the new prices too, if it is not the service's own. */
    void follow(WebClient http) throws Exception;

    /** The service's heap after a full GC, every node's summed. */
    double heapAfterGcMiB(WebClient http) throws Exception;

    void close() throws Exception;
  }

  /** The service in this JVM (driver and service share the heap). */
  record OneNode(Bootstrap.Running running) implements Service {
    static OneNode start(Path root) throws Exception {
      // a fresh store: the other mode's live scenarios are durable, and would be restored beside this mode's
      BenchSupport.deleteTree(root.resolve("data"));
      return new OneNode(await(new Bootstrap(root, Map.of("GPURENT_ADMIN_TOKEN", BenchSupport.TOKEN), Clock.systemUTC()).start(), 120));
    }

    @Override
    public List<Integer> ports() {
      return List.of(running.port());
    }

    @Override
    public int fetcher(WebClient http) throws Exception {
      refresh(http, running.port(), "");
      return running.port();
    }

    @Override
    public QuoteBook book() throws Exception {
      return LiveRerank.book(running.vertx());
    }

    @Override
    public void follow(WebClient http) {}

    @Override
    public double heapAfterGcMiB(WebClient http) {
      return BenchSupport.heapAfterGcMiB();
    }

    @Override
    public void close() throws Exception {
      await(running.close(), 60);
    }
  }

  /** How a ranking message starts, whole ({@code "ranking"}) or a delta ({@code "ranking-delta"}). */
  static final String RANKING = "{\"type\":\"ranking";
  /** Whether the dashboards take deltas after their first ranking, as the dashboard page does ({@code /ws?deltas=true}). */
  static final boolean DELTAS = Boolean.parseBoolean(System.getProperty("bench.deltas", "true"));

  /** One dashboard and when its ranking of the current change arrived (0: not yet). */
  static final class Client {
    final int index;
    final int scenario;
    volatile long at;
    /** The size of that message. */
    volatile long atLength;
    /** The message being received (on the socket's event loop): a ranking, and its bytes so far. */
    boolean ranking;
    long length;

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
    /** MB allocated by every thread of this JVM from the refresh until the dashboards read the change (one node only). */
    final List<Double> allocatedMb = new ArrayList<>();
    /** The same less what the driver's scrapes of /metrics in the window allocated (measured at rest, see {@link #scrapeMb}). */
    final List<Double> allocatedNetMb = new ArrayList<>();
    /** What one scrape of /metrics allocates in this JVM, at rest (median of 5): the driver's polling, not the change's work. */
    double scrapeMb = Double.NaN;
    long expected, received, lost, extra, changedScenarios, sampled;
    double heapLiveMiB = Double.NaN, heapBaseMiB = Double.NaN;
    long bytes;
    long changeBytes, changeMessages;

    Mode(String name) {
      this.name = name;
    }
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(System.getProperty("bench.root", "target/sample-root"));
    if (!Files.isDirectory(root.resolve("adapters"))) throw new IllegalStateException("no sample root at " + root + " (bench/sample-root.sh)");
    System.out.println(fmt("== LiveRerank: %d live scenarios, %d dashboards, one vendor (%s) changes; %d changes incremental, %d full, "
        + "after %d unrecorded; %s", SCENARIOS, CLIENTS, VENDOR, CHANGES, FULL_CHANGES, WARMUP, NODES == 1 ? "one node, in this JVM"
        : NODES + " cluster nodes (JVMs of -Xmx" + LiveCluster.NODE_HEAP + "), scenarios and dashboards spread over them"));
    System.out.println("load average at start: " + BenchSupport.loadAverage());
    Mode incremental = run(root, true, CHANGES);
    // bench.fullChanges=0: the incremental figures alone (no ratio), in half the time
    Mode full = FULL_CHANGES == 0 ? new Mode("full") : run(root, false, FULL_CHANGES);

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
        + "(incremental run; %s)", incremental.heapBaseMiB, incremental.heapLiveMiB, SCENARIOS,
        CLIENTS, NODES == 1 ? "service and driver in one JVM" : "the nodes' summed"));
    System.out.println(fmt("heap per live scenario: %.1f KB ((with - without) / scenarios); allocated per change: %.0f MB (median, incremental;"
        + " every thread of this JVM from the refresh until 300 ms after the pass ended, the driver's reading included); %.0f MB less the"
        + " driver's scrapes of /metrics in that time (%.1f MB each, measured at rest)",
        (incremental.heapLiveMiB - incremental.heapBaseMiB) * 1024 / SCENARIOS, median(incremental.allocatedMb),
        median(incremental.allocatedNetMb), incremental.scrapeMb));
    System.out.println(fmt("a dashboard's first message averages %,d bytes; a change's (incremental, %s) %,d bytes", incremental.bytes,
        DELTAS ? "deltas: /ws?deltas=true" : "whole: -Dbench.deltas=false", incremental.changeBytes / Math.max(1, incremental.changeMessages)));
    System.out.println();
    System.out.println("Targets");
    long p99 = incremental.latency.getValueAtPercentile(99);
    long target = NODES == 1 ? 250 : 500;
    System.out.println(fmt("  %s p99 <= %d ms, incremental: %s ms", BenchSupport.verdict(p99 <= target * 1000), target, ms(p99)));
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
    Service service = NODES == 1 ? OneNode.start(root) : LiveCluster.start(root, NODES, VENDOR);
    List<Integer> ports = service.ports();
    Vertx clients = Vertx.vertx();
    // Kept-alive connections are dropped before the service's 60 s idle timeout can close one under a
    // request: registering and connecting take minutes with no scrape, and a stale one failed a run.
    WebClient http = WebClient.create(clients, new io.vertx.ext.web.client.WebClientOptions().setKeepAliveTimeout(20));
    GpuCatalog catalog = GpuCatalog.load(root.resolve("config/gpus.yaml"));
    CostModel model = new CostModel(catalog, RankingRules.from(BenchSupport.map(YamlFiles.load(root.resolve("config/gpurent.yaml")))));
    ScenarioReader reader = new ScenarioReader(catalog);
    try {
      int fetcher = service.fetcher(http);
      mode.heapBaseMiB = service.heapAfterGcMiB(http);
      long t0 = System.nanoTime();
      List<String> ids = new ArrayList<>();
      List<Scenario> scenarios = new ArrayList<>();
      Semaphore inFlight = new Semaphore(16);
      List<Future<String>> registered = new ArrayList<>();
      for (int i = 0; i < SCENARIOS; i++) {
        JsonObject s = BenchSupport.scenario(FILES[i % FILES.length]).put("name", "live " + i).put("storedGb", 100 + i);
        scenarios.add(reader.read(BenchSupport.map(s.getMap())));
        inFlight.acquire();
        // spread over the nodes
        registered.add(http.post(ports.get(i % ports.size()), "127.0.0.1", "/api/scenarios").sendJsonObject(s).map(r -> {
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
          batch.add(ws.connect(ports.get(c.index % ports.size()), "127.0.0.1", DELTAS ? "/ws?deltas=true" : "/ws").onSuccess(sock -> {
            // Received when a ranking message's last frame is: the driver shares the service's two cores,
            // and decoding each 200 KB message into a String (a browser's work) would be taken from the service.
            sock.frameHandler(frame -> {
              // control frames (the server's pings) may come between a message's frames: they are not the message's
              if (!frame.isText() && !frame.isBinary() && !frame.isContinuation()) return;
              if (!frame.isContinuation()) {
                c.ranking = frame.isText() && frame.binaryData().length() >= RANKING.length()
                    && frame.binaryData().getString(0, RANKING.length()).equals(RANKING);
                c.length = 0;
              }
              c.length += frame.binaryData().length();
              if (!frame.isFinal() || !c.ranking) return;
              long now = System.nanoTime();
              if (c.at == 0) {
                c.atLength = c.length;
                c.at = now;
                if (first.incrementAndGet() <= CLIENTS) synchronized (bytes) { bytes[0] += c.length; }
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
      if (NODES == 1) mode.scrapeMb = scrapeMb(http, ports.get(0));
      System.out.println(fmt("%d dashboards connected, %d have their first ranking", CLIENTS, first.get()));

      for (int n = 1; n <= WARMUP + changes; n++) {
        boolean recorded = n > WARMUP;
        // a pass of its own: one that another book started (a vendor's scheduled refresh) ends first
        idle(http, ports);
        QuoteBook before = service.book();
        for (Client c : all) c.at = 0;
        BigDecimal factor = BigDecimal.ONE.add(BigDecimal.valueOf(n, 2));
        fake.rewrite(VENDOR, body -> VENDOR.equals("runpod") ? BenchSupport.scaleRunPod(original, factor) : FakeVendorServer.scaleCsv(original, factor));
        // one scrape a node before and one after: every figure is read off them (each scrape is the
        // whole registry's text, so one per figure counted a dozen of them in the change's allocation)
        String[] at0 = scrapes(http, ports);
        double[] cpu0 = values(at0, "gpurent_ranking_live_cpu_seconds_total");
        double[] passes0 = values(at0, "gpurent_ranking_live_pass_seconds_count");
        double[] passSum0 = values(at0, "gpurent_ranking_live_pass_seconds_sum");
        double[] followed0 = values(at0, "gpurent_ranking_live_followed_seconds_sum");
        double[] proc0 = values(at0, PROCESS_CPU);
        double[] gc0 = values(at0, "jvm_gc_pause_seconds_sum");
        double[] bus0 = values(at0, "vertx_eventbus_bytes_written_sum");
        long scraped0 = SCRAPES.get();
        long allocated0 = allocatedBytes();
        long start = System.nanoTime();
        refresh(http, fetcher, "?vendor=" + VENDOR);
        long answered = System.nanoTime();  // the vendor fetched and its quotes installed on the fetching node
        long deadline = start + PASS_LIMIT_MS * 1_000_000;
        // every node passes over its own scenarios (their owner's)
        // Polled every 250 ms, one scrape a node: a scrape costs a node 10-15 ms while the pass runs, and
        // the latency is the dashboards' (read as they receive), so the pass's end needs no finer grain.
        while (!passed(http, ports, passes0) && System.nanoTime() < deadline) Thread.sleep(250);
        String[] at1 = scrapes(http, ports);
        double proc = sum(values(at1, PROCESS_CPU), proc0) / 1e9;
        double cpu = sum(values(at1, "gpurent_ranking_live_cpu_seconds_total"), cpu0);
        double gc = sum(values(at1, "jvm_gc_pause_seconds_sum"), gc0);
        double bus = sum(values(at1, "vertx_eventbus_bytes_written_sum"), bus0) / 1e6;
        double[] passSum1 = values(at1, "gpurent_ranking_live_pass_seconds_sum");
        double[] followed1 = values(at1, "gpurent_ranking_live_followed_seconds_sum");
        double passMs = 0;
        List<String> nodePasses = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
          passMs = Math.max(passMs, (passSum1[i] - passSum0[i]) * 1000);
          nodePasses.add(fmt("%.0f (followed %.0f)", (passSum1[i] - passSum0[i]) * 1000, (followed1[i] - followed0[i]) * 1000));
        }
        Thread.sleep(300);  // messages still on their way
        double allocatedMb = NODES == 1 ? (allocatedBytes() - allocated0) / 1e6 : Double.NaN;
        long scrapedInWindow = SCRAPES.get() - scraped0;
        service.follow(http);
        QuoteBook after = service.book();
        // which followed scenarios changed, by the engine in full on both books
        Map<Integer, Boolean> changed = new HashMap<>();
        for (Client c : all) {
          changed.computeIfAbsent(c.scenario, k -> !shown(model, scenarios.get(k), before).equals(shown(model, scenarios.get(k), after)));
        }
        long exp = 0, got = 0, lost = 0, extra = 0, sizes = 0;
        Histogram one = BenchSupport.micros();
        for (Client c : all) {
          boolean want = changed.get(c.scenario);
          if (want) exp++;
          if (c.at != 0 && want) {
            got++;
            sizes += c.atLength;
            one.recordValue(Math.max(0, (c.at - start) / 1000));
          } else if (want) {
            lost++;
          } else if (c.at != 0) {
            extra++;
          }
        }
        long changedScenarios = changed.values().stream().filter(b -> b).count();
        System.out.println(fmt("change %2d%s: %d of %d followed scenarios changed; %d dashboards expected, %d received, %d lost, %d extra; "
            + "p50 %s ms, p99 %s ms, max %s ms; refresh answered after %.0f ms; workers %.3f s CPU, process %.3f s CPU, pass %s ms; "
            + "GC pauses %.1f s, %.0f MB sent between nodes, %.0f MB allocated (%d scrapes of /metrics in it)", n, recorded ? "" : " (warm-up)", changedScenarios, changed.size(), exp, got,
            lost, extra, ms(one.getValueAtPercentile(50)), ms(one.getValueAtPercentile(99)), ms(one.getMaxValue()), (answered - start) / 1e6, cpu, proc,
            String.join(" / ", nodePasses), gc, bus, allocatedMb, scrapedInWindow));
        if (!recorded) continue;
        mode.latency.add(one);
        mode.expected += exp;
        mode.received += got;
        mode.lost += lost;
        mode.extra += extra;
        mode.changeBytes += sizes;
        mode.changeMessages += got;
        mode.changedScenarios += changedScenarios;
        mode.sampled += changed.size();
        mode.workerCpu.add(cpu);
        mode.processCpu.add(proc);
        mode.passMs.add(passMs);
        mode.allocatedMb.add(allocatedMb);
        mode.allocatedNetMb.add(allocatedMb - scrapedInWindow * mode.scrapeMb);
      }
      if (incremental) mode.heapLiveMiB = service.heapAfterGcMiB(http);
    } finally {
      clients.close();
      service.close();
      vendors.close();
    }
    return mode;
  }

  /** Bytes allocated so far by every live thread of this JVM (HotSpot's count; one node runs in this JVM). */
  static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
  }

  /** The sample root's config for this run: port 0, room for every scenario from one address and in the budget, the mode; RunPod at the fake. */
  static void configure(Path root, FakeVendorServer fake, boolean incremental) throws Exception {
    Path cfg = root.resolve("config/gpurent.yaml");
    JsonObject config = new JsonObject(BenchSupport.map(YamlFiles.load(cfg)));
    config.getJsonObject("http").put("port", 0);
    // the budget's weights (workloads x vendors) are an upper bound the shipped scenarios, pinned to a card, stay well under:
    // it is set past any run's so that the heap, which this bench measures, is the only bound
    config.getJsonObject("ranking").put("maxScenarios", SCENARIOS).put("maxScenariosPerClient", SCENARIOS).put("incremental", incremental)
        .put("memoryBudget", 1L << 40);
    Files.writeString(cfg, config.encodePrettily());
    Path def = root.resolve("adapters/" + VENDOR + ".yaml");
    JsonObject vendor = new JsonObject(BenchSupport.map(YamlFiles.load(def)));
    vendor.put("source", fake.url(VENDOR)).put("timeout", "30s");
    Files.writeString(def, vendor.encodePrettily());
  }

  static void refresh(WebClient http, int port, String query) throws Exception {
    var reply = await(http.post(port, "127.0.0.1", "/api/admin/refresh" + query).bearerTokenAuthentication(BenchSupport.TOKEN).send(), 120);
    // The sample root's GCP price sheet is refused whole (GPU-only prices): only the changing vendor must come in.
    if (reply.statusCode() != 200 || reply.bodyAsJsonObject().getJsonObject("failed").containsKey(VENDOR)) {
      throw new IllegalStateException("refresh: " + reply.statusCode() + " " + reply.bodyAsString());
    }
  }

  static QuoteBook book(Vertx vertx) throws Exception {
    return await(vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body()));
  }

  /** What a dashboard sees of a ranking: everything but its quotes' time. */
  static String shown(CostModel model, Scenario s, QuoteBook book) {
    Map<String, Object> m = model.rank(s, book).toMap();
    m.remove("quotesAt");
    return Json.encode(m);
  }

  /** Waits until no pass over the live scenarios runs on any node. */
  static void idle(WebClient http, List<Integer> ports) throws Exception {
    long until = System.nanoTime() + PASS_LIMIT_MS * 1_000_000;
    while (sum(metrics(http, ports, "gpurent_ranking_live_running"), new double[ports.size()]) > 0 && System.nanoTime() < until) {
      Thread.sleep(20);
    }
  }

  /** Whether every node ended a pass since {@code passes0} (its pass count) and none runs one now. */
  static boolean passed(WebClient http, List<Integer> ports, double[] passes0) throws Exception {
    for (int i = 0; i < ports.size(); i++) {
      String text = scrape(http, ports.get(i));
      if (value(text, "gpurent_ranking_live_pass_seconds_count") <= passes0[i] || value(text, "gpurent_ranking_live_running") > 0) {
        return false;
      }
    }
    return true;
  }

  /** One metric of every node, in the order of {@code ports}. */
  static double[] metrics(WebClient http, List<Integer> ports, String name) throws Exception {
    double[] v = new double[ports.size()];
    for (int i = 0; i < v.length; i++) v[i] = metric(http, ports.get(i), name);
    return v;
  }

  /** GET /metrics of every node, in the order of {@code ports}. */
  static String[] scrapes(WebClient http, List<Integer> ports) throws Exception {
    String[] out = new String[ports.size()];
    for (int i = 0; i < out.length; i++) out[i] = scrape(http, ports.get(i));
    return out;
  }

  /** One metric of each scrape. */
  static double[] values(String[] scrapes, String name) {
    double[] v = new double[scrapes.length];
    for (int i = 0; i < v.length; i++) v[i] = value(scrapes[i], name);
    return v;
  }

  /** The nodes' values less their values before, summed. */
  static double sum(double[] now, double[] before) {
    double s = 0;
    for (int i = 0; i < now.length; i++) s += now[i] - before[i];
    return s;
  }

  /** A value from GET /metrics (Prometheus text), its series summed (e.g. every collector's GC pauses), 0 when absent. */
  static double metric(WebClient http, int port, String name) throws Exception {
    return value(scrape(http, port), name);
  }

  /** Scrapes of /metrics made so far: a change's allocation counts those made in its window. */
  static final java.util.concurrent.atomic.AtomicLong SCRAPES = new java.util.concurrent.atomic.AtomicLong();

  /** What one scrape of the node allocates in this JVM at rest: the median of 5. */
  static double scrapeMb(WebClient http, int port) throws Exception {
    List<Double> mb = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long a = allocatedBytes();
      scrape(http, port);
      mb.add((allocatedBytes() - a) / 1e6);
    }
    return median(mb);
  }

  /** GET /metrics of one node (Prometheus text). */
  static String scrape(WebClient http, int port) throws Exception {
    SCRAPES.incrementAndGet();
    try {
      return await(http.get(port, "127.0.0.1", "/metrics").send()).bodyAsString();
    } catch (java.util.concurrent.ExecutionException closed) {
      // a kept-alive connection the server closed as idle (http.idleTimeout) while this reused it: once more, on a new one
      return await(http.get(port, "127.0.0.1", "/metrics").send()).bodyAsString();
    }
  }

  /** A value of a scrape, its series summed (e.g. every collector's GC pauses), 0 when absent. */
  static double value(String text, String name) {
    double sum = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }


  static double median(List<Double> v) {
    double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length == 0 ? Double.NaN : a[a.length / 2];
  }
}
