package dev.gpurent.service;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.Advice;
import dev.gpurent.cost.Fit;
import dev.gpurent.cost.FleetReader;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.Sizing;
import dev.gpurent.cost.SizingRequest;
import dev.gpurent.cost.Workload;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.QuoteQuery;
import dev.gpurent.report.HistoryCsv;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The HTTP face of gpurent: the REST API under {@code /api} (documented in
 * {@code /api/openapi.yaml}, browsable at {@code /api/docs}), dashboards over {@code /ws}, the
 * dashboard itself at {@code /}, {@code /health} and {@code /metrics}. Every answer under /api is
 * JSON, errors included ({@link HttpErrors}); bad input is a 400 naming each bad field. Every
 * request first passes the {@link RequestGuard} (Host, Origin, JSON bodies) and the
 * {@link ConnectionLimits}.
 */
@SuppressWarnings("unchecked")
public final class HttpVerticle extends VerticleBase {

  static final String JSON = "application/json; charset=utf-8";
  private static final String RANKING_PREFIX = "/api/scenarios/";
  private static final String RANKING_SUFFIX = "/ranking";
  private static final String SWAGGER = "META-INF/resources/webjars/swagger-ui/5.34.1";

  private final HttpSettings settings;
  private final GpuCatalog catalog;
  private final PrometheusMeterRegistry registry;
  private final java.nio.file.Path presets;
  private HttpServer server;
  private final LiveRankings rankings = new LiveRankings();
  private DashboardSockets sockets;
  private RequestGuard guard;
  private ConnectionLimits connections;
  private long rankingTimeoutMs = RankingSettings.DEFAULTS.timeout().toMillis();

  public HttpVerticle(HttpSettings settings, GpuCatalog catalog, PrometheusMeterRegistry registry, java.nio.file.Path presets) {
    this.presets = presets;
    this.settings = settings;
    this.catalog = catalog;
    this.registry = registry;
  }

  /** How long a one-off ranking may take, queue included, before its client is answered 503 (ranking.timeout). */
  public HttpVerticle rankingTimeout(java.time.Duration timeout) {
    this.rankingTimeoutMs = timeout.toMillis();
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
    io.micrometer.core.instrument.Gauge.builder("gpurent.http.connections", connections, ConnectionLimits::open)
        .description("open HTTP connections").register(registry);
    io.micrometer.core.instrument.FunctionCounter.builder("gpurent.http.connections.refused", connections, ConnectionLimits::refused)
        .description("connections closed at once: over http.maxConnections").register(registry);
    var changes = vertx.eventBus().<String>consumer(Addresses.RANKINGS_CHANGED, m -> {
      String id = m.headers().get(Addresses.SCENARIO_HEADER);
      String status = m.headers().get(Addresses.STATUS_HEADER);
      if (m.body() == null) {
        rankings.remove(id);
        sockets.deleted(id);
      } else {
        rankings.put(id, m.body(), status == null ? 200 : Integer.parseInt(status));
        sockets.changed(id, m.body());
      }
    });
    Router router = Router.router(vertx);
    QuoteSheetRoutes.mount(vertx, router, this::admin);  // before the body handler: uploads have a limit of their own
    // Only POSTs carry a body: GETs (the cached rankings above all) skip the body handler.
    router.post("/api/*").handler(BodyHandler.create().setBodyLimit(settings.bodyLimit()).setHandleFileUploads(false));
    router.get("/api/gpus").handler(this::gpus);
    router.get("/api/presets").handler(this::presets);
    router.get("/api/vendors").handler(this::vendors);
    router.get("/api/quotes").handler(this::quotes);
    router.post("/api/rank").handler(this::rank);
    router.post("/api/sizing").handler(this::sizing);
    router.post("/api/advise").handler(this::advise);
    router.post("/api/scenarios").handler(this::register);
    router.get("/api/scenarios/:id/ranking").handler(this::ranking);
    router.delete("/api/scenarios/:id").handler(this::delete);
    router.get("/api/snapshots").handler(rc -> history(rc, Addresses.SNAPSHOTS_LIST, new JsonObject()
        .put("limit", intParam(rc, "limit", 30)).put("before", rc.queryParams().get("before")),
        b -> HistoryCsv.snapshots((JsonArray) b)));
    router.get("/api/snapshots/:id").handler(rc -> history(rc, Addresses.SNAPSHOTS_GET, new JsonObject()
        .put("id", rc.pathParam("id")), b -> HistoryCsv.snapshot((JsonObject) b)));
    router.get("/api/snapshots/:id/diff").handler(rc -> history(rc, Addresses.SNAPSHOTS_DIFF, new JsonObject()
        .put("id", rc.pathParam("id")).put("against", rc.queryParams().get("against")), b -> HistoryCsv.diff((JsonObject) b)));
    router.get("/api/history").handler(this::priceHistory);
    router.post("/api/admin/snapshot").handler(this::admin).handler(rc -> vertx.eventBus()
        .<Object>request(Addresses.SNAPSHOTS_TAKE, new JsonObject(), new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(600_000))
        .onSuccess(m -> json(rc, 201, String.valueOf(m.body()))).onFailure(e -> HttpErrors.fail(rc, e)));
    router.post("/api/admin/refresh").handler(this::admin).handler(this::refresh);
    router.post("/api/admin/reload").handler(this::admin).handler(this::reload);
    router.get("/api/openapi.yaml").handler(rc -> rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/yaml")
        .sendFile("openapi.yaml"));
    router.get("/api/docs").handler(rc -> rc.redirect("/api/docs/index.html"));
    router.get("/api/docs/swagger-initializer.js").handler(rc -> rc.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/javascript")
        .end("window.onload = () => { window.ui = SwaggerUIBundle({url: '/api/openapi.yaml', dom_id: '#swagger-ui'}); };"));
    router.get("/api/docs/*").handler(StaticHandler.create(SWAGGER));
    router.route("/api/*").handler(rc -> HttpErrors.send(rc, 404, "no such API route: " + rc.request().method() + " "
        + shown(rc.request().path())));
    router.get("/health").handler(this::health);
    router.get("/metrics").handler(PrometheusScrapingHandler.create(registry));
    router.get("/webjars/uplot/*").handler(StaticHandler.create("META-INF/resources/webjars/uplot/1.6.30"));
    router.get("/*").handler(StaticHandler.create("webroot"));
    router.errorHandler(404, rc -> HttpErrors.send(rc, 404, "not found: " + shown(rc.request().path())));
    router.errorHandler(413, rc -> HttpErrors.send(rc, 413, "request body over " + settings.bodyLimit() + " bytes"));
    router.errorHandler(500, rc -> HttpErrors.fail(rc, rc.failure() == null ? new IllegalStateException() : rc.failure()));
    // No h2c (browsers never use it): while Vert.x looks for an h2c upgrade it holds a new
    // connection back until its headers are complete, so the connection limits would not see a
    // slow sender until it finished (or never).
    HttpServerOptions options = new HttpServerOptions().setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) Math.max(1, settings.idleTimeout().toSeconds())).setIdleTimeoutUnit(java.util.concurrent.TimeUnit.SECONDS);
    return changes.completion()
        .compose(v -> vertx.createHttpServer(options)
            .connectionHandler(connections::opened)
            .requestHandler(req -> {
              boolean ws = "/ws".equals(req.path());
              connections.request(req, ws);
              if (!guard.admit(req)) return;
              if (ws) dashboard(req);
              else if (!servedFromCache(req)) router.handle(req);
            }).listen(settings.port(), settings.host()))
        .onSuccess(s -> server = s);
  }

  /**
   * A dashboard's WebSocket, upgraded here rather than through the router: the router's wrapper
   * would hide the socket's channel, which DashboardSockets needs to reset a stalled dashboard.
   */
  private void dashboard(io.vertx.core.http.HttpServerRequest req) {
    // a request that is no upgrade gets Vert.x's own 400 (ServiceTest checks it)
    req.toWebSocket().onSuccess(sockets::accept);
  }

  // --- catalog and quotes

  private void gpus(RoutingContext rc) {
    JsonArray out = new JsonArray();
    for (Gpu g : catalog.all()) {
      out.add(new JsonObject().put("id", g.id()).put("name", g.name()).put("memoryGiB", g.memoryGiB())
          .put("bandwidthGBs", g.bandwidthGBs()).put("fp16Tflops", g.fp16Tflops())
          .put("interconnect", g.interconnect().label()).put("aliases", new JsonArray(g.aliases())));
    }
    json(rc, 200, out.encode());
  }

  /** The example scenarios of config/scenarios (the guide's template and team plans), for the dashboard. */
  private void presets(RoutingContext rc) {
    vertx.executeBlocking(() -> {
      JsonArray out = new JsonArray();
      try (var files = java.nio.file.Files.list(presets)) {
        for (java.nio.file.Path f : files.filter(p -> p.toString().endsWith(".yaml"))
            .sorted(java.util.Comparator.comparing(p -> p.getFileName().toString().replace(".yaml", ""))).toList()) {
          Object yaml = dev.gpurent.config.YamlFiles.load(f);
          String id = f.getFileName().toString().replace(".yaml", "");
          JsonObject scenario = new JsonObject(PlainValues.map(new JsonObject((Map<String, Object>) yaml)));
          out.add(new JsonObject().put("id", id).put("name", scenario.getString("name", id)).put("scenario", scenario));
        }
      }
      return out;
    }, false).onSuccess(a -> json(rc, 200, a.encode())).onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void vendors(RoutingContext rc) {
    vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null)
        .onSuccess(m -> json(rc, 200, m.body().encode()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void quotes(RoutingContext rc) {
    String gpu = rc.queryParams().get("gpu");
    String gpuId = null;
    Billing billing = null;
    try {
      if (gpu != null) gpuId = catalog.resolve(gpu).id();
      String b = rc.queryParams().get("billing");
      if (b != null) billing = Billing.parse(b);
    } catch (UnknownGpuException | IllegalArgumentException e) {
      HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem(gpu != null && gpuId == null ? "gpu" : "billing",
          shown(e.getMessage()))));
      return;
    }
    String currency = rc.queryParams().get("currency");
    if (currency != null && !ScenarioReader.isMoney(currency.toUpperCase(Locale.ROOT))) {
      HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("currency", "unknown currency code '" + shown(currency) + "'")));
      return;
    }
    QuoteQuery query = new QuoteQuery(gpuId, rc.queryParams().get("vendor"), rc.queryParams().get("region"), billing,
        currency == null ? null : currency.toUpperCase(Locale.ROOT));
    int limit = intParam(rc, "limit", 500);
    book().compose(b -> vertx.executeBlocking(() -> query.apply(b), false)).onSuccess(rows -> {
      JsonArray out = new JsonArray();
      for (QuoteQuery.Row r : rows.subList(0, Math.min(limit, rows.size()))) {
        JsonObject q = QuoteJson.toJson(r.quote()).put("freshness", r.freshness());
        if (r.converted() != null) {
          q.put("converted", r.converted().money().amount().toPlainString()).put("convertedCurrency", query.currency())
              .put("fx", r.fxText());
        }
        out.add(q);
      }
      json(rc, 200, new JsonObject().put("total", rows.size()).put("quotes", out).encode());
    }).onFailure(e -> {
      if (e instanceof IllegalArgumentException) HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("currency", e.getMessage())));
      else HttpErrors.fail(rc, e);
    });
  }

  // --- snapshots and history

  private void priceHistory(RoutingContext rc) {
    JsonObject q = new JsonObject();
    String gpu = rc.queryParams().get("gpu");
    if (gpu != null) {
      var g = catalog.find(gpu);
      if (g.isEmpty()) {
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("gpu", "unknown GPU '" + shown(gpu) + "'")));
        return;
      }
      q.put("gpu", g.get().id());
    }
    for (String k : List.of("vendor", "billing", "from", "to")) {
      String v = rc.queryParams().get(k);
      if (v != null) q.put(k, v);
    }
    history(rc, Addresses.HISTORY, q, b -> HistoryCsv.history((JsonArray) b));
  }

  /** Asks the SnapshotVerticle; answers JSON, or CSV with {@code Accept: text/csv} or {@code ?format=csv}. */
  private void history(RoutingContext rc, String address, JsonObject body, java.util.function.Function<Object, String> toCsv) {
    body.fieldNames().removeIf(k -> body.getValue(k) == null);
    boolean csv = accepts(rc, "text/csv") || "csv".equals(rc.queryParams().get("format"));
    vertx.eventBus().<Object>request(address, body).onSuccess(m -> {
      if (csv) {
        rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8").end(toCsv.apply(m.body()));
      } else {
        json(rc, 200, m.body() instanceof JsonObject j ? j.encode() : m.body() instanceof JsonArray a ? a.encode()
            : String.valueOf(m.body()));
      }
    }).onFailure(e -> HttpErrors.fail(rc, e));
  }

  // --- ranking

  private void rank(RoutingContext rc) {
    withBody(rc, scenario -> rank(rc, scenario));
  }

  private void rank(RoutingContext rc, JsonObject scenario) {
    boolean csv = accepts(rc, "text/csv");
    // A client that leaves (or times out) before its answer cancels the work it asked for.
    String request = UUID.randomUUID().toString();
    rc.response().closeHandler(v -> {
      if (!rc.response().ended()) vertx.eventBus().publish(Addresses.RANKING_CANCEL, new JsonObject().put("request", request));
    });
    vertx.eventBus().<String>request(Addresses.RANKING_COMPUTE,
            new JsonObject().put("scenario", scenario).put("format", csv ? "csv" : "json"),
            new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(rankingTimeoutMs).addHeader(Addresses.REQUEST_HEADER, request))
        .onSuccess(m -> {
          if (csv) {
            rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8")
                .putHeader("Content-Disposition", "attachment; filename=\"gpurent-ranking.csv\"").end(m.body());
          } else {
            json(rc, 200, m.body());
          }
        })
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void register(RoutingContext rc) {
    withBody(rc, scenario -> register(rc, scenario));
  }

  private void register(RoutingContext rc, JsonObject scenario) {
    vertx.eventBus().<JsonObject>request(Addresses.SCENARIOS_REGISTER, scenario, new io.vertx.core.eventbus.DeliveryOptions()
            .setSendTimeout(rankingTimeoutMs).addHeader(Addresses.CLIENT_HEADER, client(rc.request())))
        .onSuccess(m -> {
          String id = m.body().getString("id");
          rc.response().putHeader(HttpHeaders.LOCATION, "/api/scenarios/" + id + "/ranking");
          json(rc, 201, m.body().put("ranking", "/api/scenarios/" + id + "/ranking").put("websocket", "/ws").encode());
        })
        .onFailure(e -> HttpErrors.fail(rc, e));
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
    String id = path.substring(RANKING_PREFIX.length(), path.length() - RANKING_SUFFIX.length());
    return id.indexOf('/') < 0 && id.indexOf('%') < 0 && serveCached(req, id);
  }

  /** Writes the scenario's cached ranking, gzipped when the client takes it; false when there is none here. */
  private boolean serveCached(HttpServerRequest req, String id) {
    LiveRankings.Latest cached = rankings.get(id);
    if (cached == null) return false;
    var response = req.response().setStatusCode(cached.status()).putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
    if (cached.status() == 503) response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(HttpErrors.RETRY_AFTER_SECONDS));
    if (acceptsGzip(req.getHeader(HttpHeaders.ACCEPT_ENCODING))) response.putHeader(HttpHeaders.CONTENT_ENCODING, "gzip").end(cached.gzipped());
    else response.end(cached.bytes());
    return true;
  }

  private void ranking(RoutingContext rc) {
    if (serveCached(rc.request(), rc.pathParam("id"))) return;
    // not ranked yet here, or unknown: the RankingVerticle answers 503 or 404
    vertx.eventBus().<String>request(Addresses.SCENARIOS_RANKING, new JsonObject().put("id", rc.pathParam("id")))
        .onSuccess(m -> json(rc, 200, m.body()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void delete(RoutingContext rc) {
    vertx.eventBus().request(Addresses.SCENARIOS_DELETE, new JsonObject().put("id", rc.pathParam("id")))
        .onSuccess(m -> rc.response().setStatusCode(204).end())
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  // --- sizing and advice

  private void sizing(RoutingContext rc) {
    withBody(rc, body -> sizing(rc, body));
  }

  private void sizing(RoutingContext rc, JsonObject body) {
    SizingRequest req;
    try {
      req = SizingRequest.read(PlainValues.of(body), catalog);
    } catch (InvalidInputException e) {
      HttpErrors.invalid(rc, e.problems());
      return;
    }
    Scenario s = req.scenario();
    List<Gpu> cards = req.cards();
    Workload w = s.workloads().get(0);
    Gpu ref = catalog.byId(w.referenceGpu()).orElseThrow();
    Sizing.VramNeed need = Sizing.vram(w);
    JsonArray fits = new JsonArray();
    cards.stream().map(g -> Fit.of(w, g, ref, s.headroom()))
        .sorted(java.util.Comparator.comparing(Fit::ok).reversed().thenComparingInt(Fit::cards)
            .thenComparingDouble(f -> f.gpu().memoryGiB()))
        .forEach(f -> fits.add(new JsonObject().put("gpu", f.gpu().id()).put("name", f.gpu().name())
            .put("memoryGiB", f.gpu().memoryGiB()).put("fits", f.ok()).put("reason", f.unfitReason())
            .put("cardsPerCopy", f.cardsPerCopy()).put("cards", f.cards()).put("memoryShare", Math.round(f.memoryShare() * 1000) / 1000.0)
            .put("qpsPerCopy", Math.round(f.qpsPerCopy() * 1000) / 1000.0)));
    json(rc, 200, new JsonObject().put("vram", new JsonObject().put("lowGB", need.lowGB()).put("highGB", need.highGB())
        .put("formula", need.formula())).put("headroom", s.headroom()).put("cards", fits).encode());
  }

  private void advise(RoutingContext rc) {
    withBody(rc, body -> advise(rc, body));
  }

  private void advise(RoutingContext rc, JsonObject body) {
    dev.gpurent.cost.Fleet fleet;
    try {
      fleet = new FleetReader(catalog).read(PlainValues.of(body));
    } catch (InvalidInputException e) {
      HttpErrors.invalid(rc, e.problems());
      return;
    }
    book().compose(b -> vertx.executeBlocking(() -> Advice.advise(fleet, b, catalog), false))
        .onSuccess(a -> json(rc, 200, new JsonObject(a.toMap()).encode()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  // --- health and admin

  private void health(RoutingContext rc) {
    Future<JsonObject> history = vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_STATUS, null)
        .map(m -> m.body()).otherwise(new JsonObject().put("available", false).put("error", "snapshots are not running"));
    vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null).compose(m -> history.map(h -> {
      int total = m.body().size(), fresh = 0, withData = 0;
      JsonObject vendors = new JsonObject();
      for (Object o : m.body()) {
        JsonObject v = (JsonObject) o;
        String f = v.getString("freshness");
        vendors.put(v.getString("vendor"), f);
        if (f.equals("fresh")) fresh++;
        if (f.equals("fresh") || f.equals("stale")) withData++;
      }
      boolean historyUp = h.getBoolean("available", false);
      String status = withData == 0 ? "down" : fresh == total && historyUp ? "up" : "degraded";
      JsonObject out = new JsonObject().put("status", status).put("vendors", vendors)
          .put("history", historyUp ? "available" : "history unavailable: " + h.getString("error", ""))
          .put("dashboards", sockets.connected()).put("connections", connections.open());
      return new Object[] {withData == 0 ? 503 : 200, out};
    })).onSuccess(a -> json(rc, (Integer) a[0], ((JsonObject) a[1]).encode()))
        .onFailure(e -> json(rc, 503, new JsonObject().put("status", "down").put("error", "the quote pipeline is not answering").encode()));
  }

  /** Admin actions need the configured bearer token; with none configured they are disabled. */
  private void admin(RoutingContext rc) {
    if (!settings.adminEnabled()) {
      HttpErrors.send(rc, 403, "admin actions are disabled: set the admin token environment variable (http.adminTokenEnv)");
      return;
    }
    String auth = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    if (auth == null || !java.security.MessageDigest.isEqual(("Bearer " + settings.adminToken()).getBytes(),
        auth.trim().getBytes())) {
      rc.response().putHeader("WWW-Authenticate", "Bearer");
      HttpErrors.send(rc, 401, "admin actions need 'Authorization: Bearer <token>'");
      return;
    }
    rc.next();
  }

  private void refresh(RoutingContext rc) {
    String vendor = rc.queryParams().get("vendor");
    JsonObject body = vendor == null ? new JsonObject() : new JsonObject().put("vendor", vendor);
    vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, body,
            new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(600_000))
        .onSuccess(m -> json(rc, 200, m.body().encode()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void reload(RoutingContext rc) {
    vertx.eventBus().<JsonObject>request(Addresses.ADMIN_RELOAD, null)
        .onSuccess(m -> json(rc, 200, m.body().encode()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  // --- helpers

  private Future<QuoteBook> book() {
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body())
        .compose(b -> b == null ? Future.failedFuture(new Failures.Refused(503, "no quotes yet: the first fetch is under way"))
            : Future.succeededFuture(b));
  }

  /** Bodies at least this large are decoded on a worker: a 256 KB body is milliseconds of the HTTP loop that /health waits behind. */
  private static final int DECODE_OFF_LOOP_BYTES = 16 * 1024;

  /** Runs {@code then} with the request body as a JSON object, or answers 400 naming (body). */
  private void withBody(RoutingContext rc, java.util.function.Consumer<JsonObject> then) {
    Buffer b = rc.body().buffer();
    if (b == null || b.length() == 0) {
      HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "a JSON object is required")));
      return;
    }
    Future<Object> parsed = b.length() < DECODE_OFF_LOOP_BYTES ? Future.succeededFuture(b).map(Json::decodeValue)
        : vertx.executeBlocking(() -> Json.decodeValue(b), false);
    parsed.onComplete(ar -> {
      if (ar.failed()) {
        // Jackson's message names its own classes and features: say where, not why in its terms.
        java.util.regex.Matcher at = java.util.regex.Pattern.compile("line: (\\d+), column: (\\d+)")
            .matcher(String.valueOf(ar.cause().getMessage()));
        String where = at.find() ? " (at line " + at.group(1) + ", column " + at.group(2) + ")" : "";
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "not valid JSON" + where)));
      } else if (!(ar.result() instanceof JsonObject o)) {
        HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("(body)", "must be a JSON object")));
      } else {
        then.accept(o);
      }
    });
  }

  private static boolean accepts(RoutingContext rc, String type) {
    String accept = rc.request().getHeader(HttpHeaders.ACCEPT);
    return accept != null && accept.toLowerCase(Locale.ROOT).contains(type);
  }

  private static int intParam(RoutingContext rc, String name, int dflt) {
    try {
      String v = rc.queryParams().get(name);
      return v == null ? dflt : Math.max(0, Integer.parseInt(v));
    } catch (NumberFormatException e) {
      return dflt;
    }
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

  static void json(RoutingContext rc, int status, String body) {
    rc.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, JSON).end(body);
  }

  /** A client's remote address, for per-client quotas. */
  private static String client(HttpServerRequest req) {
    var a = req.remoteAddress();
    return a == null ? "" : a.hostAddress();
  }

  /** Request text as an error message repeats it: cut short. */
  private static String shown(String s) {
    return s == null ? "" : s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
