package dev.gpurent.service.ranking;

import dev.gpurent.cost.LiveRanking;
import dev.gpurent.quote.QuoteBook;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.AsyncResult;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToIntBiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Passes over the live scenarios this node keeps ranked, one per new book: in chunks of
 * {@value #CHUNK} on as many workers as there are cores, one pass at a time (a book that arrives
 * during a pass is taken up by the next one), each chunk's changed rankings published as it is
 * done ({@link ScenarioRanker}). The scenarios a dashboard of this node follows go first, and of
 * those first the ones showing a plan of a vendor that changed, on every core; the rest on one
 * core fewer, which leaves a core to the event loops writing the followed ones' rankings to the
 * dashboards (and to GC) meanwhile. Used on the RankingVerticle's event loop only.
 */
final class LivePass {

  private static final Logger LOG = Logger.getLogger(LivePass.class.getName());

  /** Live scenarios one worker re-ranks in a row before the event loop publishes what changed. */
  static final int CHUNK = 32;

  private final LiveScenarios scenarios;
  private final ScenarioRanker ranker;
  private final Ownership ownership;
  private final Supplier<QuoteBook> book;
  private final Timer passTime;
  private final Timer followedTime;
  private final Counter passCpu;
  /** 1 while a pass runs (a gauge: read from the metrics scrape). */
  private final AtomicInteger running = new AtomicInteger();
  private boolean pending;
  private Vertx vertx;

  LivePass(LiveScenarios scenarios, ScenarioRanker ranker, Ownership ownership, Supplier<QuoteBook> book, MeterRegistry registry) {
    this.scenarios = scenarios;
    this.book = book;
    this.ranker = ranker;
    this.ownership = ownership;
    this.passTime = Timer.builder("gpurent.ranking.live.pass").description("one pass over the live scenarios after a price change")
        .register(registry);
    this.followedTime = Timer.builder("gpurent.ranking.live.followed")
        .description("from a pass's start until the rankings of every scenario a dashboard here follows are published").register(registry);
    this.passCpu = Counter.builder("gpurent.ranking.live.cpu").baseUnit("seconds")
        .description("CPU time the workers spent re-ranking live scenarios").register(registry);
    Gauge.builder("gpurent.ranking.live.running", running, AtomicInteger::get)
        .description("passes over the live scenarios under way (0 or 1)").register(registry);
  }

  void start(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Starts a pass over the live scenarios this node keeps ranked on the current book, or, with one under way, another once it ends. */
  void run() {
    QuoteBook b = book.get();
    if (b == null) return;
    if (running.get() > 0) {
      pending = true;
      return;
    }
    running.set(1);
    new Pass(b).begin();
  }

  /**
   * The scenarios of {@code all} in the order a pass ranks them: by {@code priority}, highest first
   * (each chunk is published as it is done, so what dashboards follow reaches the screens before
   * the rest is ranked), each group in the order of {@code all}.
   */
  static <T> List<Map.Entry<String, T>> passOrder(Map<String, T> all, ToIntBiFunction<String, T> priority) {
    TreeMap<Integer, List<Map.Entry<String, T>>> groups = new TreeMap<>(Comparator.reverseOrder());
    all.forEach((id, t) -> groups.computeIfAbsent(priority.applyAsInt(id, t), k -> new ArrayList<>()).add(Map.entry(id, t)));
    List<Map.Entry<String, T>> order = new ArrayList<>(all.size());
    groups.values().forEach(order::addAll);
    return order;
  }

  /** One pass on one book: what it has to rank, how far it got, and the chunks on the workers. */
  private final class Pass {
    final QuoteBook book;
    final long started = System.nanoTime();
    final List<Map.Entry<String, LiveScenario>> todo = new ArrayList<>();
    final Map<String, LiveScenario> followedOnes = new LinkedHashMap<>();
    final int parallel = Math.max(1, Runtime.getRuntime().availableProcessors());
    final int background = Math.max(1, parallel - 1);
    int followed;
    int followedLeft;
    int next;
    int chunks;
    /** Whether every scenario to rank is in {@link #todo}: the followed ones go to the workers before the rest is listed. */
    boolean listed;

    Pass(QuoteBook book) {
      this.book = book;
    }

    void begin() {
      // The followed scenarios, found among those few rather than all the live ones, those showing a
      // plan of a vendor that changed first: their chunks are on the workers before the walk over all.
      for (String id : ownership.followed()) {
        LiveScenario r = scenarios.get(id);
        if (r != null && !r.first) followedOnes.put(id, r);
      }
      todo.addAll(passOrder(followedOnes, (id, r) -> LiveRanking.mayMove(r.rankedOn, book, v -> r.shown != null && r.shown.hasPlan(v)) ? 1 : 0));
      followed = followedLeft = todo.size();
      launch();
      ranker.dropUnkept();
      // the rest it keeps ranked, in registration order (a scenario followed since the list above was made comes here)
      scenarios.all().forEach((id, r) -> {
        if (!r.first && !followedOnes.containsKey(id) && ownership.kept(id)) todo.add(Map.entry(id, r));
      });
      listed = true;
      launch();
    }

    /** Hands chunks to the workers up to the pass's parallelism; ends the pass once the last one is back. */
    void launch() {
      while (chunks < (next < followed ? parallel : background) && next < todo.size()) {
        int from = next;
        // a copy: the rest is added to todo after the followed chunks have started
        List<Map.Entry<String, LiveScenario>> chunk = List.copyOf(todo.subList(from, Math.min(todo.size(), from + CHUNK)));
        next += chunk.size();
        chunks++;
        vertx.executeBlocking(() -> rankChunk(chunk), false).onComplete(ar -> done(from, chunk.size(), ar));
      }
      if (listed && chunks == 0 && next >= todo.size()) end();
    }

    private void done(int from, int size, AsyncResult<List<ScenarioRanker.Outcome>> ar) {
      chunks--;
      if (ar.succeeded()) ranker.applyAll(ar.result());
      else LOG.log(Level.WARNING, "re-ranking live scenarios failed", ar.cause());
      int ofFollowed = Math.max(0, Math.min(followed, from + size) - from);
      if (ofFollowed > 0 && (followedLeft -= ofFollowed) == 0) followedTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
      launch();
    }

    private void end() {
      passTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
      running.set(0);
      if (pending || LivePass.this.book.get() != book) {
        pending = false;
        run();
      }
    }

    /** Re-ranks a chunk on a worker; the outcomes to publish, with the CPU time counted. */
    private List<ScenarioRanker.Outcome> rankChunk(List<Map.Entry<String, LiveScenario>> chunk) {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpu = threads.getCurrentThreadCpuTime();
      List<ScenarioRanker.Outcome> out = new ArrayList<>();
      for (Map.Entry<String, LiveScenario> e : chunk) {
        ScenarioRanker.Outcome o = ranker.rankOne(e.getKey(), e.getValue(), book);
        if (o != null) out.add(o);
      }
      passCpu.increment((threads.getCurrentThreadCpuTime() - cpu) / 1e9);
      return out;
    }
  }
}
