package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.OptionalInt;

/** {@code GET /api/scenarios/{id}/alerts}: a live scenario's alert deliveries, newest first, from the AlertVerticle. */
final class AlertRoutes {

  private final Vertx vertx;

  AlertRoutes(Vertx vertx) {
    this.vertx = vertx;
  }

  void mount(Router router) {
    router.get("/api/scenarios/:id/alerts").handler(this::log);
  }

  private void log(RoutingContext rc) {
    OptionalInt limit = ApiSupport.intParam(rc, "limit", Addresses.ALERTS_LOG_DEFAULT, 1, Addresses.ALERTS_LOG_MAX);
    if (limit.isEmpty()) return;
    vertx.eventBus().<JsonObject>request(Addresses.ALERTS_LOG, new JsonObject().put("id", rc.pathParam("id")).put("limit", limit.getAsInt()))
        .onSuccess(m -> ApiSupport.json(rc, 200, m.body().encode()))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }
}
