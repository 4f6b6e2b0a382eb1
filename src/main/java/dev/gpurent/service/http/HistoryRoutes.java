package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;

import static dev.gpurent.service.http.ApiSupport.json;
import static dev.gpurent.service.http.ApiSupport.shown;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.report.HistoryCsv;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Function;

/** {@code /api/snapshots...}, {@code /api/history} and the admin snapshot: what the SnapshotVerticle keeps. */
final class HistoryRoutes {

  /** The most snapshots one page lists; {@code before} pages further back. */
  static final int MAX_PAGE = 1000;

  private final Vertx vertx;
  private final GpuCatalog catalog;

  HistoryRoutes(Vertx vertx, GpuCatalog catalog) {
    this.vertx = vertx;
    this.catalog = catalog;
  }

  void mount(Router router, Handler<RoutingContext> admin) {
    router.get("/api/snapshots").handler(rc -> {
      OptionalInt limit = ApiSupport.intParam(rc, "limit", 30, 1, MAX_PAGE);
      if (limit.isPresent()) {
        ask(rc, Addresses.SNAPSHOTS_LIST, new JsonObject().put("limit", limit.getAsInt()).put("before", rc.queryParams().get("before")),
            b -> HistoryCsv.snapshots((JsonArray) b));
      }
    });
    router.get("/api/snapshots/:id").handler(rc -> ask(rc, Addresses.SNAPSHOTS_GET, new JsonObject()
        .put("id", rc.pathParam("id")), b -> HistoryCsv.snapshot((JsonObject) b)));
    router.get("/api/snapshots/:id/diff").handler(rc -> ask(rc, Addresses.SNAPSHOTS_DIFF, new JsonObject()
        .put("id", rc.pathParam("id")).put("against", rc.queryParams().get("against")), b -> HistoryCsv.diff((JsonObject) b)));
    router.get("/api/history").handler(this::priceHistory);
    router.post("/api/admin/snapshot").handler(admin).handler(rc -> vertx.eventBus()
        .<Object>request(Addresses.SNAPSHOTS_TAKE, new JsonObject(), new DeliveryOptions().setSendTimeout(600_000))
        .onSuccess(m -> json(rc, 201, String.valueOf(m.body()))).onFailure(e -> HttpErrors.fail(rc, e)));
  }

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
    String currency = rc.queryParams().get("currency");
    if (currency != null && !currency.matches("[A-Za-z]{3}")) {
      HttpErrors.invalid(rc, List.of(new InvalidInputException.Problem("currency", "must be a 3-letter ISO code, got '"
          + shown(currency) + "'")));
      return;
    }
    for (String k : List.of("vendor", "billing", "from", "to", "currency")) {
      String v = rc.queryParams().get(k);
      if (v != null) q.put(k, v);
    }
    ask(rc, Addresses.HISTORY, q, b -> HistoryCsv.history((JsonArray) b));
  }

  /** Asks the SnapshotVerticle; answers JSON, or CSV with {@code Accept: text/csv} or {@code ?format=csv}. */
  private void ask(RoutingContext rc, String address, JsonObject body, Function<Object, String> toCsv) {
    body.fieldNames().removeIf(k -> body.getValue(k) == null);
    boolean csv = ApiSupport.accepts(rc, "text/csv") || "csv".equals(rc.queryParams().get("format"));
    vertx.eventBus().<Object>request(address, body).onSuccess(m -> {
      if (csv) {
        rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8").end(toCsv.apply(m.body()));
      } else {
        json(rc, 200, m.body() instanceof JsonObject j ? j.encode() : m.body() instanceof JsonArray a ? a.encode()
            : String.valueOf(m.body()));
      }
    }).onFailure(e -> HttpErrors.fail(rc, e));
  }
}
