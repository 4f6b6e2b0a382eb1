package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientIdentity;
import dev.gpurent.service.live.LiveRankingUpdate;

import static dev.gpurent.service.http.ApiSupport.json;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.Advice;
import dev.gpurent.cost.Fit;
import dev.gpurent.cost.Fleet;
import dev.gpurent.cost.FleetReader;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.Sizing;
import dev.gpurent.cost.SizingRequest;
import dev.gpurent.cost.Workload;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiPredicate;

/**
 * The questions a buyer asks: {@code /api/rank}, {@code /api/sizing}, {@code /api/advise}, and
 * live scenarios ({@code /api/scenarios}). Rankings are computed by the RankingVerticle; sizing and
 * advice by the cost engine, here.
 */
final class ScenarioRoutes {

  private final Vertx vertx;
  private final GpuCatalog catalog;
  private final dev.gpurent.catalog.ModelCatalog models;
  private final long rankingTimeoutMs;
  /** Answers a live scenario's ranking from the HTTP verticle's own copy; false when it has none. */
  private final BiPredicate<HttpServerRequest, String> cached;
  /** Who registers a live scenario: the per-client cap counts it. */
  private final ClientIdentity clients;

  ScenarioRoutes(Vertx vertx, GpuCatalog catalog, dev.gpurent.catalog.ModelCatalog models, long rankingTimeoutMs,
                 BiPredicate<HttpServerRequest, String> cached, ClientIdentity clients) {
    this.vertx = vertx;
    this.catalog = catalog;
    this.models = models;
    this.rankingTimeoutMs = rankingTimeoutMs;
    this.cached = cached;
    this.clients = clients;
  }

  void mount(Router router) {
    router.post("/api/rank").handler(rc -> ApiSupport.withBody(vertx, rc, s -> rank(rc, s)));
    router.post("/api/sizing").handler(rc -> ApiSupport.withBody(vertx, rc, b -> sizing(rc, b)));
    router.post("/api/advise").handler(rc -> ApiSupport.withBody(vertx, rc, b -> advise(rc, b)));
    router.post("/api/scenarios").handler(rc -> ApiSupport.withBody(vertx, rc, s -> register(rc, s)));
    router.get("/api/scenarios/:id/ranking").handler(this::ranking);
    router.delete("/api/scenarios/:id").handler(this::delete);
  }

  private void rank(RoutingContext rc, JsonObject scenario) {
    Lang lang = ApiSupport.lang(rc);
    if (lang == null) return;
    boolean csv = ApiSupport.accepts(rc, "text/csv");
    boolean xlsx = ApiSupport.accepts(rc, RankingXlsx.MEDIA_TYPE);
    // A client that leaves (or times out) before its answer cancels the work it asked for.
    String request = UUID.randomUUID().toString();
    rc.response().closeHandler(v -> {
      if (!rc.response().ended()) vertx.eventBus().publish(Addresses.RANKING_CANCEL, new JsonObject().put("request", request));
    });
    vertx.eventBus().<Object>request(Addresses.RANKING_COMPUTE,
            new JsonObject().put("scenario", scenario).put("format", xlsx ? "xlsx" : csv ? "csv" : "json").put("lang", lang.tag()),
            new DeliveryOptions().setSendTimeout(rankingTimeoutMs).addHeader(Addresses.REQUEST_HEADER, request))
        .compose(m -> xlsx || csv ? Future.succeededFuture(m.body())
            : ApiSupport.rendered(vertx, (String) m.body(), lang).<Object>map(b -> b))
        .onSuccess(body -> {
          if (xlsx) {
            xlsx(rc, scenario.getValue("name"), (Buffer) body);
          } else if (csv) {
            rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8")
                .putHeader("Content-Disposition", "attachment; filename=\"gpurent-ranking.csv\"").end((String) body);
          } else {
            json(rc, 200, (String) body);
          }
        })
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void register(RoutingContext rc, JsonObject scenario) {
    vertx.eventBus().<JsonObject>request(Addresses.SCENARIOS_REGISTER, scenario, new DeliveryOptions()
            .setSendTimeout(rankingTimeoutMs).addHeader(Addresses.CLIENT_HEADER, clients.address(rc.request())))
        .onSuccess(m -> {
          String id = m.body().getString("id");
          rc.response().putHeader(HttpHeaders.LOCATION, "/api/scenarios/" + id + "/ranking");
          json(rc, 201, m.body().put("ranking", "/api/scenarios/" + id + "/ranking").put("websocket", "/ws").encode());
        })
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void ranking(RoutingContext rc) {
    Lang lang = ApiSupport.lang(rc);
    if (lang == null) return;
    String format = liveFormat(rc.queryParams().get("format"), rc.request().getHeader(HttpHeaders.ACCEPT));
    if (format == null) {
      // asked for what a live ranking is not kept as: say what it is, never answer JSON silently
      HttpErrors.send(rc, 406, "a live ranking is answered as application/json (?format=json) or as a workbook, "
          + RankingXlsx.MEDIA_TYPE + " (?format=xlsx); for CSV, POST the scenario to /api/rank with Accept: text/csv");
      return;
    }
    boolean xlsx = format.equals("xlsx");
    if (!xlsx && cached.test(rc.request(), rc.pathParam("id"))) return;
    // not kept ranked here, or unknown: the RankingVerticle ranks it now, or answers 503 or 404
    vertx.eventBus().<LiveRankingUpdate>request(Addresses.SCENARIOS_RANKING, new JsonObject().put("id", rc.pathParam("id")))
        .onSuccess(m -> {
          String body = m.body().ranking(lang);
          if (!xlsx) {
            json(rc, 200, body);
            return;
          }
          Map<String, Object> ranking = PlainValues.map(new JsonObject(body));
          vertx.executeBlocking(() -> Buffer.buffer(RankingXlsx.render(ranking, lang)), false)
              .onSuccess(b -> xlsx(rc, ranking.get("scenario"), b))
              .onFailure(e -> HttpErrors.fail(rc, e));
        })
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  /**
   * The form a live ranking is asked for: {@code ?format=} when given, else the Accept header's
   * (JSON when it accepts anything); null when it asks only for something else, such as CSV.
   */
  static String liveFormat(String format, String accept) {
    if (format != null) {
      return switch (format.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "json" -> "json";
        case "xlsx" -> "xlsx";
        default -> null;
      };
    }
    if (accept == null || accept.isBlank()) return "json";
    boolean json = false;
    for (String range : accept.toLowerCase(java.util.Locale.ROOT).split(",")) {
      String type = range.split(";")[0].trim();
      if (type.equals(RankingXlsx.MEDIA_TYPE)) return "xlsx";
      if (type.equals("application/json") || type.equals("application/*") || type.equals("*/*")) json = true;
    }
    return json ? "json" : null;
  }

  /** A ranking workbook as a download named after its scenario. */
  private static void xlsx(RoutingContext rc, Object scenario, Buffer workbook) {
    rc.response().putHeader(HttpHeaders.CONTENT_TYPE, RankingXlsx.MEDIA_TYPE)
        .putHeader("Content-Disposition", "attachment; filename=\"" + RankingXlsx.fileName(scenario == null ? "" : scenario.toString()) + "\"")
        .end(workbook);
  }

  private void delete(RoutingContext rc) {
    vertx.eventBus().request(Addresses.SCENARIOS_DELETE, new JsonObject().put("id", rc.pathParam("id")))
        .onSuccess(m -> rc.response().setStatusCode(204).end())
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void sizing(RoutingContext rc, JsonObject body) {
    Lang lang = ApiSupport.lang(rc);
    if (lang == null) return;
    SizingRequest req;
    try {
      req = SizingRequest.read(PlainValues.of(body), catalog, models);
    } catch (InvalidInputException e) {
      HttpErrors.invalid(rc, e.problems());
      return;
    }
    Scenario s = req.scenario();
    Workload w = s.workloads().get(0);
    Gpu ref = catalog.byId(w.referenceGpu()).orElseThrow();
    Sizing.VramNeed need = Sizing.vram(w);
    JsonArray fits = new JsonArray();
    for (Fit f : Fit.onEach(w, req.cards(), ref, s.headroom())) {
      fits.add(new JsonObject().put("gpu", f.gpu().id()).put("name", f.gpu().name())
          .put("memoryGiB", f.gpu().memoryGiB()).put("fits", f.ok()).put("reason", f.ok() ? null : Localizer.text(f.unfitReason(), lang))
          .put("cardsPerCopy", f.cardsPerCopy()).put("cards", f.cards()).put("memoryShare", Math.round(f.memoryShare() * 1000) / 1000.0)
          .put("qpsPerCopy", Math.round(f.qpsPerCopy() * 1000) / 1000.0));
      if (f.speed() != null) {
        fits.getJsonObject(fits.size() - 1).put("speed", new JsonObject().put("tokensPerSecondPerGpu", Math.round(f.speed().perGpu() * 100) / 100.0)
            .put("measured", f.speed().measured()).put("source", Localizer.text(f.speed().source(), lang)));
      }
    }
    JsonObject answer = new JsonObject().put("lang", lang.tag()).put("vram", new JsonObject().put("lowGB", need.lowGB()).put("highGB", need.highGB())
        .put("formula", Localizer.text(need.formula(), lang))).put("headroom", s.headroom()).put("cards", fits);
    if (w instanceof dev.gpurent.cost.Inference i && i.modelSizing().isPresent()) {
      // issue 31: the named model, its memory by part, and the tokens a month a per-token API would bill
      dev.gpurent.cost.ModelLoad m = i.modelSizing().get();
      dev.gpurent.cost.ModelMemory mem = dev.gpurent.cost.ModelMemory.of(i, m);
      answer.put("model", new JsonObject().put("id", m.model().id()).put("hf", m.model().hf()).put("source", m.model().source()))
          .put("memory", new JsonObject().put("weightsGB", mem.weightsGB()).put("kvGB", mem.kvGB()).put("overheadGB", mem.overheadGB())
              .put("kvBytesPerToken", mem.kvBytesPerToken()));
      dev.gpurent.cost.TokenDemand.of(i).ifPresent(d -> answer.put("tokensPerMonth",
          new JsonObject().put("input", d.inputTokensPerMonth()).put("output", d.outputTokensPerMonth())));
    }
    json(rc, 200, answer.encode());
  }

  private void advise(RoutingContext rc, JsonObject body) {
    Lang lang = ApiSupport.lang(rc);
    if (lang == null) return;
    Fleet fleet;
    try {
      fleet = new FleetReader(catalog).read(PlainValues.of(body));
    } catch (InvalidInputException e) {
      HttpErrors.invalid(rc, e.problems());
      return;
    }
    ApiSupport.book(vertx).compose(b -> vertx.executeBlocking(() -> Advice.advise(fleet, b, catalog), false))
        .onSuccess(a -> json(rc, 200, ApiSupport.rendered(a.toMap(), lang)))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }
}
