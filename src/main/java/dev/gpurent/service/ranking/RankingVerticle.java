package dev.gpurent.service.ranking;

import dev.gpurent.alert.WebhookHosts;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.cluster.Owners;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientIdentity;
import dev.gpurent.service.ClientSettings;
import dev.gpurent.service.Failures;
import dev.gpurent.service.LoopDelay;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.service.live.LiveRankingCodec;
import dev.gpurent.service.live.RankingsChanged;
import dev.gpurent.service.live.WatchedScenarios;
import dev.gpurent.store.ScenarioStore;
import dev.gpurent.text.Lang;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * Ranks scenarios against the current QuoteBook: one-off requests, and registered scenarios that
 * are re-ranked whenever a new book is published, their new ranking published only when it
 * changed. Ranking runs on worker threads: a large book takes milliseconds. This verticle wires the
 * rooms of the work to the bus:
 * <ul>
 *   <li>{@link OneOffRankings}: one-off rankings, checked here ({@link ScenarioChecks}) and admitted
 *       there (a cancel arrives on {@link Addresses#RANKING_CANCEL});</li>
 *   <li>{@link LiveScenarios}: the live-scenario registry (registration, caps, the memory budget,
 *       the durable store, the news of other nodes);</li>
 *   <li>{@link LivePass} and {@link ScenarioRanker}: the live pass after each new book, and each
 *       scenario's ranking and its publication ({@link Addresses#RANKINGS_CHANGED});</li>
 *   <li>{@link Ownership}: which scenarios this node keeps ranked.</li>
 * </ul>
 *
 * <p>In a cluster every node knows every live scenario (restored from the shared store, then told
 * of each registration and deletion on {@link Addresses#SCENARIOS_CHANGED}), and every node builds
 * the same QuoteBook from the same quotes, so each node ranks for itself the scenarios it serves:
 * those it owns ({@link Owners}, recomputed when the membership changes; their rankings feed the
 * alerts and REST readers) and those a dashboard of this node follows ({@link WatchedScenarios}).
 * No ranking crosses the cluster: a change costs each node its own share of the scenarios and its
 * own dashboards' writes, not a 200 KB message per changed ranking to every other node. Any other
 * scenario is ranked when it is asked for ({@link Addresses#SCENARIOS_RANKING}), and one a node
 * stops serving is dropped ({@link Addresses#RANKINGS_DROPPED}) rather than left to go stale.
 */
public final class RankingVerticle extends VerticleBase {

  private final CostModel model;
  private final RankingSettings limits;
  private final MeterRegistry registry;
  private final Timer rankingTime;
  private final RankingBudget budget;
  private final OneOffRankings oneOff;
  private final ScenarioChecks checks;
  private ScenarioStore store = ScenarioStore.none();
  private Owners owners = Owners.single();
  private ClientIdentity clients = new ClientIdentity(ClientSettings.DEFAULTS);
  private QuoteBook book;
  private LiveScenarios scenarios;
  private ScenarioRanker ranker;
  private LivePass pass;

  public RankingVerticle(GpuCatalog catalog, RankingRules rules, MeterRegistry registry) {
    this(catalog, rules, registry, RankingSettings.DEFAULTS);
  }

  public RankingVerticle(GpuCatalog catalog, RankingRules rules, MeterRegistry registry, RankingSettings limits) {
    this.model = new CostModel(catalog, rules);
    this.checks = new ScenarioChecks(catalog, limits.maxWorkloads());
    this.limits = limits;
    this.budget = new RankingBudget(limits.memoryBudget());
    this.registry = registry;
    this.rankingTime = Timer.builder("gpurent.ranking.time").description("time to rank one scenario").register(registry);
    this.oneOff = new OneOffRankings(model, limits, budget, rankingTime, registry, () -> book);
    Gauge.builder("gpurent.ranking.budget.live", budget, RankingBudget::live).baseUnit("bytes")
        .description("the memory budget the live scenarios hold (ranking.memoryBudget)").register(registry);
    Gauge.builder("gpurent.ranking.budget.oneoff", budget, RankingBudget::oneOff).baseUnit("bytes")
        .description("the memory budget the one-off rankings under way hold").register(registry);
  }

  /** The models a workload may name (config/models.yaml; default: none). Call before deploying. */
  public RankingVerticle models(ModelCatalog models) {
    checks.models(models);
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
  public RankingVerticle webhookHosts(WebhookHosts hosts) {
    checks.webhookHosts(hosts);
    return this;
  }

  @Override
  public Future<?> start() {
    LoopDelay.watch(vertx, registry, "ranking");
    Ownership ownership = new Ownership(owners);
    scenarios = new LiveScenarios(limits, budget, checks, ownership, clients, () -> book);
    scenarios.store(store);
    ranker = new ScenarioRanker(model, limits, scenarios, ownership, () -> book, rankingTime, registry);
    pass = new LivePass(scenarios, ranker, ownership, () -> book, registry);
    Gauge.builder("gpurent.ranking.scenarios.unloaded", scenarios, LiveScenarios::unloaded)
        .description("stored live scenarios not loaded at start: over the memory budget").register(registry);
    ownership.start(vertx, () -> context.runOnContext(v -> ranker.rankNewlyOwned()));
    scenarios.start(vertx, ranker);
    ranker.start(vertx, pass::run);
    pass.start(vertx);
    oneOff.on(vertx);
    var bus = vertx.eventBus();
    LiveRankingCodec.register(bus);
    RankingsChanged.register(bus);
    // the node's own questions stay on the node (local consumers); only the scenario and ranking news crosses
    bus.<QuoteBook>localConsumer(Addresses.QUOTES_CHANGED, msg -> {
      book = msg.body();
      pass.run();
    });
    bus.<JsonObject>localConsumer(Addresses.RANKING_COMPUTE, this::compute);
    bus.<JsonObject>localConsumer(Addresses.RANKING_CANCEL, msg -> oneOff.cancel(msg.body() == null ? null : msg.body().getString("request")));
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_REGISTER, scenarios::register);
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_RANKING, msg -> scenarios.withScenario(msg, r -> ranker.answer(msg, r)));
    bus.<JsonObject>localConsumer(Addresses.SCENARIOS_DELETE, scenarios::delete);
    Future<?> heard = Future.all(
        bus.<JsonObject>consumer(Addresses.SCENARIOS_CHANGED, scenarios::changedElsewhere).completion(),
        bus.localConsumer(Addresses.RANKINGS_WANTED, msg -> ranker.republishKept()).completion());
    // The quote pipeline may have published its first book before this verticle listened.
    Future<?> first = bus.<QuoteBook>request(Addresses.QUOTES_BOOK, null, new DeliveryOptions().setLocalOnly(true))
        .onSuccess(m -> {
          if (book == null) book = m.body();
        })
        .otherwiseEmpty();
    // Restored scenarios are ranked on RANKINGS_WANTED, which the bootstrap publishes once the
    // HTTP verticle listens: published now, their rankings would reach no dashboard cache.
    return Future.all(heard, first).compose(x -> scenarios.restore());
  }

  private void compute(Message<JsonObject> msg) {
    JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
    String request = msg.headers().get(Addresses.REQUEST_HEADER);
    if (oneOff.cancelledEarly(request)) return;  // its client left before it arrived
    Scenario s = checks.parse(msg, body.getValue("scenario"));
    if (s == null) return;
    if (book == null) {
      Failures.fail(msg, 503, "no quotes yet: the first fetch is under way");
      return;
    }
    if (!checks.known(msg, s, book)) return;
    oneOff.admit(msg, s, book, body.getString("format", "json"), Lang.fromAcceptLanguage(body.getString("lang")), request);
  }
}
