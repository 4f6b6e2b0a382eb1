package dev.gpurent.service.boot;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.service.HttpSettings;
import dev.gpurent.service.GpurentConfig;
import dev.gpurent.service.AlertSettings;
import dev.gpurent.service.QuoteSettings;
import dev.gpurent.service.Failures;
import dev.gpurent.service.ClusterAdminVerticle;
import dev.gpurent.service.ClientSettings;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.HealthSettings;

import dev.gpurent.service.alerts.AlertVerticle;
import dev.gpurent.service.http.HttpVerticle;
import dev.gpurent.service.quotes.QuoteSheetVerticle;
import dev.gpurent.service.quotes.QuoteVerticle;
import dev.gpurent.service.ranking.RankingVerticle;
import dev.gpurent.service.snapshots.SnapshotVerticle;

import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.adapter.VendorDirectory;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.cluster.ClusterNode;
import dev.gpurent.cluster.ClusterSettings;
import dev.gpurent.cluster.Leases;
import dev.gpurent.cluster.Owners;
import dev.gpurent.cluster.RendezvousOwners;
import dev.gpurent.cluster.VendorLeases;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.RankingRules;
import dev.gpurent.store.LatestSnapshot;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Wires the service: loads the configuration, opens the snapshot store (SQLite under data/ by
 * default), then deploys, in order, the quote pipeline (started from the latest snapshot), the
 * alerts, the ranking (with the live scenarios kept in the store), quote-sheet imports, the HTTP
 * server and the nightly snapshots. The whole start-up is one Future: a taken port or a bad
 * configuration fails it, naming the cause.
 *
 * <p>With {@code cluster.enabled} (or {@link #clustered}) the node joins a Vert.x cluster on
 * Hazelcast instead ({@link ClusterNode}): vendors are fetched under leases ({@link VendorLeases}),
 * live scenarios ranked by their owner ({@link RendezvousOwners}) and kept in PostgreSQL, which a
 * cluster requires, and admin actions done on any node are done on all ({@link ClusterAdminVerticle}). Without it no Hazelcast is started.
 */
public final class Bootstrap {

  // Vert.x registers its event-bus gauge once per metrics backend and Micrometer warns about the
  // second registration; harmless, and noise on every start.
  private static final java.util.logging.Logger MICROMETER_NOTICE = quiet();

  private static java.util.logging.Logger quiet() {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(
        "io.micrometer");
    log.setLevel(java.util.logging.Level.SEVERE);
    return log;
  }

  /** A started service. */
  public record Running(Vertx vertx, int port, String host, SnapshotStore store, String snapshotDeployment) {
    /** Stops the nightly snapshots, closes the store, then Vert.x (undeploying the rest). */
    public Future<Void> close() {
      java.util.concurrent.CompletableFuture<Void> closed = new java.util.concurrent.CompletableFuture<>();
      // Vert.x itself is closed from outside its threads: a callback on one of its own event
      // loops would never run once they stop.
      vertx.undeploy(snapshotDeployment).otherwiseEmpty()
          .compose(v -> store.close()).otherwiseEmpty()
          .onComplete(x -> java.util.concurrent.CompletableFuture.runAsync(() -> vertx.close()
              .onComplete(y -> closed.complete(null))));
      return Future.fromCompletionStage(closed);
    }
  }

  private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Bootstrap.class.getName());

  private final Path root;
  private final Map<String, String> env;
  private final Clock clock;
  private boolean forceCluster;
  /** Which scenarios a single node owns: all of them, unless a test makes it one member's share of a cluster. */
  private Owners singleOwners = Owners.single();
  /** This node's cluster membership, or null on a single node. */
  private ClusterNode cluster;
  private String quotesDeployment;
  /** The latest snapshot's quotes, which vendors start from until they answer. */
  private Map<String, dev.gpurent.quote.VendorQuotes> seed = Map.of();

  public Bootstrap(Path root, Map<String, String> env, Clock clock) {
    this.root = root;
    this.env = env;
    this.clock = clock;
  }

  /** Joins a cluster whatever {@code cluster.enabled} says ({@code serve --cluster}). */
  public Bootstrap clustered(boolean force) {
    this.forceCluster = force;
    return this;
  }

  /** A single node that owns only what {@code owners} says, as one member of a cluster does (tests). */
  public Bootstrap owning(Owners owners) {
    this.singleOwners = owners;
    return this;
  }

  public Future<Running> start() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    jvmMetrics(registry);
    Vertx vertx = Vertx.builder().with(vertxOptions()).withMetrics(new MicrometerMetricsFactory(registry)).build();
    // Completed outside Vert.x: after a failed start the instance is closed, and its event loops
    // can no longer run callbacks.
    java.util.concurrent.CompletableFuture<Running> started = new java.util.concurrent.CompletableFuture<>();
    GpurentConfig.load(vertx, root, env)
        .onComplete(loaded -> {
          ClusterSettings clustering = null;
          try {
            if (loaded.succeeded()) clustering = ClusterSettings.from(loaded.result().getJsonObject("cluster"), forceCluster);
            if (clustering != null && clustering.enabled() && !StoreSettings.from(loaded.result(), env).postgres()) {
              throw new IllegalArgumentException("cluster: the nodes share their live scenarios in PostgreSQL;"
                  + " set store.url to a jdbc:postgresql: URL every node reaches");
            }
          } catch (RuntimeException e) {
            loaded = Future.failedFuture(e);
          }
          if (loaded.failed() || !clustering.enabled()) {
            Future<Running> deployed = loaded.failed() ? Future.failedFuture(loaded.cause()) : deploy(vertx, loaded.result(), registry);
            deployed.onComplete(ar -> finish(ar, vertx, started));
            return;
          }
          // The configuration said to cluster: the plain instance that read it gives way to a clustered
          // one, from outside its threads (they stop with it).
          JsonObject config = loaded.result();
          ClusterSettings settings = clustering;
          java.util.concurrent.CompletableFuture.runAsync(() -> vertx.close().toCompletionStage().toCompletableFuture().join())
              .thenRun(() -> joinThenDeploy(config, settings, started))
              .exceptionally(e -> {
                started.completeExceptionally(e);
                return null;
              });
        });
    return Future.fromCompletionStage(started);
  }

  /** Joins the cluster, then deploys the node on its clustered Vert.x. */
  private void joinThenDeploy(JsonObject config, ClusterSettings settings, java.util.concurrent.CompletableFuture<Running> started) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    jvmMetrics(registry);
    ClusterNode.join(vertxOptions(), new MicrometerMetricsFactory(registry), settings).onComplete(joined -> {
      if (joined.failed()) {
        started.completeExceptionally(joined.cause());
        return;
      }
      cluster = joined.result();
      LOG.info(() -> "joined the cluster as " + cluster.manager().getNodeId() + " (" + cluster.manager().getNodes().size()
          + " members)");
      deploy(cluster.vertx(), config, registry).onComplete(ar -> finish(ar, cluster.vertx(), started));
    });
  }

  /** Completes the start-up; a failed one closes its Vert.x. */
  private static void finish(io.vertx.core.AsyncResult<Running> ar, Vertx vertx,
                             java.util.concurrent.CompletableFuture<Running> started) {
    if (ar.succeeded()) {
      started.complete(ar.result());
    } else {
      started.completeExceptionally(ar.cause());
      vertx.close();
    }
  }

  private static VertxOptions vertxOptions() {
    return new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true));
  }

  private Future<Running> deploy(Vertx vertx, JsonObject config, PrometheusMeterRegistry registry) {
    GpuCatalog catalog;
    Regions regions;
    HttpSettings http;
    try {
      catalog = GpuCatalog.load(root.resolve(config.getString("catalog", "config/gpus.yaml")));
      regions = Regions.load(root.resolve(config.getString("regions", "config/regions.yaml")));
      http = HttpSettings.from(config.getJsonObject("http"), env::get);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    StoreSettings configuredStore;
    StoreSettings storeSettings;
    RankingRules rules;
    RankingSettings ranking;
    ClientSettings clients;
    AlertSettings alerts;
    HealthSettings health;
    try {
      rules = RankingRules.from(PlainValues.map(config));
      ranking = RankingSettings.from(config.getJsonObject("ranking"));
      clients = ClientSettings.from(config.getJsonObject("clients"));
      alerts = AlertSettings.from(config.getJsonObject("alerts"));
      health = HealthSettings.from(config.getJsonObject("health"));
      configuredStore = StoreSettings.from(config, env);
      storeSettings = configuredStore.resolvedAgainst(root);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    HttpVerticle web = new HttpVerticle(http, catalog, registry, root.resolve("config/scenarios")).rankingTimeout(ranking.timeout())
        .clients(clients).health(health, cluster == null ? null : new dev.gpurent.cluster.ClusterView(cluster));
    Owners owners = cluster == null ? singleOwners : new RendezvousOwners(cluster.manager());
    vertx.eventBus().localConsumer(Addresses.ADMIN_RELOAD, msg -> redeployQuotes(vertx, config, catalog, regions, registry)
        .onSuccess(n -> msg.reply(new JsonObject().put("vendors", n)))
        .onFailure(e -> Failures.fail(msg, 400, dev.gpurent.config.UserText.withoutPaths(relative(String.valueOf(e.getMessage()))))));
    // History is a convenience: a store that cannot be opened (a corrupt file) turns it off, and
    // the service still starts, ranks and pushes prices.
    String storeName = configuredStore.postgres() ? configuredStore.describe() : configuredStore.path().toString();
    return SnapshotStore.open(vertx, storeSettings)
        .recover(e -> {
          // a cluster node without the shared store would keep scenarios the others never see
          if (cluster != null) return Future.failedFuture(new IllegalStateException("cluster: the store " + storeName
              + " cannot be opened (" + e.getMessage() + "); a node starts only with the store its cluster shares"));
          LOG.warning(() -> "snapshot store " + storeName + " cannot be opened, history is off: " + e.getMessage());
          return Future.succeededFuture(new dev.gpurent.store.UnavailableStore(storeName, e));
        })
        .compose(store -> store.latest()
        .recover(e -> {
          LOG.warning(() -> "the latest snapshot cannot be read, starting without it: " + e.getMessage());
          return Future.succeededFuture(java.util.Optional.empty());
        })
        .map(latest -> seed = latest.map(LatestSnapshot::vendors).orElse(Map.of()))
        .compose(x -> redeployQuotes(vertx, config, catalog, regions, registry))
        // alerts listen before any scenario is registered or restored
        .compose(n -> vertx.deployVerticle(new AlertVerticle(store, alerts, clock)))
        .compose(id -> vertx.deployVerticle(new RankingVerticle(catalog, rules, registry, ranking).durable(store.scenarios())
            .owners(owners).clients(clients).webhookHosts(dev.gpurent.alert.WebhookHosts.ofThisMachine(alerts.allowHosts()))))
        .compose(id -> vertx.deployVerticle(new QuoteSheetVerticle(root.resolve(config.getString("adapters", "adapters")), catalog, clock)))
        .compose(id -> cluster == null ? Future.succeededFuture(id)
            : vertx.deployVerticle(new ClusterAdminVerticle(cluster.manager().getNodeId())))
        .compose(id -> vertx.deployVerticle(web))
        // now that the HTTP verticle listens: restored scenarios are ranked (and, in a cluster, every owner publishes again)
        .onSuccess(id -> vertx.eventBus().publish(Addresses.RANKINGS_WANTED, null))
        .compose(id -> vertx.deployVerticle(SnapshotVerticle.fromConfig(store, config, clock)))
        .map(snapshots -> new Running(vertx, web.port(), http.host(), store, snapshots))
        .onFailure(e -> store.close()));
  }

  /** A message with the root's absolute path taken out, so that it names files as the operator wrote them. */
  private String relative(String message) {
    String abs = root.toAbsolutePath().normalize() + java.io.File.separator;
    return message.replace(abs, "");
  }

  /**
   * The JVM's own meters on /metrics (heap and its pools, GC pauses, threads, classes, CPU) and
   * each event loop's delay: how late a 100 ms timer fires, which is what a blocked loop costs
   * every request queued on it.
   */
  private static void jvmMetrics(PrometheusMeterRegistry registry) {
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.JvmGcMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics().bindTo(registry);
    new io.micrometer.core.instrument.binder.system.ProcessorMetrics().bindTo(registry);
  }

  /** Reads adapters/ and (re)starts the quote pipeline on it; the number of vendors. */
  private Future<Integer> redeployQuotes(Vertx vertx, JsonObject config, GpuCatalog catalog, Regions regions,
                                         PrometheusMeterRegistry registry) {
    List<VendorDefinition> defs;
    AdapterRegistry adapters = AdapterRegistry.load();
    QuoteSettings settings;
    try {
      defs = VendorDirectory.load(root.resolve(config.getString("adapters", "adapters")), adapters);
      settings = QuoteSettings.from(config.getJsonObject("quotes"));
      if (!settings.cacheDir().isEmpty()) settings = settings.withCacheDir(root.resolve(settings.cacheDir()).toString());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    Leases leases;
    try {
      leases = cluster == null ? Leases.single()
          : new VendorLeases(cluster, ClusterSettings.from(config.getJsonObject("cluster"), true).leaseTtl());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    QuoteVerticle quotes = new QuoteVerticle(defs, catalog, regions, adapters, settings, config.getJsonObject("fx"), clock, registry)
        .seed(seed).clustered(leases);
    Future<Void> old = quotesDeployment == null ? Future.succeededFuture() : vertx.undeploy(quotesDeployment);
    return old.compose(v -> vertx.deployVerticle(quotes)).map(id -> {
      quotesDeployment = id;
      return defs.size();
    });
  }
}
