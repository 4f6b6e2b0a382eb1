package dev.gpurent.service.ranking;

import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Ranking;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.Failures;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingsChanged;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.ArrayList;
import java.util.List;

/**
 * Ranks one live scenario at a time and tells this node's HTTP verticles and AlertVerticle
 * ({@link Addresses#RANKINGS_CHANGED}, local) of each ranking that changed, or of why it failed (so
 * that a failure is never mistaken for "no quotes yet"): on a worker, incrementally
 * ({@link LiveRanking}: only the vendors that changed are priced again, and a ranking none of whose
 * plans moved is known unchanged without encoding) or, with {@code ranking.incremental: false}, in
 * full (the baseline the incremental pass is measured against). A scenario this node does not keep
 * ranked ({@link Ownership}) is ranked when a reader asks for it and not published. The event-loop
 * half runs on the RankingVerticle's event loop only.
 */
final class ScenarioRanker implements LiveScenarios.Ranker {

  private static final Logger LOG = Logger.getLogger(ScenarioRanker.class.getName());

  private final CostModel model;
  private final RankingSettings limits;
  private final LiveScenarios scenarios;
  private final Ownership ownership;
  private final Supplier<QuoteBook> book;
  private final Timer rankingTime;
  private final Counter vendorsPriced;
  private Vertx vertx;
  /** Starts a pass on the current book (one that arrived while a first ranking ran). */
  private Runnable pass;

  /** What re-ranking one live scenario gave: a changed update to publish, or a failure. */
  record Outcome(String id, LiveScenario r, LiveRankingUpdate message, Throwable failure) {}

  ScenarioRanker(CostModel model, RankingSettings limits, LiveScenarios scenarios, Ownership ownership, Supplier<QuoteBook> book,
                 Timer rankingTime, MeterRegistry registry) {
    this.model = model;
    this.limits = limits;
    this.scenarios = scenarios;
    this.ownership = ownership;
    this.book = book;
    this.rankingTime = rankingTime;
    this.vendorsPriced = Counter.builder("gpurent.ranking.live.vendors")
        .description("vendors priced again for a live scenario (all of them in full mode)").register(registry);
  }

  void start(Vertx vertx, Runnable pass) {
    this.vertx = vertx;
    this.pass = pass;
  }

  /**
   * Completes once the scenario's first ranking (or "no quotes yet") is published, when this node
   * keeps it ranked (published before the registration is answered, so that the HTTP verticles have
   * it when the client asks); at once for one another node owns, which is ranked here when asked for.
   */
  @Override
  public Future<?> firstRanked(String id, LiveScenario r) {
    if (!ownership.kept(id)) return Future.succeededFuture();  // ranked here when it is asked for
    if (book.get() == null) {
      publish(id, r, LiveRankingUpdate.failure(id, 503, "no quotes yet: the first fetch is under way"));
      return Future.succeededFuture();
    }
    return rankFirst(id, r);
  }

  @Override
  public void deleted(String id) {
    publish(id, null, null);
  }

  /** Membership changed: the scenarios this node now owns and does not rank yet are ranked at once. */
  void rankNewlyOwned() {
    if (book.get() == null) return;
    scenarios.all().forEach((id, r) -> {
      if (!r.published && !r.first && ownership.owns(id)) rankFirst(id, r);
    });
  }

  /** The HTTP verticles listen (at start): each scenario this node keeps ranked is published, ranked first if it is not yet. */
  void republishKept() {
    scenarios.all().forEach((id, r) -> {
      if (!ownership.kept(id)) return;
      if (r.message != null) publish(id, r, r.message);
      else firstRanked(id, r);
    });
  }

  /**
   * A reader's question (REST, or a dashboard of this node following it from now on): the current
   * ranking, ranked first when this node does not keep it ranked, or kept it on an older book.
   */
  void answer(Message<JsonObject> msg, LiveScenario r) {
    String id = msg.body().getString("id");
    QuoteBook b = book.get();
    if (b == null) {
      Failures.fail(msg, 503, "no quotes yet: the first fetch is under way");
    } else if (r.message != null && (r.rankedOn == b || ownership.kept(id) && r.published)) {
      if (ownership.kept(id) && !r.published) publish(id, r, r.message);  // ranked for a reader before, followed here now
      msg.reply(r.message);
    } else if (r.failure != null && r.rankedOn == b) {
      Failures.fail(msg, 500, r.failure);
    } else {
      vertx.executeBlocking(() -> rankOne(id, r, b), false).onComplete(ar -> {
        if (scenarios.get(id) != r) {
          Failures.fail(msg, 404, "no live scenario '" + id + "'");
          return;
        }
        if (ar.succeeded() && ar.result() != null) apply(ar.result());
        if (r.failure != null) Failures.fail(msg, 500, r.failure);
        else msg.reply(r.message);
      });
    }
  }

  /** A new live scenario's first ranking; passes leave it out until it is in, then bring it up to the current book. */
  private Future<?> rankFirst(String id, LiveScenario r) {
    QuoteBook b = book.get();
    r.first = true;
    return vertx.executeBlocking(() -> rankOne(id, r, b), false).onComplete(ar -> {
      r.first = false;
      if (ar.succeeded() && ar.result() != null) apply(ar.result());
      if (book.get() != b && scenarios.get(id) == r) pass.run();
    });
  }

  /**
   * Ranks one live scenario on {@code b} (on a worker): null when what it shows did not change,
   * else its new update, or the failure.
   */
  Outcome rankOne(String id, LiveScenario r, QuoteBook b) {
    // One worker at a time per scenario: a first ranking, a pass, and a membership change that
    // hands this node the scenario can each start one, and its LiveRanking is not thread-safe.
    synchronized (r) {
      return rankOneAlone(id, r, b);
    }
  }

  private Outcome rankOneAlone(String id, LiveScenario r, QuoteBook b) {
    try {
      long started = System.nanoTime();
      Ranking ranking;
      boolean mayDiffer = true;
      if (limits.incremental()) {
        if (r.live == null) r.live = LiveRanking.of(model, r.scenario, b);
        else mayDiffer = r.live.update(b);
        ranking = r.live.ranking();
        vendorsPriced.increment(r.live.recomputedCount());
      } else {
        ranking = model.rank(r.scenario, b);
        vendorsPriced.increment(b.vendors().size());
      }
      rankingTime.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
      r.rankedOn = b;
      if (!mayDiffer && r.message != null && r.published) return null;  // known unchanged: the same plans, the same vendors shown
      r.shown = ranking;
      // ranked in full, every plan is a new object: those that read the same are told by their text
      LiveRankingUpdate update = r.parts.take(id, ranking, !limits.incremental(), r.message);
      if (r.failure == null && r.message != null && r.published && !r.parts.changed()) return null;
      return new Outcome(id, r, update, null);
    } catch (RuntimeException e) {
      r.live = null;
      r.rankedOn = b;
      return new Outcome(id, r, null, e);
    }
  }

  /** On the event loop: publishes a changed ranking, or why it failed, unless the scenario was deleted meanwhile. */
  void apply(Outcome o) {
    applyAll(List.of(o));
  }

  /** The same for a pass's chunk: what is to be published goes in one message. */
  void applyAll(List<Outcome> outcomes) {
    List<RankingsChanged.Change> out = new ArrayList<>(outcomes.size());
    for (Outcome o : outcomes) {
      LiveScenario r = o.r();
      if (scenarios.get(o.id()) != r) continue;
      if (o.failure() != null) {
        LOG.log(Level.WARNING, "re-ranking scenario " + o.id() + " failed", o.failure());
        r.failure = "the last ranking of this scenario failed (" + Failures.text(o.failure()) + "); it is tried again on the next price change";
        r.message = null;
        if (ownership.kept(o.id())) out.add(published(o.id(), r, LiveRankingUpdate.failure(o.id(), 500, r.failure)));
        continue;
      }
      r.message = o.message();
      r.failure = null;
      // one ranked for a reader alone is not published: nothing here would keep it up to date
      if (ownership.kept(o.id())) out.add(published(o.id(), r, r.message));
    }
    if (!out.isEmpty()) vertx.eventBus().publish(Addresses.RANKINGS_CHANGED, new RankingsChanged(out), LOCAL);
  }

  /**
   * Forgets the rankings of the scenarios this node ranked but no longer keeps ranked (another
   * node owns them now and no dashboard here follows them): a pass would leave them stale. Their
   * memory is freed, and the HTTP verticles drop them; a reader's question ranks them again.
   */
  void dropUnkept() {
    scenarios.all().forEach((id, r) -> {
      if (!r.ranked() || r.first || ownership.kept(id)) return;
      boolean published = r.published;
      r.unrank();
      if (published) vertx.eventBus().publish(Addresses.RANKINGS_DROPPED, id, LOCAL);
    });
  }

  /**
   * Tells this node's HTTP verticles (their cache of rankings, their dashboards) and AlertVerticle
   * of a new ranking of {@code r} (or why it failed, with its status in a header too), with null of a deleted scenario.
   */
  private void publish(String id, LiveScenario r, LiveRankingUpdate message) {
    vertx.eventBus().publish(Addresses.RANKINGS_CHANGED, new RankingsChanged(List.of(published(id, r, message))), LOCAL);
  }

  /** {@code r}'s change as it is published ({@code r} null: deleted), marked published. */
  private static RankingsChanged.Change published(String id, LiveScenario r, LiveRankingUpdate message) {
    if (r != null) r.published = true;
    return new RankingsChanged.Change(id, message);
  }

  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);
}
