package dev.gpurent.service.ranking;

import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.RankingCsv;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.service.Failures;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.text.Lang;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One-off rankings ({@code POST /api/rank}) and their admission: at most
 * {@link RankingSettings#maxConcurrent()} run at once on workers and {@link RankingSettings#queue()}
 * wait; beyond that a request fails 503 at once. Each holds its weight of the memory budget while it
 * waits or runs. A waiting request whose client went away or that waited past the timeout is
 * dropped unstarted, and one cancelled while running is not encoded. Used on the ranking verticle's
 * event loop only.
 */
final class OneOffRankings {

  private final CostModel model;
  private final RankingSettings limits;
  private final RankingBudget budget;
  private final Timer rankingTime;
  private final ArrayDeque<Job> waiting = new ArrayDeque<>();
  private final Map<String, Job> byRequest = new HashMap<>();
  private final Set<String> cancelledEarly = new HashSet<>();
  private final AtomicInteger running = new AtomicInteger();
  private final java.util.function.Supplier<QuoteBook> current;
  private Vertx vertx;

  /** A one-off ranking asked for, waiting or running. */
  private static final class Job {
    final Message<JsonObject> msg;
    final Scenario scenario;
    /** json, csv or xlsx (a Buffer), and the language of the CSV's and the workbook's texts (JSON is rendered at the edge). */
    final String format;
    final Lang lang;
    final String request;
    final long deadline;
    /** Its share of the memory budget, held until it is answered or dropped. */
    final long weight;
    volatile boolean cancelled;
    boolean released;

    Job(Message<JsonObject> msg, Scenario scenario, String format, Lang lang, String request, long deadline, long weight) {
      this.msg = msg;
      this.scenario = scenario;
      this.format = format;
      this.lang = lang;
      this.request = request;
      this.deadline = deadline;
      this.weight = weight;
    }
  }

  OneOffRankings(CostModel model, RankingSettings limits, RankingBudget budget, Timer rankingTime, MeterRegistry registry,
                 java.util.function.Supplier<QuoteBook> current) {
    this.current = current;
    this.model = model;
    this.limits = limits;
    this.budget = budget;
    this.rankingTime = rankingTime;
    Gauge.builder("gpurent.ranking.running", running, AtomicInteger::get).description("one-off rankings being computed").register(registry);
    Gauge.builder("gpurent.ranking.waiting", waiting, ArrayDeque::size).description("one-off rankings waiting for a slot").register(registry);
  }

  /** The Vert.x whose workers rank: the verticle's, once it starts. */
  void on(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Whether {@code request}'s client left before the request arrived (its cancel overtook it on the bus): it is then dropped. */
  boolean cancelledEarly(String request) {
    return request != null && cancelledEarly.remove(request);
  }

  /**
   * Ranks {@code s} (checked already; {@code book} the current one, which sizes its budget) in {@code format} when a slot and the budget
   * allow it, queues it when only a slot is missing, or fails the message 503.
   */
  void admit(Message<JsonObject> msg, Scenario s, QuoteBook book, String format, Lang lang, String request) {
    if (running.get() >= limits.maxConcurrent() && waiting.size() >= limits.queue()) {
      Failures.fail(msg, 503, "busy: " + running.get() + " rankings under way and " + waiting.size()
          + " waiting; try again shortly");
      return;
    }
    long weight = RankingBudget.cells(s, book) * RankingBudget.ONE_OFF_BYTES_PER_CELL;
    Failures.Refused refused = budget.admitOneOff(weight);
    if (refused != null) {
      Failures.fail(msg, refused);
      return;
    }
    Job job = new Job(msg, s, format, lang, request, System.nanoTime() + limits.timeout().toNanos(), weight);
    if (running.get() < limits.maxConcurrent()) {
      run(job);
    } else {
      waiting.add(job);
      if (request != null) byRequest.put(request, job);
    }
  }

  /** A one-off ranking answered or dropped gives its weight back (once). */
  private void release(Job job) {
    if (job.released) return;
    job.released = true;
    budget.releaseOneOff(job.weight);
  }

  private void run(Job job) {
    running.incrementAndGet();
    if (job.request != null) byRequest.put(job.request, job);
    QuoteBook b = current.get();  // the book when it starts: a queued ranking uses the newest prices
    // Encoding a ranking takes longer than ranking it: both stay off the event loop, which also
    // answers the cached rankings. A job cancelled meanwhile is not encoded.
    vertx.executeBlocking(() -> {
      Ranking r = rankingTime.recordCallable(() -> model.rank(job.scenario, b));
      if (job.cancelled) return null;
      return switch (job.format) {
        case "csv" -> RankingCsv.render(r, 0, job.lang);
        case "xlsx" -> Buffer.buffer(RankingXlsx.render(r.toMap(), job.lang));
        default -> Json.encode(r.toMap());
      };
    }, false).onComplete(ar -> {
      running.decrementAndGet();
      release(job);
      if (job.request != null) byRequest.remove(job.request);
      if (ar.failed()) Failures.fail(job.msg, ar.cause());
      else if (ar.result() != null) job.msg.reply(ar.result());
      next();
    });
  }

  /** Starts waiting jobs while there are slots, dropping those whose client left or whose time ran out. */
  private void next() {
    while (running.get() < limits.maxConcurrent() && !waiting.isEmpty()) {
      Job job = waiting.poll();
      if (job.request != null) byRequest.remove(job.request);
      if (job.cancelled) {
        release(job);
        continue;
      }
      if (System.nanoTime() - job.deadline > 0) {
        release(job);
        Failures.fail(job.msg, 503, "busy: the ranking waited too long to start; try again shortly");
        continue;
      }
      run(job);
    }
  }

  /** The client of {@code request} went away: a waiting ranking is dropped, a running one not encoded. */
  void cancel(String request) {
    if (request == null) return;
    Job job = byRequest.remove(request);
    if (job == null) {
      // The cancel may overtake the request itself on the bus; keep a bounded memory of it.
      if (cancelledEarly.size() < 10_000) cancelledEarly.add(request);
      return;
    }
    job.cancelled = true;
    if (waiting.remove(job)) release(job);  // one running gives its weight back when it ends
  }
}
