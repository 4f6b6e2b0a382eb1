package dev.gpurent.bench;

import static dev.gpurent.bench.BenchSupport.await;
import static dev.gpurent.bench.BenchSupport.fmt;
import static dev.gpurent.bench.BenchSupport.ms;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * HTTP load on loopback: a Vert.x JSON hello-world (the baseline) against gpurent started by
 * Bootstrap with fake vendors (guide-reference, RunPod and Vast recorded payloads).
 *
 * <p>For each target: the maximum throughput with {@code connections} requests in flight (closed
 * loop, after a warm-up), then an open-loop run at half the BASELINE's maximum rate, requests
 * scheduled at fixed intervals and each latency measured from its intended send time (corrected
 * for coordinated omission: a stalled server is charged for the requests it kept waiting). Prints
 * a table and the targets. The servers run in a second JVM (BenchServers), on the same 2 cores.
 *
 * <p>System properties: bench.warmup (s, 5), bench.measure (s, 10), bench.open (s, 10, after bench.openWarmup s
 * at the same rate whose latencies are not recorded, 2), bench.openRuns (turns the baseline and the cached
 * ranking take at half the baseline's rate, each judged on its median run, 5), bench.fork (true: the servers
 * run in a JVM of their own, started and stopped by this one), bench.serverJvm (that JVM's options, e.g. "-Xmx2g"),
 * bench.connections (64), bench.clientLoops (client event loops, 1: with the servers' one busy event loop that is one
 * busy thread per core; a second client loop measured worse, its wake-ups costing more than it spreads), bench.prewarm (s per target before any
 * measurement, 3: the JIT warms the client and Netty on whichever target runs first otherwise),
 * bench.native (true: the driver reads on native epoll where it loads, a third less CPU per 11 KB answer, CPU
 * it would take from the servers; false: NIO; the servers stay on NIO either way, as gpurent ships),
 * bench.gzip (true: requests say {@code Accept-Encoding: gzip, deflate} as browsers do; false: identity).
 *
 * <p>Order: every target pre-warmed; closed loop on the baseline, the cached ranking, POST /api/rank
 * and the baseline again (the higher baseline is the reference: conservative for the ratio); open
 * loop at half that maximum, the baseline and the cached ranking taking turns bench.openRuns times,
 * then POST /api/rank once; POST /api/rank again at half of its own maximum, and the baseline
 * and the cached ranking at a quarter of the baseline's maximum (for context). With
 * {@code -Dbench.sweep=2000,5000,10000} it runs instead an open-loop sweep of every target at those rates
 * ({@code -Dbench.sweepTargets=0,1}: the baseline and the cached ranking only), with each JVM's CPU time per
 * request.
 */
public final class HttpLoad {

  static final int WARMUP = Integer.getInteger("bench.warmup", 5);
  static final int MEASURE = Integer.getInteger("bench.measure", 10);
  static final int OPEN = Integer.getInteger("bench.open", 10);
  static final int OPEN_WARMUP = Integer.getInteger("bench.openWarmup", 2);
  static final int OPEN_RUNS = Integer.getInteger("bench.openRuns", 5);
  static final boolean FORK = Boolean.parseBoolean(System.getProperty("bench.fork", "true"));
  static final String SERVER_JVM = System.getProperty("bench.serverJvm", "");
  static final int CONNECTIONS = Integer.getInteger("bench.connections", 64);
  static final int CLIENT_LOOPS = Integer.getInteger("bench.clientLoops", 1);
  static final int PREWARM = Integer.getInteger("bench.prewarm", 3);
  static final boolean TIMELINE = Boolean.getBoolean("bench.timeline");
  static final boolean NATIVE = Boolean.parseBoolean(System.getProperty("bench.native", "true"));
  static final boolean GZIP = Boolean.parseBoolean(System.getProperty("bench.gzip", "true"));
  /** Open loop: requests due while this many already wait for a connection are dropped (counted as errors). */
  static final int MAX_OUTSTANDING = 10_000;
  /** Open loop: how long outstanding requests may still finish after the last one was scheduled. */
  static final long DRAIN_MS = 5_000;
  static final long REQUEST_TIMEOUT_MS = 5_000;
  /** Open loop: requests due within this of each other go out together (a timer per request would cost the driver more than the request). */
  static final long SEND_SLACK_NANOS = 20_000;

  /** Client loop {@code l}'s share of the connections. */
  static int connectionsOf(int l) {
    return CONNECTIONS / CLIENT_LOOPS + (l < CONNECTIONS % CLIENT_LOOPS ? 1 : 0);
  }

  /** One thing to load: a method, a path and a body. */
  record Target(String name, HttpMethod method, int port, String uri, byte[] body) {
    RequestOptions options() {
      RequestOptions o = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port).setURI(uri)
          .setIdleTimeout(REQUEST_TIMEOUT_MS);
      if (body != null) o.putHeader("content-type", "application/json");
      // as a browser asks: gpurent answers cached rankings gzipped (the hello-world answers as it is)
      if (GZIP) o.putHeader("accept-encoding", "gzip, deflate");
      return o;
    }
  }

  /** What one run measured. */
  static final class Result {
    final Histogram latency = BenchSupport.micros();
    long ok;
    long errors;
    long dropped;
    long unfinished;
    double seconds;
    final Map<String, Integer> errorKinds = new TreeMap<>();
    /** With bench.timeline: the worst latency (us) of the requests due in each 100 ms, for finding stalls. */
    final Map<Long, Long> worstBySlice = new TreeMap<>();
    /** JVM uptime (ms) when the measured part began: the slices line up with -Xlog:gc::uptime. */
    long measuredFromUptimeMs;
    /** System.nanoTime() when the measured part began: CLOCK_MONOTONIC, as perf record -k CLOCK_MONOTONIC stamps its samples. */
    long measuredFromNanos;

    void stall(long slice, long micros) {
      worstBySlice.merge(slice, micros, Math::max);
    }

    double rps() {
      return ok / seconds;
    }

    long allErrors() {
      return errors + dropped + unfinished;
    }

    void error(String kind) {
      errors++;
      errorKinds.merge(kind, 1, Integer::sum);
    }

    void add(Result o) {
      latency.add(o.latency);
      ok += o.ok;
      errors += o.errors;
      dropped += o.dropped;
      unfinished += o.unfinished;
      o.errorKinds.forEach((k, v) -> errorKinds.merge(k, v, Integer::sum));
      o.worstBySlice.forEach(this::stall);
      measuredFromUptimeMs = Math.max(measuredFromUptimeMs, o.measuredFromUptimeMs);
      measuredFromNanos = Math.max(measuredFromNanos, o.measuredFromNanos);
    }
  }

  public static void main(String[] args) throws Exception {
    long started = System.nanoTime();
    System.out.println("== HttpLoad: " + CONNECTIONS + " connections, closed loop " + WARMUP + " s warm-up + " + MEASURE
        + " s, open loop " + OPEN + " s; client event loops " + CLIENT_LOOPS + "; Accept-Encoding: " + (GZIP ? "gzip, deflate" : "none"));
    System.out.println("load average at start: " + BenchSupport.loadAverage());

    // The servers run in their own JVM unless -Dbench.fork=false: the driver's garbage (it reads
    // tens of thousands of answers a second) and its JIT then pause only the driver.
    BenchServers servers = FORK
        ? BenchServers.fork(SERVER_JVM.isBlank() ? List.of() : List.of(SERVER_JVM.trim().split("\\s+")))
        : BenchServers.start();
    System.out.println("servers: " + (FORK ? "a JVM of their own" + (SERVER_JVM.isBlank() ? "" : " (" + SERVER_JVM.trim() + ")")
        : "this JVM") + "; gpurent on " + servers.gpurentPort + ", baseline on " + servers.helloPort);

    Vertx clientVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(CLIENT_LOOPS).setPreferNativeTransport(NATIVE));
    // One client per event loop, used only from that loop's context: its connections live on the
    // thread that sends on them, so no request or response hops between client threads.
    Loops loops = new Loops(clientVertx);
    System.out.println("driver transport: " + (clientVertx.isNativeTransportEnabled() ? "native epoll"
        : "NIO" + (NATIVE ? " (native epoll did not load: " + clientVertx.unavailableNativeTransportCause() + ")" : "")));
    try {
      int port = servers.gpurentPort;
      // first fetch of every vendor done, then one live scenario
      var refreshed = await(loops.first(c -> send(c, new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
          .setURI("/api/admin/refresh").putHeader("Authorization", "Bearer " + BenchSupport.TOKEN), null)));
      System.out.println("refresh: " + refreshed.body);
      var registered = await(loops.first(c -> send(c, new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
          .setURI("/api/scenarios").putHeader("content-type", "application/json"),
          BenchSupport.scenario("team-medium.yaml").toBuffer().getBytes())));
      if (registered.status != 201) throw new IllegalStateException("register: " + registered.status + " " + registered.body);
      String id = new JsonObject(registered.body).getString("id");

      Target base = new Target("baseline GET /hello", HttpMethod.GET, servers.helloPort, "/hello", null);
      Target cached = new Target("GET /api/scenarios/{id}/ranking", HttpMethod.GET, port, "/api/scenarios/" + id + "/ranking", null);
      Target rank = new Target("POST /api/rank (guide template)", HttpMethod.POST, port, "/api/rank",
          BenchSupport.scenario("guide-template.yaml").encode().getBytes(StandardCharsets.UTF_8));
      List<Target> targets = List.of(base, cached, rank);
      for (Target t : targets) {
        var r = await(loops.first(c -> send(c, t.options(), t.body())));
        if (r.status != 200) throw new IllegalStateException(t.name() + ": " + r.status + " " + r.body);
        System.out.println(fmt("  %-34s 200, %,d bytes%s", t.name(), r.bytes, r.encoding == null ? "" : " " + r.encoding));
      }

      for (Target t : targets) closedLoop(loops, t, 0, PREWARM);
      // The open loop warms up on both GETs too: its first run would otherwise pay for the JIT. With 3 s
      // of closed loop only, gpurent's JVM was still replacing C1 code of the cached path with C2 code
      // (-Xlog:jit+compilation) in the first open-loop turn: a 600 ms stall and 38,000 drops.
      for (Target t : List.of(base, cached)) openLoop(loops, t, 20_000, 0, PREWARM);
      String sweep = System.getProperty("bench.sweep");
      if (sweep != null) {
        // latency against offered load, open loop, every target at each rate
        System.out.println(fmt("Open-loop sweep, %d s per rate; latency from the intended send time", OPEN));
        printOpenHeader();
        // -Dbench.sweepTargets=1 (0 baseline, 1 cached ranking, 2 POST /api/rank): only those, e.g. to profile one path
        List<String> only = List.of(System.getProperty("bench.sweepTargets", "0,1,2").split(","));
        for (Target t : targets) {
          if (!only.contains(Integer.toString(targets.indexOf(t)))) continue;
          for (String given : sweep.split(",")) {
            double rate = Double.parseDouble(given.trim());
            long serverCpu = cpuNanos(servers.process), driverCpu = cpuNanos(java.util.Optional.of(ProcessHandle.current()));
            Result r = openLoop(loops, t, rate);
            printOpen(fmt("%s @ %,.0f/s", t.name(), rate), r);
            // CPU per request over the whole turn (warm-up included, at the same rate)
            double sent = rate * (OPEN_WARMUP + OPEN);
            System.out.println(fmt("  CPU per request: servers' JVM %s us, driver's JVM %.1f us (of 2 cores: %.0f us at this rate)",
                servers.process.isEmpty() ? "n/a" : fmt("%.1f", (cpuNanos(servers.process) - serverCpu) / 1e3 / sent),
                (cpuNanos(java.util.Optional.of(ProcessHandle.current())) - driverCpu) / 1e3 / sent, 2e6 / rate));
          }
        }
        loops.clients.forEach(HttpClient::close);
        servers.close();
        System.exit(0);
      }
      List<Result> closed = new ArrayList<>();
      for (Target t : List.of(base, cached, rank, base)) {
        Result r = closedLoop(loops, t, WARMUP, MEASURE);
        closed.add(r);
        System.out.println(fmt("  closed %-34s %,10.0f req/s  p50 %s ms  p99 %s ms  errors %d   (load %s)", t.name(), r.rps(),
            ms(r.latency.getValueAtPercentile(50)), ms(r.latency.getValueAtPercentile(99)), r.allErrors(), BenchSupport.loadAverage()));
      }
      Result baseClosed = closed.get(0).rps() >= closed.get(3).rps() ? closed.get(0) : closed.get(3);
      double baseMax = baseClosed.rps();
      double rate = baseMax / 2;
      // The baseline and the cached ranking take turns, OPEN_RUNS times each: one stall of this shared
      // JVM in a 10 s run moves its p99, so each is judged on its median run, with every run shown.
      List<List<Result>> runs = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
      for (int run = 0; run < OPEN_RUNS; run++) {
        for (Target t : List.of(base, cached)) {
          Result r = openLoop(loops, t, rate);
          runs.get(targets.indexOf(t)).add(r);
          System.out.println(fmt("  open   %-34s @ %,.0f req/s: p99 %s ms, errors %d   (run %d, load %s)", t.name(), rate,
              ms(r.latency.getValueAtPercentile(99)), r.allErrors(), run + 1, BenchSupport.loadAverage()));
        }
      }
      // POST /api/rank once: at this rate it only falls behind
      Result rankHalf = openLoop(loops, rank, rate);
      runs.get(2).add(rankHalf);
      System.out.println(fmt("  open   %-34s @ %,.0f req/s: p99 %s ms, errors %d   (load %s)", rank.name(), rate,
          ms(rankHalf.latency.getValueAtPercentile(99)), rankHalf.allErrors(), BenchSupport.loadAverage()));
      List<Result> open = runs.stream().map(HttpLoad::medianByP99).toList();
      // Informative: POST /api/rank at half of its own maximum, where it is not overloaded; the
      // baseline and the cached ranking at a quarter of the baseline's maximum.
      double rankRate = closed.get(2).rps() / 2;
      Result rankOwn = openLoop(loops, rank, rankRate);
      System.out.println(fmt("  open   %-34s @ %,.0f req/s: p99 %s ms, errors %d", rank.name(), rankRate,
          ms(rankOwn.latency.getValueAtPercentile(99)), rankOwn.allErrors()));
      double quarter = baseMax / 4;
      Result baseQuarter = openLoop(loops, base, quarter);
      Result cachedQuarter = openLoop(loops, cached, quarter);

      System.out.println();
      System.out.println("Maximum throughput, " + CONNECTIONS + " requests in flight (closed loop, " + MEASURE + " s after "
          + WARMUP + " s warm-up); latency = service time");
      System.out.println(fmt("%-34s %12s %9s %9s %9s %9s %7s", "target", "req/s", "x base", "p50 ms", "p99 ms", "max ms", "errors"));
      String[] names = {base.name() + " (1st)", cached.name(), rank.name(), base.name() + " (2nd)"};
      for (int i = 0; i < closed.size(); i++) {
        Result r = closed.get(i);
        System.out.println(fmt("%-34s %,12.0f %9.3f %9s %9s %9s %7d", names[i], r.rps(), r.rps() / baseMax,
            ms(r.latency.getValueAtPercentile(50)), ms(r.latency.getValueAtPercentile(99)), ms(r.latency.getMaxValue()), r.allErrors()));
      }
      System.out.println();
      System.out.println(fmt("Open loop at %,.0f req/s (half the baseline's maximum), %d s after %d s unrecorded; latency from the INTENDED send time",
          rate, OPEN, OPEN_WARMUP));
      printOpenHeader();
      for (int i = 0; i < targets.size(); i++) {
        List<Result> all = runs.get(i);
        for (int k = 0; k < all.size(); k++) {
          String run = all.size() == 1 ? "" : fmt(" (run %d%s)", k + 1, all.get(k) == open.get(i) ? ", median" : "");
          printOpen(targets.get(i).name() + run, all.get(k));
        }
      }
      printOpen(fmt("%s @ %,.0f/s (half its own max)", "POST /api/rank", rankRate), rankOwn);
      printOpen(fmt("baseline @ %,.0f/s (a quarter of its max)", quarter), baseQuarter);
      printOpen(fmt("cached ranking @ %,.0f/s (a quarter)", quarter), cachedQuarter);
      for (int i = 0; i < targets.size(); i++) {
        for (Result r : runs.get(i)) {
          if (!r.errorKinds.isEmpty()) System.out.println("  errors of " + targets.get(i).name() + ": " + r.errorKinds);
        }
      }
      if (!rankOwn.errorKinds.isEmpty()) System.out.println("  errors of POST /api/rank at its own half: " + rankOwn.errorKinds);

      System.out.println();
      System.out.println("Targets");
      double ratio = closed.get(1).rps() / baseMax;
      System.out.println(fmt("  %s cached ranking throughput >= 0.5x baseline: %.3fx (margin %+.3fx)", BenchSupport.verdict(ratio >= 0.5),
          ratio, ratio - 0.5));
      double limitUs = 2 * open.get(0).latency.getValueAtPercentile(99) + 1000;
      for (int i = 1; i < targets.size(); i++) {
        long p99 = open.get(i).latency.getValueAtPercentile(99);
        System.out.println(fmt("  %s %s p99 at half the baseline's rate (median run) <= 2x baseline p99 + 1 ms = %s ms: %s ms (margin %+.2f ms)",
            BenchSupport.verdict(p99 <= limitUs), targets.get(i).name(), ms(limitUs), ms(p99), (limitUs - p99) / 1000.0));
      }
      double quarterLimit = 2 * baseQuarter.latency.getValueAtPercentile(99) + 1000;
      long quarterP99 = cachedQuarter.latency.getValueAtPercentile(99);
      System.out.println(fmt("  (info) cached ranking at a quarter of the baseline's maximum: p99 %s ms against 2x baseline p99 + 1 ms = %s ms, "
          + "errors %d", ms(quarterP99), ms(quarterLimit), cachedQuarter.allErrors()));
      for (int i = 0; i < targets.size(); i++) {
        long e = closed.get(i).allErrors() + runs.get(i).stream().mapToLong(Result::allErrors).sum()
            + (i == 0 ? closed.get(3).allErrors() : 0);
        System.out.println(fmt("  %s %s zero errors: %d", BenchSupport.verdict(e == 0), targets.get(i).name(), e));
      }
      System.out.println(fmt("load average at end: %s; total %.0f s", BenchSupport.loadAverage(), (System.nanoTime() - started) / 1e9));
    } finally {
      loops.clients.forEach(HttpClient::close);
      clientVertx.close();
      servers.close();
    }
    System.exit(0);
  }

  /** A process's CPU time so far, user and system; 0 when unknown. */
  static long cpuNanos(java.util.Optional<ProcessHandle> p) {
    return p.flatMap(h -> h.info().totalCpuDuration()).map(java.time.Duration::toNanos).orElse(0L);
  }

  /** The run whose p99 is the median of the runs' (the lower middle one of an even count). */
  static Result medianByP99(List<Result> runs) {
    List<Result> sorted = new ArrayList<>(runs);
    sorted.sort(java.util.Comparator.comparingLong(r -> r.latency.getValueAtPercentile(99)));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The client's event loops: one context and one HTTP client (with its share of the connections) per loop. */
  static final class Loops {
    final List<Context> contexts = new ArrayList<>();
    final List<HttpClient> clients = new ArrayList<>();

    Loops(Vertx vertx) {
      // Each context is pinned to an event loop of its own. getOrCreateContext() from this (non-Vert.x)
      // thread returns one sticky context, and the group's round robin is shared with the clients'
      // own contexts: either way both clients ended up on one thread.
      List<io.netty.channel.EventLoop> eventLoops = new ArrayList<>();
      ((io.vertx.core.internal.VertxInternal) vertx).nettyEventLoopGroup().forEach(e -> eventLoops.add((io.netty.channel.EventLoop) e));
      for (int l = 0; l < CLIENT_LOOPS; l++) {
        int share = connectionsOf(l);
        contexts.add(((io.vertx.core.internal.VertxInternal) vertx).contextBuilder().withEventLoop(eventLoops.get(l)).build());
        clients.add(vertx.httpClientBuilder()
            .with(new HttpClientOptions().setKeepAlive(true))
            .with(new PoolOptions().setHttp1MaxSize(share).setMaxWaitQueueSize(-1))
            .build());
      }
    }

    /** Runs {@code op} with the first loop's client, on that loop. */
    <T> Future<T> first(java.util.function.Function<HttpClient, Future<T>> op) {
      Promise<T> p = Promise.promise();
      contexts.get(0).runOnContext(v -> op.apply(clients.get(0)).onComplete(p));
      return p.future();
    }
  }

  record Reply(int status, String body, int bytes, String encoding) {}

  static Future<Reply> send(HttpClient client, RequestOptions options, byte[] body) {
    return client.request(options)
        .compose(req -> body == null ? req.send() : req.send(Buffer.buffer(body)))
        .compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), b.toString(), b.length(),
            resp.getHeader("content-encoding"))));
  }

  /**
   * A request whose answer is read to its end but not kept, and checked for its status: the
   * driver should not allocate a copy of every body it reads (its GC pauses would be charged to
   * whichever target sends the larger answers).
   */
  static Future<Integer> hit(HttpClient client, Target t, RequestOptions options) {
    return client.request(options)
        .compose(req -> t.body() == null ? req.send() : req.send(Buffer.buffer(t.body())))
        .compose(resp -> {
          resp.handler(chunk -> {});
          return resp.end().map(v -> resp.statusCode());
        });
  }

  /** Keeps {@code CONNECTIONS} requests in flight, each sent as the previous one completes; measures after the warm-up. */
  static Result closedLoop(Loops loops, Target t, int warmup, int measure) throws Exception {
    long start = System.nanoTime();
    long measureFrom = start + TimeUnit.SECONDS.toNanos(warmup);
    long end = measureFrom + TimeUnit.SECONDS.toNanos(measure);
    List<Future<Result>> parts = new ArrayList<>();
    for (int l = 0; l < CLIENT_LOOPS; l++) {
      int workers = connectionsOf(l);
      Context ctx = loops.contexts.get(l);
      HttpClient client = loops.clients.get(l);
      Promise<Result> done = Promise.promise();
      ctx.runOnContext(v -> {
        Result r = new Result();
        RequestOptions options = t.options();
        int[] live = {workers};
        for (int w = 0; w < workers; w++) {
          new Object() {
            void next() {
              long sent = System.nanoTime();
              if (sent >= end) {
                if (--live[0] == 0) done.complete(r);
                return;
              }
              hit(client, t, options).onComplete(ar -> {
                long now = System.nanoTime();
                if (sent >= measureFrom && now <= end) {
                  if (ar.succeeded() && ar.result() == 200) {
                    r.ok++;
                    r.latency.recordValue(Math.max(0, (now - sent) / 1000));
                  } else {
                    r.error(ar.succeeded() ? "HTTP " + ar.result() : ar.cause().getClass().getSimpleName());
                  }
                }
                next();
              });
            }
          }.next();
        }
      });
      parts.add(done.future());
    }
    Result all = new Result();
    for (Future<Result> p : parts) all.add(await(p, warmup + measure + 30));
    all.seconds = measure;
    return all;
  }

  /**
   * Sends at a fixed rate whatever the server does; each latency runs from the intended send time.
   * Requests still outstanding {@link #DRAIN_MS} after the last was due are counted unfinished, and
   * recorded at their lower bound (their wait so far).
   */
  static Result openLoop(Loops loops, Target t, double rate) throws Exception {
    return openLoop(loops, t, rate, OPEN_WARMUP, OPEN);
  }

  /**
   * @param warmup seconds sent at the same rate before the measured {@code seconds}: their latency
   *               is not recorded (a switch of target can cost a short stall while each side's
   *               connections and code warm to the new answers), their errors are
   */
  static Result openLoop(Loops loops, Target t, double rate, int warmup, int seconds) throws Exception {
    double interval = 1e9 / (rate / CLIENT_LOOPS);
    List<Future<Result>> parts = new ArrayList<>();
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    long measureFrom = start + TimeUnit.SECONDS.toNanos(warmup);
    long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
    for (int l = 0; l < CLIENT_LOOPS; l++) {
      long offset = (long) (interval * l / CLIENT_LOOPS);
      Paced paced = new Paced((ContextInternal) loops.contexts.get(l), loops.clients.get(l), t, connectionsOf(l),
          i -> start + offset + (long) (i * interval), measureFrom, end);
      loops.contexts.get(l).runOnContext(v -> paced.run());
      parts.add(paced.done.future());
    }
    Result all = new Result();
    for (Future<Result> p : parts) all.add(await(p, warmup + seconds + DRAIN_MS / 1000 + 30));
    all.seconds = seconds;
    return all;
  }

  /**
   * One client loop's share of an open-loop run, used on that loop only. A request due while all
   * of the loop's connections are busy waits here as its intended send time (8 bytes), not as a
   * Vert.x request in the pool's wait queue (a few KB each): a backlog of thousands then costs the
   * driver nothing at its garbage collections, which would otherwise grow with the backlog, pause
   * longer and deepen it. It waits for a connection just the same, and its latency still runs from
   * its intended time.
   */
  static final class Paced {
    private static final long FREE = Long.MIN_VALUE;
    final Promise<Result> done = Promise.promise();
    private final ContextInternal context;
    private final HttpClient client;
    private final Target target;
    private final RequestOptions options;
    private final java.util.function.LongUnaryOperator intendedAt;
    private final long measureFrom;
    private final long end;
    private final Result r = new Result();
    /** Intended times of the requests waiting for a connection, oldest first (a ring). */
    private final long[] waiting = new long[MAX_OUTSTANDING];
    private int head;
    private int queued;
    /** Intended times of the requests on the wire, by slot ({@link #FREE} when none); free slots are on the stack below. */
    private final long[] inFlight;
    private final int[] freeSlots;
    private int free;
    private long next;
    private boolean finished;

    Paced(ContextInternal context, HttpClient client, Target target, int connections,
        java.util.function.LongUnaryOperator intendedAt, long measureFrom, long end) {
      this.context = context;
      this.client = client;
      this.target = target;
      this.options = target.options();
      this.intendedAt = intendedAt;
      this.measureFrom = measureFrom;
      this.end = end;
      inFlight = new long[connections];
      java.util.Arrays.fill(inFlight, FREE);
      freeSlots = new int[connections];
      for (int i = 0; i < connections; i++) freeSlots[free++] = i;
    }

    void run() {
      r.measuredFromNanos = measureFrom;
      r.measuredFromUptimeMs = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime()
          + TimeUnit.NANOSECONDS.toMillis(measureFrom - System.nanoTime());
      tick();
      // Netty timers, not Vert.x ones: a Vert.x timer's first firing loads DuplicatedContext, and that
      // class load deoptimized some 40 compiled Vert.x methods at once (-Xlog:jit+compilation), a
      // 300-500 ms stall at the start of the next turn
      later(end - System.nanoTime() + 1_000_000, () -> drain(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS)));
    }

    private void later(long nanos, Runnable task) {
      context.nettyEventLoop().schedule(() -> context.dispatch(v -> task.run()), Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /**
     * Sends every request now due, then sleeps until the next one on a Netty timer (nanosecond
     * precision on epoll): Vert.x timers tick in whole milliseconds, and each tick sent ~22
     * requests at once, up to 1 ms late, a burst that queued at the server.
     */
    private void tick() {
      long now = System.nanoTime();
      while (true) {
        long intended = intendedAt.applyAsLong(next);
        if (intended > now || intended >= end) break;
        next++;
        if (free > 0) send(intended);
        else if (queued < waiting.length) waiting[(head + queued++) % waiting.length] = intended;
        else r.dropped++;
      }
      long at = intendedAt.applyAsLong(next);
      if (at < end) later(Math.max(at - System.nanoTime(), SEND_SLACK_NANOS), this::tick);
    }

    private void send(long intended) {
      int slot = freeSlots[--free];
      inFlight[slot] = intended;
      hit(client, target, options).onComplete(ar -> {
        if (finished) return;  // already counted unfinished
        long at = System.nanoTime();
        inFlight[slot] = FREE;
        freeSlots[free++] = slot;
        boolean ok = ar.succeeded() && ar.result() == 200;
        if (!ok) r.error(ar.succeeded() ? "HTTP " + ar.result() : ar.cause().getClass().getSimpleName());
        if (intended >= measureFrom) {
          r.latency.recordValue(Math.max(0, (at - intended) / 1000));
          if (TIMELINE) r.stall((intended - measureFrom) / 100_000_000, (at - intended) / 1000);
          if (ok) r.ok++;
        }
        if (queued > 0) {
          long oldest = waiting[head];
          head = (head + 1) % waiting.length;
          queued--;
          // from the loop's own context, as the tick sends: not from the answer's
          context.dispatch(v -> send(oldest));
        }
      });
    }

    /** After the last request was due: waits up to DRAIN_MS for the rest, then counts what is left unfinished. */
    private void drain(long until) {
      long now = System.nanoTime();
      boolean idle = queued == 0 && free == inFlight.length;
      if (!idle && now < until) {
        later(TimeUnit.MILLISECONDS.toNanos(10), () -> drain(until));
        return;
      }
      finished = true;
      for (long intended : inFlight) if (intended != FREE) unfinished(now, intended);
      for (int i = 0; i < queued; i++) unfinished(now, waiting[(head + i) % waiting.length]);
      done.complete(r);
    }

    /** Recorded at its lower bound, its wait so far. */
    private void unfinished(long now, long intended) {
      r.unfinished++;
      r.latency.recordValue(Math.min(r.latency.getHighestTrackableValue(), (now - intended) / 1000));
    }
  }

  static void printOpenHeader() {
    System.out.println(fmt("%-44s %9s %9s %9s %9s %9s %9s %7s %8s %10s", "target", "sent", "ok", "p50 ms", "p99 ms", "p99.9 ms",
        "max ms", "errors", "dropped", "unfinished"));
  }

  static void printOpen(String name, Result r) {
    if (TIMELINE) {
      StringBuilder sb = new StringBuilder(fmt("  100-ms slices (from JVM uptime %.3fs, monotonic clock %.3fs) whose worst request took over 5 ms:",
          r.measuredFromUptimeMs / 1000.0, r.measuredFromNanos / 1e9));
      r.worstBySlice.forEach((slice, us) -> {
        if (us > 5000) sb.append(fmt(" %.1fs:%.0fms", slice / 10.0, us / 1000.0));
      });
      System.out.println(sb);
    }
    long sent = r.ok + r.errors + r.unfinished;
    System.out.println(fmt("%-44s %,9d %,9d %9s %9s %9s %9s %7d %8d %10d", name, sent, r.ok, ms(r.latency.getValueAtPercentile(50)),
        ms(r.latency.getValueAtPercentile(99)), ms(r.latency.getValueAtPercentile(99.9)), ms(r.latency.getMaxValue()), r.errors,
        r.dropped, r.unfinished));
  }
}
