package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;

import static dev.gpurent.service.http.ApiSupport.json;
import static dev.gpurent.service.http.ApiSupport.shown;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.config.PlainValues;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.QuoteQuery;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/** {@code /api/gpus}, {@code /api/presets}, {@code /api/vendors[/{id}]}, {@code /api/quotes}: what there is to rank. */
final class CatalogRoutes {

  private final Vertx vertx;
  private final GpuCatalog catalog;
  private final Path presets;

  CatalogRoutes(Vertx vertx, GpuCatalog catalog, Path presets) {
    this.vertx = vertx;
    this.catalog = catalog;
    this.presets = presets;
  }

  void mount(Router router) {
    router.get("/api/gpus").handler(this::gpus);
    router.get("/api/presets").handler(this::presets);
    router.get("/api/vendors").handler(this::vendors);
    router.get("/api/vendors/:id").handler(this::vendor);
    router.get("/api/quotes").handler(this::quotes);
  }

  private void gpus(RoutingContext rc) {
    JsonArray out = new JsonArray();
    for (Gpu g : catalog.all()) {
      out.add(new JsonObject().put("id", g.id()).put("name", g.name()).put("memoryGiB", g.memoryGiB())
          .put("bandwidthGBs", g.bandwidthGBs()).put("fp16Tflops", g.fp16Tflops())
          .put("interconnect", g.interconnect().label()).put("maker", g.maker()).put("computeCapability", g.computeCapability())
          .put("aliases", new JsonArray(g.aliases())));
    }
    json(rc, 200, out.encode());
  }

  /** The example scenarios of config/scenarios (the guide's template and team plans), for the dashboard. */
  @SuppressWarnings("unchecked")
  private void presets(RoutingContext rc) {
    vertx.executeBlocking(() -> {
      JsonArray out = new JsonArray();
      try (var files = Files.list(presets)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
            .sorted(Comparator.comparing(p -> p.getFileName().toString().replace(".yaml", ""))).toList()) {
          Object yaml = YamlFiles.load(f);
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

  /** One vendor's status with its refused rows: the first 100, where each was and why, and the rows per reason. */
  private void vendor(RoutingContext rc) {
    vertx.eventBus().<JsonObject>request(Addresses.QUOTES_STATUS, new JsonObject().put("vendor", rc.pathParam("id")))
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
    OptionalInt limit = ApiSupport.intParam(rc, "limit", 500, 0, 100_000);
    if (limit.isEmpty()) return;
    QuoteQuery query = new QuoteQuery(gpuId, rc.queryParams().get("vendor"), rc.queryParams().get("region"), billing,
        currency == null ? null : currency.toUpperCase(Locale.ROOT));
    ApiSupport.book(vertx).compose(b -> vertx.executeBlocking(() -> query.apply(b), false)).onSuccess(rows -> {
      JsonArray out = new JsonArray();
      for (QuoteQuery.Row r : rows.subList(0, Math.min(limit.getAsInt(), rows.size()))) {
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
}
