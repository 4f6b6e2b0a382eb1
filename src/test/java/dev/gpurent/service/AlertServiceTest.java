package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeWebhooks;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alerts through the whole service: registered with a live scenario over HTTP, delivered, and read back at /api/scenarios/{id}/alerts. */
class AlertServiceTest {

  static RunningService app;
  static Vertx vertx;
  static FakeWebhooks hooks;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root);
    vertx = app.vertx();
    hooks = await(new FakeWebhooks(vertx).start());
    FakeWebhooks.allowIn(root);
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static HttpResponse<Buffer> get(String path) throws Exception {
    return await(client.get(service.port(), "127.0.0.1", path).send());
  }

  static HttpResponse<Buffer> post(String path, JsonObject body) throws Exception {
    return await(client.post(service.port(), "127.0.0.1", path).sendJson(body));
  }

  @Test
  void a_live_scenarios_alert_is_delivered_and_listed_in_its_log() throws Exception {
    JsonObject scenario = ServiceFixtures.scenario("team-small.yaml").put("lang", "en").put("alerts", new JsonArray()
        .add(new JsonObject().put("when", "totalBelow").put("amount", 1_000_000).put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json")))));
    HttpResponse<Buffer> created = post("/api/scenarios", scenario);
    assertEquals(201, created.statusCode(), created.bodyAsString());
    String id = created.bodyAsJsonObject().getString("id");
    JsonObject best = get("/api/scenarios/" + id + "/ranking").bodyAsJsonObject().getJsonArray("plans").getJsonObject(0);
    JsonObject event = new JsonObject(hooks.next().body());
    assertEquals(id + ":0:baseline", event.getString("key"));
    assertEquals(new JsonObject().put("vendor", best.getString("vendor")).put("monthlyTotal", "1800.00").put("dated", best.getBoolean("dated")),
        event.getJsonObject("current"));
    assertEquals("gpurent: the best monthly total for \"" + scenario.getString("name") + "\" is 1800.00 CNY (" + best.getString("vendor")
        + "), below 1000000 CNY.", event.getString("text"));

    JsonObject log = null;
    for (int i = 0; i < 100 && (log == null || log.getJsonArray("deliveries").getJsonObject(0).getString("status").equals("pending")); i++) {
      if (log != null) Thread.sleep(50);
      HttpResponse<Buffer> r = get("/api/scenarios/" + id + "/alerts");
      assertEquals(200, r.statusCode(), r.bodyAsString());
      assertEquals("application/json; charset=utf-8", r.getHeader("content-type"));
      log = r.bodyAsJsonObject();
    }
    assertEquals(id, log.getString("scenario"));
    JsonObject row = log.getJsonArray("deliveries").getJsonObject(0);
    assertEquals(1, log.getJsonArray("deliveries").size());
    assertEquals(java.util.List.of("delivered", 1, "json", "totalBelow", 0), java.util.List.of(row.getString("status"),
        row.getInteger("attempts"), row.getString("channel"), row.getString("when"), row.getInteger("rule")));
    assertEquals(event, row.getJsonObject("event"), "the log keeps the event as it was sent");

    assertEquals(400, get("/api/scenarios/" + id + "/alerts?limit=0").statusCode());
    assertEquals(204, await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + id).send()).statusCode());
    HttpResponse<Buffer> gone = get("/api/scenarios/" + id + "/alerts");
    assertEquals(404, gone.statusCode());
    assertEquals(new JsonObject().put("error", "no live scenario '" + id + "'"), gone.bodyAsJsonObject());
  }

  /** The service allows 127.0.0.1 (its fake webhooks') and nothing else: the service itself under another name is refused. */
  @Test
  void a_webhook_to_a_loopback_or_internal_host_not_allowed_is_refused_with_a_neutral_reason() throws Exception {
    JsonArray rules = new JsonArray();
    for (String url : new String[] {"http://localhost:" + service.port() + "/api/admin/reload", "http://[::1]:" + service.port() + "/",
        "http://127.0.0.2:" + service.port() + "/", "http://169.254.169.254/latest/meta-data/", "http://db.internal/"}) {
      rules.add(new JsonObject().put("when", "winnerChanged").put("to", new JsonObject().put("type", "json").put("url", url)));
    }
    HttpResponse<Buffer> r = post("/api/scenarios", ServiceFixtures.scenario("team-small.yaml").put("alerts", rules));
    assertEquals(400, r.statusCode());
    JsonArray fields = new JsonArray();
    for (int i = 0; i < 5; i++) fields.add(new JsonObject().put("field", "alerts[" + i + "].to.url").put("reason", dev.gpurent.alert.WebhookHosts.REFUSED));
    assertEquals(new JsonObject().put("error", "invalid input").put("fields", fields), r.bodyAsJsonObject());
  }

  @Test
  void a_registration_with_a_bad_rule_is_refused_naming_each_field() throws Exception {
    JsonObject scenario = ServiceFixtures.scenario("team-small.yaml").put("horizonMonths", 0).put("lang", "de").put("alerts", new JsonArray()
        .add(new JsonObject().put("when", "totalBelow").put("to", new JsonObject().put("type", "slack").put("url", "file:///etc/passwd"))));
    HttpResponse<Buffer> r = post("/api/scenarios", scenario);
    assertEquals(400, r.statusCode());
    assertEquals(new JsonObject().put("error", "invalid input").put("fields", new JsonArray()
        .add(new JsonObject().put("field", "horizonMonths").put("reason", "must be between 1 and 120, got 0"))
        .add(new JsonObject().put("field", "lang").put("reason", "must be en or zh, got 'de'"))
        .add(new JsonObject().put("field", "alerts[0].amount").put("reason", "is required for totalBelow"))
        .add(new JsonObject().put("field", "alerts[0].to.url").put("reason", "must be an http:// or https:// URL with a host, got 'file:///etc/passwd'"))),
        r.bodyAsJsonObject());
    assertTrue(hooks.more() == null, "nothing was registered, nothing sent");
  }
}
