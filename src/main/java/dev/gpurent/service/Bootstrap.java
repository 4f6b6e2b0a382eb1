package dev.gpurent.service;

import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.adapter.VendorDirectory;
import dev.gpurent.catalog.GpuCatalog;
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
 * Wires the service: loads the configuration, then deploys, in order, the quote pipeline, the
 * ranking, the HTTP server (and the nightly snapshots). The whole start-up is one Future: a
 * taken port or a bad configuration fails it, naming the cause.
 */
public final class Bootstrap {

  // Vert.x registers its event-bus gauge once per metrics backend and Micrometer warns about the
  // second registration; harmless, and noise on every start.
  private static final java.util.logging.Logger MICROMETER_NOTICE = quiet();

  private static java.util.logging.Logger quiet() {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(
        "io.micrometer.common.util.internal.logging.WarnThenDebugLogger");
    log.setLevel(java.util.logging.Level.SEVERE);
    return log;
  }

  /** A started service. */
  public record Running(Vertx vertx, int port, String host) {
    public Future<Void> close() {
      return vertx.close();
    }
  }

  private final Path root;
  private final Map<String, String> env;
  private final Clock clock;
  private String quotesDeployment;

  public Bootstrap(Path root, Map<String, String> env, Clock clock) {
    this.root = root;
    this.env = env;
    this.clock = clock;
  }

  public Future<Running> start() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
        .withMetrics(new MicrometerMetricsFactory(registry))
        .build();
    // Completed outside Vert.x: after a failed start the instance is closed, and its event loops
    // can no longer run callbacks.
    java.util.concurrent.CompletableFuture<Running> started = new java.util.concurrent.CompletableFuture<>();
    GpurentConfig.load(vertx, root, env)
        .compose(config -> deploy(vertx, config, registry))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            started.complete(ar.result());
          } else {
            started.completeExceptionally(ar.cause());
            vertx.close();
          }
        });
    return Future.fromCompletionStage(started);
  }

  private Future<Running> deploy(Vertx vertx, JsonObject config, PrometheusMeterRegistry registry) {
    GpuCatalog catalog;
    HttpSettings http;
    try {
      catalog = GpuCatalog.load(root.resolve(config.getString("catalog", "config/gpus.yaml")));
      http = HttpSettings.from(config.getJsonObject("http"), env::get);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    HttpVerticle web = new HttpVerticle(http, catalog, registry, root.resolve("config/scenarios"));
    vertx.eventBus().consumer(Addresses.ADMIN_RELOAD, msg -> redeployQuotes(vertx, config, catalog, registry)
        .onSuccess(n -> msg.reply(new JsonObject().put("vendors", n)))
        .onFailure(e -> msg.fail(400, e.getMessage())));
    return redeployQuotes(vertx, config, catalog, registry)
        .compose(n -> vertx.deployVerticle(new RankingVerticle(catalog, registry)))
        .compose(id -> vertx.deployVerticle(web))
        .map(id -> new Running(vertx, web.port(), http.host()));
  }

  /** Reads adapters/ and (re)starts the quote pipeline on it; the number of vendors. */
  private Future<Integer> redeployQuotes(Vertx vertx, JsonObject config, GpuCatalog catalog, PrometheusMeterRegistry registry) {
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
    QuoteVerticle quotes = new QuoteVerticle(defs, catalog, adapters, settings, config.getJsonObject("fx"), clock, registry);
    Future<Void> old = quotesDeployment == null ? Future.succeededFuture() : vertx.undeploy(quotesDeployment);
    return old.compose(v -> vertx.deployVerticle(quotes)).map(id -> {
      quotesDeployment = id;
      return defs.size();
    });
  }
}
