package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientIdentity;
import dev.gpurent.service.ClientLog;
import dev.gpurent.service.ClientSettings;
import dev.gpurent.service.HttpSettings;

import static dev.gpurent.service.http.ApiSupport.json;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.logging.Logger;

/**
 * {@code /api/admin/refresh} and {@code /reload}, and the bearer-token check every admin route
 * passes first. Wrong tokens are counted per client ({@link ClientIdentity}): past
 * {@code clients.adminFailuresPerMinute} a client's admin requests are answered 429 until its
 * minute ends, right token or not, so that guessing costs a minute per handful of tries; each
 * failure is logged ({@link ClientLog}, itself rate-limited). A token shorter than
 * {@value #SHORT_TOKEN} characters is warned of at start.
 * Each action done is passed on to the other nodes of a cluster ({@link Addresses#ADMIN_DONE}).
 */
final class AdminRoutes {

  /** Tokens shorter than this are warned of: guessable despite the limit. */
  static final int SHORT_TOKEN = 16;
  private static final Logger LOG = Logger.getLogger(AdminRoutes.class.getName());

  private final Vertx vertx;
  private final HttpSettings settings;
  private final ClientIdentity clients;
  private final FailureLimit failures;
  private final int perMinute;

  AdminRoutes(Vertx vertx, HttpSettings settings, ClientSettings clients) {
    this.vertx = vertx;
    this.settings = settings;
    this.clients = new ClientIdentity(clients);
    this.perMinute = clients.adminFailuresPerMinute();
    this.failures = new FailureLimit(perMinute, System::nanoTime);
    shortTokenWarning(settings.adminToken()).ifPresent(LOG::warning);
  }

  /** The warning a configured token too short to be safe gets; empty for a long enough one, or none. */
  static java.util.Optional<String> shortTokenWarning(String token) {
    if (token.isEmpty() || token.length() >= SHORT_TOKEN) return java.util.Optional.empty();
    return java.util.Optional.of("the admin token is " + token.length() + " characters long: use at least " + SHORT_TOKEN
        + " random ones (e.g. openssl rand -hex 24), or it can be guessed");
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
    String client = clients.client(rc.request());
    long wait = failures.blockedFor(client);
    if (wait > 0) {
      rc.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(wait));
      HttpErrors.send(rc, 429, "too many wrong admin tokens from this client; try again in " + wait + " s");
      return;
    }
    String auth = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    // constant-time comparison: the token is a secret
    if (auth == null || !MessageDigest.isEqual(("Bearer " + settings.adminToken()).getBytes(StandardCharsets.UTF_8),
        auth.trim().getBytes(StandardCharsets.UTF_8))) {
      int n = failures.failed(client);
      ClientLog.adminRefused((auth == null ? "no token" : "a wrong token") + " from " + clients.address(rc.request()) + " ("
          + client + ", failure " + n + " of " + perMinute + " allowed a minute) for " + rc.request().method() + " "
          + ApiSupport.shown(rc.request().path()));
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
