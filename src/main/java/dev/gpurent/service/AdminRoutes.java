package dev.gpurent.service;

import static dev.gpurent.service.ApiSupport.json;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * {@code /api/admin/refresh} and {@code /reload}, and the bearer-token check every admin route
 * passes first. Each action done is passed on to the other nodes of a cluster ({@link Addresses#ADMIN_DONE}).
 */
final class AdminRoutes {

  private final Vertx vertx;
  private final HttpSettings settings;

  AdminRoutes(Vertx vertx, HttpSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
  }

  void mount(Router router) {
    router.post("/api/admin/refresh").handler(this::admin).handler(this::refresh);
    router.post("/api/admin/reload").handler(this::admin).handler(this::reload);
  }

  /** Admin actions need the configured bearer token; with none configured they are disabled. */
  void admin(RoutingContext rc) {
    if (!settings.adminEnabled()) {
      HttpErrors.send(rc, 403, "admin actions are disabled: set the admin token environment variable (http.adminTokenEnv)");
      return;
    }
    String auth = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    // constant-time comparison: the token is a secret
    if (auth == null || !MessageDigest.isEqual(("Bearer " + settings.adminToken()).getBytes(StandardCharsets.UTF_8),
        auth.trim().getBytes(StandardCharsets.UTF_8))) {
      rc.response().putHeader("WWW-Authenticate", "Bearer");
      HttpErrors.send(rc, 401, "admin actions need 'Authorization: Bearer <token>'");
      return;
    }
    rc.next();
  }

  private void refresh(RoutingContext rc) {
    String vendor = rc.queryParams().get("vendor");
    JsonObject body = vendor == null ? new JsonObject() : new JsonObject().put("vendor", vendor);
    vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, body, new DeliveryOptions().setSendTimeout(600_000))
        .onSuccess(m -> json(rc, 200, m.body().encode()))
        .onSuccess(m -> vertx.eventBus().send(Addresses.ADMIN_DONE, body.copy().put("action", "refresh")))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }

  private void reload(RoutingContext rc) {
    vertx.eventBus().<JsonObject>request(Addresses.ADMIN_RELOAD, null)
        .onSuccess(m -> json(rc, 200, m.body().encode()))
        .onSuccess(m -> vertx.eventBus().send(Addresses.ADMIN_DONE, new JsonObject().put("action", "reload")))
        .onFailure(e -> HttpErrors.fail(rc, e));
  }
}
