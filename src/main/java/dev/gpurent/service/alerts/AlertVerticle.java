package dev.gpurent.service.alerts;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.AlertSettings;
import dev.gpurent.service.Failures;
import dev.gpurent.service.live.LiveRankingCodec;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingsChanged;

import dev.gpurent.alert.AlertEvaluator;
import dev.gpurent.alert.AlertEvent;
import dev.gpurent.alert.AlertRule;
import dev.gpurent.alert.AlertRules;
import dev.gpurent.alert.Channel;
import dev.gpurent.alert.DeliveryRates;
import dev.gpurent.alert.RankingSummary;
import dev.gpurent.alert.WebhookHosts;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.store.AlertDelivery;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Messages;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * Alerts of live scenarios: learns each scenario's rules when it is registered
 * ({@link Addresses#SCENARIO_REGISTERED}), compares each new ranking of it
 * ({@link Addresses#RANKINGS_CHANGED}) with the one before ({@link AlertEvaluator}), and delivers
 * every event to its webhook, with retries, logging each delivery in the store. It forgets a
 * scenario, and deletes its log, when the scenario is deleted. Webhooks reach public hosts only
 * ({@link WebhookHosts}, checked again on each try's addresses by the {@link WebhookSender}),
 * at most {@code alerts.perUrlPerMinute} tries a minute to one URL and
 * {@code alerts.perClientPerMinute} for the scenarios of one client ({@link DeliveryRates}; per
 * node, and a node delivers only the events it claimed): a try over either is held back.
 *
 * <p>Exactly once across a cluster: each node sees the rankings it makes itself (its owner ranks
 * every scenario, and any node whose dashboards follow one ranks it too), and nodes seeing the same
 * rankings find the same events with the same keys; before delivering, a node claims the event by inserting its row under the
 * store's UNIQUE key, and only the node whose insert succeeded delivers (PostgreSQL is the one
 * store of a cluster). An event whose claim fails (the store is down) is not delivered: a
 * duplicate is what the claim exists to prevent. A node that stops writes down the outcomes its
 * webhooks already answered; one stopped before its webhook answered leaves the row pending, and
 * nobody takes it over.
 */
public final class AlertVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(AlertVerticle.class.getName());
  public static final String HELD_BACK = "held back: over the delivery rate of this webhook or client";

  private final SnapshotStore store;
  private final AlertSettings settings;
  private final Clock clock;
  private final HostResolver resolver;
  private DeliveryRates rates;
  /** Live scenarios (with rules or without, so that their log can be asked for) and their last ranking. */
  private final Map<String, Live> live = new HashMap<>();
  private WebhookSender sender;
  private WebhookHosts hosts;
  /** Outcomes being written to the delivery log: a stop waits for them, so that "delivered" is not lost. */
  private final java.util.Set<Future<?>> logging = new java.util.HashSet<>();

  private static final class Live {
    final AlertRules rules;
    /** Who registered it: their scenarios share one delivery rate. */
    final String client;
    RankingSummary last;

    Live(AlertRules rules, String client) {
      this.rules = rules;
      this.client = client;
    }
  }

  public AlertVerticle(SnapshotStore store, AlertSettings settings, Clock clock) {
    this(store, settings, clock, null);
  }

  /** @param resolver finds a webhook host's addresses; null: the system's (hosts file and DNS) */
  public AlertVerticle(SnapshotStore store, AlertSettings settings, Clock clock, HostResolver resolver) {
    this.store = store;
    this.settings = settings;
    this.clock = clock;
    this.resolver = resolver;
  }

  @Override
  public Future<?> start() {
    hosts = WebhookHosts.ofThisMachine(settings.allowHosts());
    rates = new DeliveryRates(settings.perUrlPerMinute(), settings.perClientPerMinute());
    sender = new WebhookSender(vertx, settings, hosts, resolver == null ? HostResolver.system(vertx) : resolver);
    var registered = vertx.eventBus().<JsonObject>consumer(Addresses.SCENARIO_REGISTERED, m -> registered(m.body()));
    LiveRankingCodec.register(vertx.eventBus());
    RankingsChanged.register(vertx.eventBus());
    var changed = vertx.eventBus().<RankingsChanged>localConsumer(Addresses.RANKINGS_CHANGED, this::changed);
    var log = vertx.eventBus().<JsonObject>localConsumer(Addresses.ALERTS_LOG, this::log);
    return Future.all(registered.completion(), changed.completion(), log.completion());
  }

  @Override
  public Future<?> stop() {
    return Future.join(List.copyOf(logging)).transform(ar -> {
      sender.close();
      return Future.succeededFuture();
    });
  }

  private void registered(JsonObject body) {
    String id = body == null ? null : body.getString("id");
    JsonObject registration = body == null ? null : body.getJsonObject("registration");
    if (id == null || registration == null) return;
    AlertRules rules;
    try {
      rules = AlertRules.read(PlainValues.map(registration), hosts);
    } catch (InvalidInputException e) {
      // refused at registration already; one restored from an older gpurent keeps ranking without alerts
      LOG.warning(() -> "scenario " + id + " has unusable alert rules, none are watched: " + e.getMessage());
      rules = new AlertRules(Lang.EN, "scenario", List.of());
    }
    // A scenario registered again (a restore on another node of a cluster) keeps its last
    // ranking: its next change is still compared with it, not taken for a baseline.
    Live again = new Live(rules, body.getString("client", ""));
    Live before = live.put(id, again);
    if (before != null) again.last = before.last;
  }

  private void changed(Message<RankingsChanged> m) {
    for (RankingsChanged.Change c : m.body().changes()) changed(c.scenario(), c.update());
  }

  private void changed(String id, LiveRankingUpdate update) {
    if (update == null) {
      if (live.remove(id) != null) {
        store.deleteAlerts(id).onFailure(e -> LOG.warning(() -> "the alert log of deleted scenario " + id + " stays: " + e.getMessage()));
      }
      return;
    }
    Live l = live.get(id);
    // a failed ranking is no ranking: the next good one is compared with the last good one
    if (l == null || l.rules.rules().isEmpty() || update.failed()) return;
    RankingSummary now = summary(update);
    RankingSummary before = l.last;
    l.last = now;
    for (AlertEvent e : AlertEvaluator.evaluate(id, l.rules, before, now)) claim(l, e);
  }

  /** What the rules read of a ranking: its fields as they are. */
  static RankingSummary summary(LiveRankingUpdate u) {
    return new RankingSummary(u.currency(), u.quotesAt() == null ? null : u.quotesAt().toString(),
        u.plans().stream().map(p -> new RankingSummary.Plan(p.vendor(), p.monthlyTotal(), p.dated(), p.complete())).toList(),
        u.apis().stream().map(a -> new RankingSummary.Api(a.workload(), a.provider(), a.monthly(), a.rented(), a.vendor())).toList());
  }

  /** Claims the event in the store; the node whose claim succeeds delivers it. */
  private void claim(Live l, AlertEvent e) {
    Lang lang = l.rules.lang();
    String text = Messages.of("alerts", lang).render(e.message());
    Map<String, Object> event = e.toMap(lang, text);
    Instant now = clock.instant();
    AlertRule rule = e.rule();
    store.claimAlert(new AlertDelivery(e.key(), e.scenario(), rule.index(), rule.when().wire(), rule.to().channel().wire(),
            AlertDelivery.PENDING, 0, null, now, now, Json.encode(event)))
        .onSuccess(claimed -> {
          if (claimed) attempt(l.client, e, text, event, 1, null);
        })
        .onFailure(err -> LOG.warning(() -> "alert " + e.key() + " is not delivered: it cannot be claimed (" + err.getMessage() + ")"));
  }

  /** Try {@code n}; {@code lastError} is why the try before failed (kept in the log after a later success). */
  private void attempt(String client, AlertEvent e, String text, Map<String, Object> event, int n, String lastError) {
    AlertRule.Target to = e.rule().to();
    Instant now = clock.instant();
    Future<Channel.Verdict> tried;
    if (rates.tryTake(to.url(), client, now)) {
      // signed at each try: a signature is only good for an hour
      String url = to.channel().url(to.url(), now, to.secret());
      tried = sender.post(to.channel(), url, Json.encode(to.channel().body(text, event, now, to.secret())));
    } else {
      tried = Future.succeededFuture(new Channel.Verdict(Channel.Outcome.RETRY, HELD_BACK));
    }
    tried.onSuccess(v -> {
      boolean again = v.outcome() == Channel.Outcome.RETRY && n < settings.attempts() && live.containsKey(e.scenario());
      String status = v.outcome() == Channel.Outcome.DELIVERED ? AlertDelivery.DELIVERED : again ? AlertDelivery.PENDING : AlertDelivery.FAILED;
      String error = v.reason() == null ? lastError : v.reason();
      Future<?> written = store.updateAlert(e.key(), status, n, error, clock.instant())
          .onFailure(err -> LOG.warning(() -> "alert " + e.key() + ": its log cannot be updated (" + err.getMessage() + ")"));
      logging.add(written);
      written.onComplete(x -> logging.remove(written));
      if (again) {
        vertx.setTimer(settings.delayBefore(n + 1, ThreadLocalRandom.current().nextDouble()).toMillis(),
            t -> attempt(client, e, text, event, n + 1, error));
      } else if (!status.equals(AlertDelivery.DELIVERED)) {
        LOG.warning(() -> "alert " + e.key() + " to a " + to + " failed after " + n + " tries: " + v.reason());
      }
    });
  }

  private void log(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    String id = body.getString("id");
    if (id == null || !live.containsKey(id)) {
      String shown = String.valueOf(id);
      Failures.fail(msg, 404, "no live scenario '" + (shown.length() > 64 ? shown.substring(0, 64) + "..." : shown) + "'");
      return;
    }
    store.alerts(id, body.getInteger("limit", Addresses.ALERTS_LOG_DEFAULT)).onSuccess(rows -> {
      JsonArray out = new JsonArray();
      for (AlertDelivery d : rows) {
        out.add(new JsonObject().put("key", d.key()).put("rule", d.rule()).put("when", d.when()).put("channel", d.channel())
            .put("status", d.status()).put("attempts", d.attempts()).put("lastError", d.lastError())
            .put("createdAt", d.createdAt().toString()).put("updatedAt", d.updatedAt().toString())
            .put("event", new JsonObject(d.eventJson())));
      }
      msg.reply(new JsonObject().put("scenario", id).put("deliveries", out));
    }).onFailure(e -> Failures.fail(msg, e));
  }
}
