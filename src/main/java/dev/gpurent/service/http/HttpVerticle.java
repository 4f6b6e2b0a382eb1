package dev.gpurent.service.http;
import dev.gpurent.service.live.DashboardChannel;
import dev.gpurent.service.ClientIdentity;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientSettings;
import dev.gpurent.service.HealthSettings;
import dev.gpurent.service.HttpSettings;
import dev.gpurent.service.LoopDelay;
import dev.gpurent.service.RankingSettings;
import dev.gpurent.service.live.DashboardSockets;
import dev.gpurent.service.live.LiveRankings;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingsChanged;

import dev.gpurent.catalog.GpuCatalog;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.util.Locale;

/**
 * The HTTP face of gpurent: the REST API under {@code /api} (documented in
 * {@code /api/openapi.yaml}, browsable at {@code /api/docs}), dashboards over {@code /ws}, the
 * dashboard itself at {@code /}, {@code /health} and {@code /metrics}. Every answer under /api is
 * JSON, errors included ({@link HttpErrors}); bad input is a 400 naming each bad field. Every
 * request first passes the {@link RequestGuard} (Host, Origin, JSON bodies) and the
 * {@link ConnectionLimits}, and every answer carries the {@link SecurityHeaders}. This class keeps the server, the cached-ranking fast path, the
 * WebSocket and health; each resource mounts its own routes ({@link CatalogRoutes},
 * {@link ScenarioRoutes}, {@link AlertRoutes}, {@link HistoryRoutes}, {@link AdminRoutes}, {@link QuoteSheetRoutes},
 * {@link DocsRoutes}).
 */
public final class HttpVerticle extends VerticleBase {

  static final String JSON = ApiSupport.JSON;
  private static final String RANKING_PREFIX = "/api/scenarios/";
  private static final String RANKING_SUFFIX = "/ranking";

  private final HttpSettings settings;
  private final GpuCatalog catalog;
  private dev.gpurent.catalog.ModelCatalog models = dev.gpurent.catalog.ModelCatalog.EMPTY;
  private final PrometheusMeterRegistry registry;
  private final java.nio.file.Path presets;
  private HttpServer server;
  private final LiveRankings rankings = new LiveRankings();
  private DashboardSockets sockets;
  private RequestGuard guard;
  private ConnectionLimits connections;
  private long rankingTimeoutMs = RankingSettings.DEFAULTS.timeout().toMillis();
  private ClientSettings clients = ClientSettings.DEFAULTS;
  private HealthSettings healthSettings = HealthSettings.DEFAULTS;
  private dev.gpurent.cluster.ClusterView cluster;
  private Health health;

  public HttpVerticle(HttpSettings settings, GpuCatalog catalog, PrometheusMeterRegistry registry, java.nio.file.Path presets) {
    this.presets = presets;
    this.settings = settings;
    this.catalog = catalog;
    this.registry = registry;
  }

  /** The models {@code /api/models} lists and {@code /api/sizing} sizes by name (config/models.yaml; default: none). */
  public HttpVerticle models(dev.gpurent.catalog.ModelCatalog models) {
    this.models = models;
    return this;
  }

  /** How long a one-off ranking may take, queue included, before its client is answered 503 (ranking.timeout). */
  public HttpVerticle rankingTimeout(java.time.Duration timeout) {
    this.rankingTimeoutMs = timeout.toMillis();
    return this;
  }

  /** How the per-client limits tell clients apart (the {@code clients:} section). */
  public HttpVerticle clients(ClientSettings settings) {
    this.clients = settings;
    return this;
  }

  /** What /health checks past which figures, and, in a cluster, this node's view of it (null on a single node). */
  public HttpVerticle health(HealthSettings settings, dev.gpurent.cluster.ClusterView cluster) {
    this.healthSettings = settings;
    this.cluster = cluster;
    return this;
  }

  /** The port actually bound (useful when configured as 0). */
  public int port() {
    return server.actualPort();
  }

  @Override
  public Future<?> start() {
    sockets = new DashboardSockets(vertx, settings, rankings);
    guard = new RequestGuard(settings);
    connections = new ConnectionLimits(vertx, settings);
    LoopDelay.watch(vertx, registry, "http");
    health = new Health(vertx, healthSettings, cluster);
    io.micrometer.core.instrument.Gauge.builder("gpurent.http.connections", connections, ConnectionLimits::open)
        .description("open HTTP connections").register(registry);
    io.micrometer.core.instrument.FunctionCounter.builder("gpurent.http.connections.refused", connections, ConnectionLimits::refused)
        .description("connections closed at once: over http.maxConnections").register(registry);
    sockets.register(registry);
    var changes = vertx.eventBus().<RankingsChanged>localConsumer(Addresses.RANKINGS_CHANGED, m -> {
      for (RankingsChanged.Change c : m.body().changes()) {
        String id = c.scenario();
        LiveRankingUpdate update = c.update();
        if (update == null) {
          rankings.remove(id);
          sockets.deleted(id);
          continue;
        }
        LiveRankings.Latest had = rankings.get(id);
        if (had != null && had.published().sameAs(update)) continue;  // published again (the bootstrap asked for every ranking)
        rankings.put(id, update);
        sockets.changed(id);
      }
    });
    var dropped = vertx.eventBus().<String>localConsumer(Addresses.RANKINGS_DROPPED, m -> rankings.remove(m.body()));
    Router router = Router.router(vertx);
    AdminRoutes admin = new AdminRoutes(vertx, settings, clients);
    QuoteSheetRoutes.mount(vertx, router, admin::admin);  // before the body handler: uploads have a limit of their own
    // Only POSTs carry a body: GETs (the cached rankings above all) skip the body handler.
    router.post("/api/*").handler(BodyHandler.create().setBodyLimit(settings.bodyLimit()).setHandleFileUploads(false));
    new CatalogRoutes(vertx, catalog, models, presets).mount(router);
    new TokenPriceRoutes(vertx).mount(router);
    new ScenarioRoutes(vertx, catalog, models, rankingTimeoutMs, this::serveCached, new ClientIdentity(clients)).mount(router);
    new AlertRoutes(vertx).mount(router);
    new HistoryRoutes(vertx, catalog).mount(router, admin::admin);
    admin.mount(router);
    DocsRoutes.mount(router);
    router.route("/api/*").handler(rc -> HttpErrors.send(rc, 404, "no such API route: " + rc.request().method() + " "
        + ApiSupport.shown(rc.request().path())));
    router.get("/health").handler(this::health);
    router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
    DocsRoutes.mountWebjars(router);
    router.get("/*").handler(StaticHandler.create("webroot"));
    router.errorHandler(404, rc -> HttpErrors.send(rc, 404, "not found: " + ApiSupport.shown(rc.request().path())));
    router.errorHandler(413, rc -> HttpErrors.send(rc, 413, "request body over " + settings.bodyLimit() + " bytes"));
    router.errorHandler(500, rc -> HttpErrors.fail(rc, rc.failure() == null ? new IllegalStateException() : rc.failure()));
    // No h2c (browsers never use it): while Vert.x looks for an h2c upgrade it holds a new
    // connection back until its headers are complete, so the connection limits would not see a
    // slow sender until it finished (or never).
    HttpServerOptions options = new HttpServerOptions().setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) Math.max(1, settings.idleTimeout().toSeconds())).setIdleTimeoutUnit(java.util.concurrent.TimeUnit.SECONDS);
    return Future.all(changes.completion(), dropped.completion())
        .compose(v -> vertx.createHttpServer(options)
            .connectionHandler(connections::opened)
            .requestHandler(req -> {
              boolean ws = "/ws".equals(req.path());
              connections.request(req, ws);
              if (!ws) SecurityHeaders.add(req.response());
              if (!guard.admit(req)) return;
              if (ws) dashboard(req);
              else if (!servedFromCache(req)) router.handle(req);
            }).listen(settings.port(), settings.host()))
        .onSuccess(s -> server = s);
  }

  /**
   * A dashboard's WebSocket, upgraded here rather than through the router: the router's wrapper
   * would hide the socket's channel, which the connection limits watch for its end and
   * DashboardSockets needs for its own limits.
   */
  private void dashboard(io.vertx.core.http.HttpServerRequest req) {
    // a request that is no upgrade gets Vert.x's own 400 (ServiceTest checks it)
    req.toWebSocket().onSuccess(ws -> {
      DashboardChannel channel = DashboardChannel.of(ws, context);
      connections.upgraded(req.connection(), channel.closed());
      sockets.accept(ws, channel);
    });
  }

  /**
   * What polling dashboards fetch, answered before the router: a cached ranking is a map lookup
   * and a write, and the router's matching and RoutingContext were about 6% of the servers' CPU a
   * request (perf, bench/http.sh). Anything else, including an id the router would have to
   * decode, goes through the router.
   */
  private boolean servedFromCache(HttpServerRequest req) {
    String path = req.path();
    if (req.method() != HttpMethod.GET || path.length() <= RANKING_PREFIX.length() + RANKING_SUFFIX.length()
        || !path.startsWith(RANKING_PREFIX) || !path.endsWith(RANKING_SUFFIX)) {
      return false;
    }
    // the workbook, a ?format= and a 406 are the route's
    String query = req.query();
    if (query != null && query.contains("format=")) return false;
    if (!"json".equals(ScenarioRoutes.liveFormat(null, req.getHeader(HttpHeaders.ACCEPT)))) return false;
    String id = path.substring(RANKING_PREFIX.length(), path.length() - RANKING_SUFFIX.length());
    return id.indexOf('/') < 0 && id.indexOf('%') < 0 && serveCached(req, id);
  }

  /** Writes the scenario's cached ranking, gzipped when the client takes it; false when there is none here. */
  boolean serveCached(HttpServerRequest req, String id) {
    LiveRankings.Latest cached = rankings.get(id);
    if (cached == null) return false;
    dev.gpurent.text.Lang lang;
    try {
      lang = ApiSupport.lang(req);
    } catch (dev.gpurent.cost.InvalidInputException unknownLanguage) {
      return false;  // the route answers the 400
    }
    var response = req.response().setStatusCode(cached.status()).putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .putHeader(HttpHeaders.VARY, "Accept-Encoding, Accept-Language");
    if (cached.status() == 503) response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(HttpErrors.RETRY_AFTER_SECONDS));
    if (acceptsGzip(req.getHeader(HttpHeaders.ACCEPT_ENCODING))) response.putHeader(HttpHeaders.CONTENT_ENCODING, "gzip").end(cached.gzipped(lang));
    else response.end(cached.bytes(lang));
    return true;
  }

  // --- health and admin

  private void health(RoutingContext rc) {
    health.check().onSuccess(r -> ApiSupport.json(rc, r.status(),
        r.body().put("dashboards", sockets.connected()).put("connections", connections.open()).encode()));
  }

  /** Whether the client takes gzip (browsers always do; curl with --compressed): listed, and not with q=0. */
  private static boolean acceptsGzip(String accepted) {
    if (accepted == null) return false;
    for (String coding : accepted.toLowerCase(Locale.ROOT).split(",")) {
      String[] parts = coding.split(";");
      if (parts[0].trim().equals("gzip")) {
        return parts.length < 2 || !parts[1].replace(" ", "").matches("q=0(\\.0*)?");
      }
    }
    return false;
  }

}
