package dev.gpurent.service.ranking;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientIdentity;
import dev.gpurent.service.ClientSettings;
import dev.gpurent.service.Failures;
import dev.gpurent.service.LoopDelay;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.service.live.LiveRankingCodec;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingParts;
import dev.gpurent.service.live.WatchedScenarios;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.cluster.Owners;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.FilterNames;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.store.ScenarioStore;
import dev.gpurent.store.StoredScenario;
import dev.gpurent.text.Lang;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ranks scenarios against the current QuoteBook: one-off requests, and registered scenarios that
 * are re-ranked whenever a new book is published, their new ranking published only when it
 * changed. Ranking runs on worker threads: a large book takes milliseconds.
 *
 * <p>One-off rankings are checked here and admitted by {@link OneOffRankings} (a cancel arrives on
 * {@link Addresses#RANKING_CANCEL}). Live scenarios are capped in
 * all and per client (a network, {@link ClientIdentity}); a re-ranking that fails is published as that
 * scenario's answer (status and reason), so it is never mistaken for "no quotes yet". Every live
 * scenario and every one-off ranking under way holds its weight of the node's memory budget
 * ({@link RankingBudget}), at registration, at restore and at admission: past it, a refusal
 * that says so. A stored scenario the budget has no room for at start is not loaded: it is logged,
 * left in the store, and its ranking answers 503 saying why until it is deleted.
 *
 * <p>Live scenarios are durable: kept in the {@link ScenarioStore} (the registration body verbatim)
 * and restored at start with their ids. In a cluster every node knows every live scenario (restored
 * from the shared store, then told of each registration and deletion on
 * {@link Addresses#SCENARIOS_CHANGED}), and every node builds the same QuoteBook from the same
 * quotes, so each node ranks for itself the scenarios it serves: those it owns ({@link Owners},
 * recomputed when the membership changes; their rankings feed the alerts and REST readers) and
 * those a dashboard of this node follows ({@link WatchedScenarios}). No ranking crosses the
 * cluster: a change costs each node its own share of the scenarios and its own dashboards'
 * writes, not a 200 KB message per changed ranking to every other node. Any other scenario is
 * ranked when it is asked for ({@link Addresses#SCENARIOS_RANKING}), and one a node stops
 * serving is dropped ({@link Addresses#RANKINGS_DROPPED}) rather than left to go stale.
 *
 * <p>Live scenarios are re-ranked incrementally ({@link LiveRanking}: only the vendors that changed
 * are priced again, and a ranking none of whose plans moved is known unchanged without encoding),
 * in chunks on as many workers as there are cores, one pass at a time: a book that arrives during a
 * pass is taken up by the next one. {@code ranking.incremental: false} ranks every live scenario in
 * full instead (the baseline the incremental pass is measured against).
 */
public final class RankingVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(RankingVerticle.class.getName());

  private final CostModel model;
  private ScenarioReader reader;
  private final GpuCatalog catalog;
  private final java.util.Set<String> makers;
  /** The names a filter may use, and the book they were read from (read again for each new book). */
  private FilterNames names;
  private QuoteBook namesOf;
  private final RankingSettings limits;
  private final Timer rankingTime;
  private final Timer passTime;
  private final Timer followedTime;
  private final io.micrometer.core.instrument.Counter passCpu;
  private final io.micrometer.core.instrument.Counter vendorsPriced;
  private final MeterRegistry registry;
  private final Map<String, Registered> scenarios = new LinkedHashMap<>();
  private ScenarioStore store = ScenarioStore.none();
  private Owners owners = Owners.single();
  private dev.gpurent.alert.WebhookHosts webhookHosts = dev.gpurent.alert.WebhookHosts.ofThisMachine(java.util.Set.of());
  private final Map<String, Integer> perClient = new HashMap<>();
  private final RankingBudget budget;
  private final OneOffRankings oneOff;
  private ClientIdentity clients = new ClientIdentity(ClientSettings.DEFAULTS);
  /** Stored scenarios not loaded at start (over the budget), with why: left in the store, answered 503 until deleted. */
  private final Map<String, String> unloaded = new HashMap<>();
  private QuoteBook book;
  private WatchedScenarios watched;
  /** 1 while a pass over the live scenarios runs (a gauge: read from the metrics scrape). */
  private final AtomicInteger passRunning = new AtomicInteger();
  private boolean passPending;

  /** Live scenarios one worker re-ranks in a row before the event loop publishes what changed. */
  private static final int CHUNK = 32;

  /**
   * A live scenario and its last ranking here: the update as sent (or why it failed); both null
   * while this node does not keep it ranked. {@code live} and {@code parts} are touched only by the one worker ranking the scenario at a time (its first
   * ranking, then one pass after another).
   */
  private static final class Registered {
    final Scenario scenario;
    /** Its client as the per-client cap counts it (a network). */
    final String client;
    /** Its share of the memory budget, held while it lives. */
    final long weight;
    RankingParts parts = new RankingParts();
    /** Kept between books for incremental re-ranking; null before the first ranking and after a failure. */
    LiveRanking live;
    /** The book of its last ranking here (set by the worker that ranked it). */
    volatile QuoteBook rankedOn;
    /** The vendors with a plan in that ranking: a pass ranks first the followed scenarios a change may move. */
    volatile Set<String> shown = Set.of();
    /** While its first ranking runs, passes leave it out. */
    boolean first;
    /**
     * Whether its latest ranking went to this node's HTTP verticles and AlertVerticle: one ranked
     * for a reader alone did not, and is published, changed or not, once this node keeps it ranked.
     */
    volatile boolean published;
    LiveRankingUpdate message;
    String failure;

    Registered(Scenario scenario, String client, long weight) {
      this.scenario = scenario;
      this.client = client;
      this.weight = weight;
    }
  }

  /** The registration fields other parts of gpurent read (the dashboard's language, alert rules): kept in the stored body, not a scenario's. */
  static final List<String> NOT_SCENARIO = List.of("lang", "alerts");

  /** What re-ranking one live scenario gave: a changed message to publish, or a failure. */
  private record Outcome(String id, Registered r, LiveRankingUpdate message, Throwable failure) {}

  public RankingVerticle(GpuCatalog catalog, RankingRules rules, MeterRegistry registry) {
    this(catalog, rules, registry, RankingSettings.DEFAULTS);
  }

  public RankingVerticle(GpuCatalog catalog, RankingRules rules, MeterRegistry registry, RankingSettings limits) {
    this.model = new CostModel(catalog, rules);
    this.makers = catalog.makers();
    this.catalog = catalog;
    this.reader = new ScenarioReader(catalog, limits.maxWorkloads());
    this.limits = limits;
    this.budget = new RankingBudget(limits.memoryBudget());
    this.registry = registry;
    this.rankingTime = Timer.builder("gpurent.ranking.time").description("time to rank one scenario").register(registry);
    this.oneOff = new OneOffRankings(model, limits, budget, rankingTime, registry, () -> book);
    this.passTime = Timer.builder("gpurent.ranking.live.pass").description("one pass over the live scenarios after a price change")
        .register(registry);
    this.followedTime = Timer.builder("gpurent.ranking.live.followed")
        .description("from a pass's start until the rankings of every scenario a dashboard here follows are published").register(registry);
    this.passCpu = io.micrometer.core.instrument.Counter.builder("gpurent.ranking.live.cpu").baseUnit("seconds")
        .description("CPU time the workers spent re-ranking live scenarios").register(registry);
    io.micrometer.core.instrument.Gauge.builder("gpurent.ranking.live.running", passRunning, AtomicInteger::get)
        .description("passes over the live scenarios under way (0 or 1)").register(registry);
    this.vendorsPriced = io.micrometer.core.instrument.Counter.builder("gpurent.ranking.live.vendors")
        .description("vendors priced again for a live scenario (all of them in full mode)").register(registry);
    io.micrometer.core.instrument.Gauge.builder("gpurent.ranking.budget.live", budget, RankingBudget::live).baseUnit("bytes")
        .description("the memory budget the live scenarios hold (ranking.memoryBudget)").register(registry);
    io.micrometer.core.instrument.Gauge.builder("gpurent.ranking.budget.oneoff", budget, RankingBudget::oneOff).baseUnit("bytes")
        .description("the memory budget the one-off rankings under way hold").register(registry);
    io.micrometer.core.instrument.Gauge.builder("gpurent.ranking.scenarios.unloaded", unloaded, Map::size)
        .description("stored live scenarios not loaded at start: over the memory budget").register(registry);
  }

  /** The models a workload may name (config/models.yaml; default: none). Call before deploying. */
  public RankingVerticle models(dev.gpurent.catalog.ModelCatalog models) {
    this.reader = new ScenarioReader(catalog, models, limits.maxWorkloads());
    return this;
  }

  /** Where live scenarios are kept (default: nowhere, they live until the process ends). Call before deploying. */
  public RankingVerticle durable(ScenarioStore store) {
    this.store = store;
    return this;
  }

  /** How clients are told apart for the per-client cap (default: {@link ClientSettings#DEFAULTS}). Call before deploying. */
  public RankingVerticle clients(ClientSettings settings) {
    this.clients = new ClientIdentity(settings);
    return this;
  }

  /** Which scenarios this node ranks (default: all of them). Call before deploying. */
  public RankingVerticle owners(Owners owners) {
    this.owners = owners;
    return this;
  }

  /** Where alert webhooks may go, checked at registration (default: public hosts only). Call before deploying. */
  public RankingVerticle webhookHosts(dev.gpurent.alert.WebhookHosts hosts) {
    this.webhookHosts = hosts;
    return this;
  }

  @Override
  public Future<?> start() {
    LoopDelay.watch(vertx, registry, "ranking");
    watched = new WatchedScenarios(vertx);
    oneOff.on(vertx);
    var bus = vertx.eventBus();
    LiveRankingCodec.register(bus);
    // the node's own questions stay on the node (local consumers); only the scenario and ranking news crosses
    bus.<QuoteBook>localConsumer(Addresses.QUOTES_CHANGED, msg -> {
      book = msg.body();
      rerankAll();
    });
    bus.<JsonObject>localConsumer(Addresses.RANKING_COMPUTE, this::compute);
    bus.<JsonObject>localConsumer(Addresses.RANKING_CANCEL, msg -> oneOff.cancel(msg.body() == null ? null : msg.body().getString("request")));
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_REGISTER, this::register);
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_RANKING, msg -> withScenario(msg, r -> answer(msg, r)));
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_DELETE, msg -> {
      if (!deleteUnloaded(msg)) withScenario(msg, r -> delete(msg, r));
    });
    Future<?> heard = Future.all(
        bus.<JsonObject>consumer(Addresses.SCENARIOS_CHANGED, this::changedElsewhere).completion(),
        bus.localConsumer(Addresses.RANKINGS_WANTED, msg -> republishKept()).completion());
    owners.onChange(() -> context.runOnContext(v -> rankNewlyOwned()));
    // The quote pipeline may have published its first book before this verticle listened.
    Future<?> first = bus.<QuoteBook>request(Addresses.QUOTES_BOOK, null, new DeliveryOptions().setLocalOnly(true))
        .onSuccess(m -> {
          if (book == null) book = m.body();
        })
        .otherwiseEmpty();
    // Restored scenarios are ranked on RANKINGS_WANTED, which the bootstrap publishes once the
    // HTTP verticle listens: published now, their rankings would reach no dashboard cache.
    return Future.all(heard, first).compose(x -> restore());
  }

  // ------------------------------------------------------------------ durable and shared live scenarios

  /**
   * Reads the stored scenarios back with their ids, oldest first; one that no longer reads (a GPU
   * left the catalog) is logged and left in the store, as is one the memory budget has no room for
   * (a smaller budget than when it was registered), which answers 503 saying so until it is deleted.
   */
  private Future<?> restore() {
    return store.all().onSuccess(all -> {
      for (StoredScenario s : all) {
        try {
          JsonObject body = new JsonObject(s.body());
          Scenario scenario = reader.read(PlainValues.of(scenarioPart(body)));
          long weight = weight(scenario);
          Failures.Refused refused = budget.admitLive(weight);
          if (refused != null) {
            unloaded.put(s.id(), "not loaded at start: " + refused.getMessage());
            continue;
          }
          adopt(s.id(), s.client(), scenario, weight);
          // this node's AlertVerticle learns the rules again (each node restores for itself)
          vertx.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", s.id()).put("registration", body)
              .put("client", s.client()), new DeliveryOptions().setLocalOnly(true));
        } catch (InvalidInputException | io.vertx.core.json.DecodeException e) {
          LOG.warning(() -> "stored scenario " + s.id() + " is not restored: " + e.getMessage());
        }
      }
      if (!all.isEmpty()) LOG.info(() -> "restored " + scenarios.size() + " live scenarios");
      if (!unloaded.isEmpty()) {
        LOG.warning(() -> unloaded.size() + " stored live scenarios are not loaded, over the ranking budget of "
            + RankingBudget.mib(budget.total()) + " (ranking.memoryBudget); they stay in the store and their rankings answer"
            + " 503 until deleted or the service starts with a larger budget: " + String.join(", ", unloaded.keySet()));
      }
    });
  }

  /** The body as the scenario reader takes it: without the fields that are not the scenario's. */
  static JsonObject scenarioPart(JsonObject body) {
    JsonObject s = body.copy();
    NOT_SCENARIO.forEach(s::remove);
    return s;
  }

  /** Keeps a live scenario whose weight the budget holds already; {@code client} is its address as stored. */
  private Registered adopt(String id, String client, Scenario s, long weight) {
    Registered r = new Registered(s, clients.network(client), weight);
    if (scenarios.putIfAbsent(id, r) != null) {
      budget.releaseLive(weight);
      return scenarios.get(id);
    }
    perClient.merge(r.client, 1, Integer::sum);
    return r;
  }

  /** The memory a live scenario's ranking holds here: what the budget charges it. */
  private long weight(Scenario s) {
    return RankingBudget.cells(s, book) * RankingBudget.LIVE_BYTES_PER_CELL;
  }

  /** Another node registered or deleted a scenario. */
  private void changedElsewhere(Message<JsonObject> msg) {
    JsonObject b = msg.body();
    if (b == null || owners.node().equals(msg.headers().get(Addresses.NODE_HEADER))) return;
    String id = b.getString("id");
    if (b.getBoolean("deleted", false)) {
      unloaded.remove(id);
      Registered r = scenarios.get(id);
      if (r != null) {
        forget(id, r);
        publish(id, null, null);  // this node's dashboards and alerts
      }
      return;
    }
    if (scenarios.containsKey(id)) return;
    try {
      Scenario s = reader.read(PlainValues.of(scenarioPart(new JsonObject(b.getString("body")))));
      long weight = weight(s);
      Failures.Refused refused = budget.admitLive(weight);
      if (refused != null) {
        unloaded.put(id, "not loaded on this node: " + refused.getMessage());
        LOG.warning(() -> "scenario " + id + " registered elsewhere is not loaded here: " + refused.getMessage());
        return;
      }
      Registered r = adopt(id, b.getString("client", ""), s, weight);
      firstRanked(id, r);
    } catch (InvalidInputException | io.vertx.core.json.DecodeException e) {
      LOG.warning(() -> "scenario " + id + " registered elsewhere does not read here: " + e.getMessage());
    }
  }

  /** Membership changed: the scenarios this node now owns and does not rank yet are ranked at once. */
  private void rankNewlyOwned() {
    if (book == null) return;
    scenarios.forEach((id, r) -> {
      if (!r.published && !r.first && owners.owns(id)) rerank(id, r);
    });
  }

  /** The HTTP verticles listen (at start): each scenario this node keeps ranked is published, ranked first if it is not yet. */
  private void republishKept() {
    scenarios.forEach((id, r) -> {
      if (!kept(id)) return;
      if (r.message != null) publish(id, r, r.message);
      else firstRanked(id, r);
    });
  }

  /** Whether this node keeps {@code id} ranked through every change: it owns it, or a dashboard here follows it. */
  private boolean kept(String id) {
    return owners.owns(id) || watched.watched(id);
  }

  /**
   * A reader's question (REST, or a dashboard of this node following it from now on): the current
   * ranking, ranked first when this node does not keep it ranked, or kept it on an older book.
   */
  private void answer(Message<JsonObject> msg, Registered r) {
    String id = msg.body().getString("id");
    if (book == null) {
      Failures.fail(msg, 503, "no quotes yet: the first fetch is under way");
    } else if (r.message != null && (r.rankedOn == book || kept(id) && r.published)) {
      if (kept(id) && !r.published) publish(id, r, r.message);  // ranked for a reader before, followed here now
      msg.reply(r.message);
    } else if (r.failure != null && r.rankedOn == book) {
      Failures.fail(msg, 500, r.failure);
    } else {
      QuoteBook b = book;
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

  /** Deletes a stored scenario that was not loaded (over the budget at start); false when the id is no such one. */
  private boolean deleteUnloaded(Message<JsonObject> msg) {
    Object raw = msg.body() == null ? null : msg.body().getValue("id");
    if (!(raw instanceof String id) || !unloaded.containsKey(id)) return false;
    store.delete(id).onSuccess(x -> {
      unloaded.remove(id);
      vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("deleted", true), fromHere());
      msg.reply(new JsonObject().put("deleted", id));
    }).onFailure(e -> Failures.fail(msg, 503, "the scenario cannot be deleted now (" + Failures.text(e) + "); try again"));
    return true;
  }

  private void delete(Message<JsonObject> msg, Registered r) {
    String id = msg.body().getString("id");
    store.delete(id).onSuccess(x -> {
      if (scenarios.get(id) == r) forget(id, r);
      vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("deleted", true), fromHere());
      publish(id, null, null);
      msg.reply(new JsonObject().put("deleted", id));
    }).onFailure(e -> Failures.fail(msg, 503, "the scenario cannot be deleted now (" + Failures.text(e) + "); try again"));
  }

  private DeliveryOptions fromHere() {
    return new DeliveryOptions().addHeader(Addresses.NODE_HEADER, owners.node());
  }

  // ------------------------------------------------------------------ one-off rankings

  private void compute(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    String request = msg.headers().get(Addresses.REQUEST_HEADER);
    if (oneOff.cancelledEarly(request)) return;  // its client left before it arrived
    Scenario s = parse(msg, body.getValue("scenario"));
    if (s == null) return;
    if (book == null) {
      Failures.fail(msg, 503, "no quotes yet: the first fetch is under way");
      return;
    }
    if (!knownCurrency(msg, s) || !knownFilterNames(msg, s)) return;
    oneOff.admit(msg, s, book, body.getString("format", "json"), Lang.fromAcceptLanguage(body.getString("lang")), request);
  }

  /** A scenario in a currency the FX rates cannot reach is refused as bad input, not ranked as "no vendor". */
  private boolean knownCurrency(Message<?> msg, Scenario s) {
    var fx = book.fx();
    if (fx.currencies().contains(s.currency()) || fx.base().equals(s.currency())) return true;
    Failures.invalid(msg, List.of(new InvalidInputException.Problem("currency", "no exchange rate for " + s.currency()
        + "; known: " + String.join(", ", new java.util.TreeSet<>(fx.currencies())))));
    return false;
  }

  /** A filter naming a vendor, region, country, continent or maker nobody knows is refused as bad input, naming the field and the value. */
  private boolean knownFilterNames(Message<?> msg, Scenario s) {
    if (namesOf != book) {
      names = FilterNames.of(book, makers);
      namesOf = book;
    }
    List<InvalidInputException.Problem> bad = names.problems(s.constraints());
    if (bad.isEmpty()) return true;
    Failures.invalid(msg, bad);
    return false;
  }

  // ------------------------------------------------------------------ live scenarios

  private void register(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    Scenario s = parseRegistration(msg, body);
    if (s == null) return;
    if (book != null && (!knownCurrency(msg, s) || !knownFilterNames(msg, s))) return;
    String client = msg.headers().get(Addresses.CLIENT_HEADER);
    String who = client == null ? "" : client;
    if (scenarios.size() >= limits.maxScenarios()) {
      Failures.fail(msg, 429, "at most " + limits.maxScenarios() + " live scenarios; delete one first");
      return;
    }
    String network = clients.network(who);
    if (perClient.getOrDefault(network, 0) >= limits.maxScenariosPerClient()) {
      Failures.fail(msg, 429, "at most " + limits.maxScenariosPerClient() + " live scenarios per client (" + network
          + "); delete one first");
      return;
    }
    long weight = weight(s);
    Failures.Refused refused = budget.admitLive(weight);
    if (refused != null) {
      Failures.fail(msg, refused);
      return;
    }
    String id = UUID.randomUUID().toString();
    // counted at once, so that registrations racing the store's write still meet the caps
    Registered r = adopt(id, who, s, weight);
    StoredScenario stored = new StoredScenario(id, who, java.time.Instant.now(), body.encode());
    store.save(stored).onFailure(e -> {
      forget(id, r);
      Failures.fail(msg, 503, "the scenario cannot be kept now (" + Failures.text(e) + "); try again");
    }).onSuccess(x -> {
      // Before its first ranking, so that the AlertVerticles (on every node) know its rules when it comes.
      vertx.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", id).put("registration", body).put("client", who));
      vertx.eventBus().publish(Addresses.SCENARIOS_CHANGED, new JsonObject().put("id", id).put("client", who)
          .put("created", stored.created().toString()).put("body", stored.body()), fromHere());
      firstRanked(id, r).onComplete(y -> msg.reply(new JsonObject().put("id", id)));
    });
  }

  /**
   * Completes once the scenario's first ranking (or "no quotes yet") is published, when this node
   * keeps it ranked (published before the registration is answered, so that the HTTP verticles have
   * it when the client asks); at once for one another node owns, which is ranked here when asked for.
   */
  private Future<?> firstRanked(String id, Registered r) {
    if (!kept(id)) return Future.succeededFuture();  // ranked here when it is asked for
    if (book == null) {
      publish(id, r, LiveRankingUpdate.failure(id, 503, "no quotes yet: the first fetch is under way"));
      return Future.succeededFuture();
    }
    return rerank(id, r);
  }

  private void forget(String id, Registered r) {
    if (scenarios.remove(id) == null) return;
    budget.releaseLive(r.weight);
    perClient.computeIfPresent(r.client, (k, n) -> n <= 1 ? null : n - 1);
  }

  private void withScenario(Message<JsonObject> msg, java.util.function.Consumer<Registered> action) {
    Object raw = msg.body() == null ? null : msg.body().getValue("id");
    Registered r = raw instanceof String id ? scenarios.get(id) : null;
    String notLoaded = raw instanceof String id ? unloaded.get(id) : null;
    if (notLoaded != null) {
      Failures.fail(msg, 503, notLoaded + "; DELETE it, or start the service with a larger budget");
    } else if (r == null) {
      String id = String.valueOf(raw);
      Failures.fail(msg, 404, "no live scenario '" + (id.length() > 64 ? id.substring(0, 64) + "..." : id) + "'");
    } else {
      action.accept(r);
    }
  }

  /**
   * Reads a registration: the scenario, and its alert rules and language ({@code alerts},
   * {@code lang}: the AlertVerticle's, left out of the scenario); on bad input fails the message
   * 400 with every bad field of both and returns null.
   */
  private Scenario parseRegistration(Message<?> msg, JsonObject body) {
    List<InvalidInputException.Problem> problems = new java.util.ArrayList<>();
    Scenario s = null;
    try {
      s = reader.read(PlainValues.of(scenarioPart(body)));
    } catch (InvalidInputException e) {
      problems.addAll(e.problems());
    }
    try {
      dev.gpurent.alert.AlertRules.read(PlainValues.map(body), webhookHosts);
    } catch (InvalidInputException e) {
      problems.addAll(e.problems());
    }
    if (problems.isEmpty()) return s;
    Failures.invalid(msg, problems);
    return null;
  }

  /** Reads a scenario; on bad input fails the message 400 with every bad field and returns null. */
  private Scenario parse(Message<?> msg, Object raw) {
    try {
      return reader.read(PlainValues.of(raw));
    } catch (InvalidInputException e) {
      Failures.invalid(msg, e.problems());
      return null;
    }
  }

  /** Starts a pass over the live scenarios this node owns on the current book, or, with one under way, another once it ends. */
  private void rerankAll() {
    if (book == null) return;
    if (passRunning.get() > 0) {
      passPending = true;
      return;
    }
    QuoteBook b = book;
    passRunning.set(1);
    long started = System.nanoTime();
    // The scenarios this node's dashboards follow go first, found among those few rather than all
    // the live ones, and of those first the ones showing a plan of a vendor that changed: their
    // chunks are on the workers before the event loop goes over every live scenario for the rest.
    Map<String, Registered> followedOnes = new LinkedHashMap<>();
    for (String id : watched.ids()) {
      Registered r = scenarios.get(id);
      if (r != null && !r.first) followedOnes.put(id, r);
    }
    List<Map.Entry<String, Registered>> todo = new java.util.ArrayList<>(passOrder(followedOnes,
        (id, r) -> LiveRanking.mayMove(r.rankedOn, b, r.shown) ? 1 : 0));
    // The followed scenarios on every core; the rest on one core fewer, which leaves a core to the
    // event loops writing the followed ones' rankings to the dashboards (and to GC) meanwhile.
    int parallel = Math.max(1, Runtime.getRuntime().availableProcessors());
    int background = Math.max(1, parallel - 1);
    int followed = todo.size();
    int[] next = {0}, running = {0}, followedLeft = {followed};
    boolean[] listed = {false};
    Runnable[] launch = new Runnable[1];
    launch[0] = () -> {
      while (running[0] < (next[0] < followed ? parallel : background) && next[0] < todo.size()) {
        int from = next[0];
        // a copy: the rest is added to todo after the followed chunks have started
        List<Map.Entry<String, Registered>> chunk = List.copyOf(todo.subList(from, Math.min(todo.size(), from + CHUNK)));
        next[0] += chunk.size();
        running[0]++;
        vertx.executeBlocking(() -> rankChunk(chunk, b), false).onComplete(ar -> {
          running[0]--;
          if (ar.succeeded()) ar.result().forEach(this::apply);
          else LOG.log(Level.WARNING, "re-ranking live scenarios failed", ar.cause());
          int ofFollowed = Math.max(0, Math.min(followed, from + chunk.size()) - from);
          if (ofFollowed > 0 && (followedLeft[0] -= ofFollowed) == 0) {
            followedTime.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
          }
          launch[0].run();
        });
      }
      if (listed[0] && running[0] == 0 && next[0] >= todo.size()) {
        passTime.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
        passRunning.set(0);
        if (passPending || book != b) {
          passPending = false;
          rerankAll();
        }
      }
    };
    launch[0].run();
    dropUnkept();
    // the rest it keeps ranked, in registration order (a scenario followed since the list above was made comes here)
    scenarios.forEach((id, r) -> {
      if (!r.first && !followedOnes.containsKey(id) && kept(id)) todo.add(Map.entry(id, r));
    });
    listed[0] = true;
    launch[0].run();
  }

  /**
   * Forgets the rankings of the scenarios this node ranked but no longer keeps ranked (another
   * node owns them now and no dashboard here follows them): a pass would leave them stale. Their
   * memory is freed, and the HTTP verticles drop them; a reader's question ranks them again.
   */
  private void dropUnkept() {
    scenarios.forEach((id, r) -> {
      if ((r.message == null && r.failure == null) || r.first || kept(id)) return;
      synchronized (r) {
        r.live = null;
        r.parts = new RankingParts();
        r.rankedOn = null;
      }
      r.message = null;
      r.failure = null;
      if (r.published) vertx.eventBus().publish(Addresses.RANKINGS_DROPPED, id, new DeliveryOptions().setLocalOnly(true));
      r.published = false;
    });
  }

  /**
   * The scenarios of {@code all} in the order a pass ranks them: by {@code priority}, highest first
   * (each chunk is published as it is done, so what dashboards follow reaches the screens before
   * the rest is ranked), each group in the order of {@code all}.
   */
  static <T> List<Map.Entry<String, T>> passOrder(Map<String, T> all, java.util.function.ToIntBiFunction<String, T> priority) {
    java.util.TreeMap<Integer, List<Map.Entry<String, T>>> groups = new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
    all.forEach((id, t) -> groups.computeIfAbsent(priority.applyAsInt(id, t), k -> new java.util.ArrayList<>()).add(Map.entry(id, t)));
    List<Map.Entry<String, T>> order = new java.util.ArrayList<>(all.size());
    groups.values().forEach(order::addAll);
    return order;
  }

  /** Re-ranks a chunk of live scenarios on a worker; the outcomes to publish, with the CPU time counted. */
  private List<Outcome> rankChunk(List<Map.Entry<String, Registered>> chunk, QuoteBook b) {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    List<Outcome> out = new java.util.ArrayList<>();
    for (Map.Entry<String, Registered> e : chunk) {
      Outcome o = rankOne(e.getKey(), e.getValue(), b);
      if (o != null) out.add(o);
    }
    passCpu.increment((threads.getCurrentThreadCpuTime() - cpu) / 1e9);
    return out;
  }

  /**
   * Ranks one live scenario on {@code b} (on a worker): null when what it shows did not change,
   * else its new update, or the failure.
   */
  private Outcome rankOne(String id, Registered r, QuoteBook b) {
    // One worker at a time per scenario: a first ranking, a pass, and a membership change that
    // hands this node the scenario can each start one, and its LiveRanking is not thread-safe.
    synchronized (r) {
      return rankOneAlone(id, r, b);
    }
  }

  private Outcome rankOneAlone(String id, Registered r, QuoteBook b) {
    try {
      long started = System.nanoTime();
      Ranking ranking;
      boolean mayDiffer = true;
      if (limits.incremental()) {
        if (r.live == null) r.live = LiveRanking.of(model, r.scenario, b);
        else mayDiffer = r.live.update(b);
        ranking = r.live.ranking();
        vendorsPriced.increment(r.live.recomputed().size());
      } else {
        ranking = model.rank(r.scenario, b);
        vendorsPriced.increment(b.vendors().size());
      }
      rankingTime.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
      r.rankedOn = b;
      if (!mayDiffer && r.message != null && r.published) return null;  // known unchanged: the same plans, the same vendors shown
      Set<String> shown = new HashSet<>();
      ranking.plans().forEach(p -> shown.add(p.vendor()));
      r.shown = shown;
      LiveRankingUpdate update = r.parts.take(id, ranking);
      if (r.failure == null && r.message != null && r.published && !r.parts.changed()) return null;
      return new Outcome(id, r, update, null);
    } catch (RuntimeException e) {
      r.live = null;
      r.rankedOn = b;
      return new Outcome(id, r, null, e);
    }
  }

  /** On the event loop: publishes a changed ranking, or why it failed, unless the scenario was deleted meanwhile. */
  private void apply(Outcome o) {
    Registered r = o.r();
    if (scenarios.get(o.id()) != r) return;
    if (o.failure() != null) {
      LOG.log(Level.WARNING, "re-ranking scenario " + o.id() + " failed", o.failure());
      r.failure = "the last ranking of this scenario failed (" + Failures.text(o.failure()) + "); it is tried again on the next price change";
      r.message = null;
      if (kept(o.id())) publish(o.id(), r, LiveRankingUpdate.failure(o.id(), 500, r.failure));
      return;
    }
    r.message = o.message();
    r.failure = null;
    // one ranked for a reader alone is not published: nothing here would keep it up to date
    if (kept(o.id())) publish(o.id(), r, r.message);
  }

  /** A new live scenario's first ranking; passes leave it out until it is in, then bring it up to the current book. */
  private Future<?> rerank(String id, Registered r) {
    QuoteBook b = book;
    r.first = true;
    return vertx.executeBlocking(() -> rankOne(id, r, b), false).onComplete(ar -> {
      r.first = false;
      if (ar.succeeded() && ar.result() != null) apply(ar.result());
      if (book != b && scenarios.get(id) == r) rerankAll();
    });
  }

  /**
   * Tells this node's HTTP verticles (their cache of rankings, their dashboards) and AlertVerticle
   * of a new ranking of {@code r} (or why it failed, with its status in a header too), with null of a deleted scenario.
   */
  private void publish(String id, Registered r, LiveRankingUpdate message) {
    DeliveryOptions options = new DeliveryOptions().setLocalOnly(true).addHeader(Addresses.SCENARIO_HEADER, id);
    if (message != null && message.failed()) options.addHeader(Addresses.STATUS_HEADER, Integer.toString(message.status()));
    if (r != null) r.published = true;
    vertx.eventBus().publish(Addresses.RANKINGS_CHANGED, message, options);
  }
}
