package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeWebhooks;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live scenarios outlive the service on one node: registered (with the {@code lang} and
 * {@code alerts} fields other parts of gpurent read), the service stopped and started again on the
 * same data folder, they come back with the same ids, the same rankings and their bodies intact in
 * the store; the per-client cap counts them.
 */
class ScenarioRestartTest {

  @TempDir Path root;
  RunningService app;
  Vertx vertx;
  WebClient client;
  Bootstrap.Running service;

  @AfterEach
  void stop() throws Exception {
    if (app != null) app.close();
  }

  private void start() throws Exception {
    service = app.start();
  }

  private HttpResponse<Buffer> get(String path) throws Exception {
    return await(client.get(service.port(), "127.0.0.1", path).send());
  }

  /** A ranking as its order and bills: vendor and monthly total of each plan (the fetch instants a second fetch moves are left out). */
  static java.util.List<String> comparable(JsonObject ranking) {
    return ranking.getJsonArray("plans").stream().map(JsonObject.class::cast)
        .map(p -> p.getString("vendor") + " " + p.getString("monthlyTotal") + " " + p.getString("currency")).toList();
  }

  @Test
  void a_cluster_node_refuses_to_start_without_a_shared_store() throws Exception {
    ServiceFixtures.writeRoot(root, v -> "http://127.0.0.1:9/" + v);
    var failed = new Bootstrap(root, Map.of(), Clock.systemUTC()).clustered(true).start().toCompletionStage().toCompletableFuture();
    var e = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class, () -> failed.get(30,
        java.util.concurrent.TimeUnit.SECONDS));
    assertEquals("cluster: the nodes share their live scenarios in PostgreSQL; set store.url to a jdbc:postgresql: URL every"
        + " node reaches", e.getCause().getMessage());
  }

  @Test
  void scenarios_and_their_alert_rules_survive_a_restart() throws Exception {
    app = RunningService.prepare(root).config(c -> c.getJsonObject("ranking").put("maxScenariosPerClient", 3));
    vertx = app.vertx();
    FakeWebhooks.allowIn(root);
    client = app.client();
    FakeWebhooks hooks = await(new FakeWebhooks(vertx).start());
    start();
    // below already: each scenario's first ranking fires it once (its baseline event)
    JsonArray alerts = new JsonArray().add(new JsonObject().put("when", "totalBelow").put("amount", 1_000_000)
        .put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json"))));
    Map<String, JsonObject> bodies = new LinkedHashMap<>();
    Map<String, JsonObject> rankings = new LinkedHashMap<>();
    for (String file : new String[] {"team-small.yaml", "team-medium.yaml"}) {
      JsonObject body = ServiceFixtures.scenario(file).put("lang", "zh").put("alerts", alerts);
      HttpResponse<Buffer> created = await(client.post(service.port(), "127.0.0.1", "/api/scenarios").sendJson(body));
      assertEquals(201, created.statusCode(), created.bodyAsString());
      String id = created.bodyAsJsonObject().getString("id");
      bodies.put(id, body);
      HttpResponse<Buffer> ranking = get("/api/scenarios/" + id + "/ranking");
      assertEquals(200, ranking.statusCode(), ranking.bodyAsString());
      rankings.put(id, ranking.bodyAsJsonObject());
    }
    java.util.Set<String> alerted = new java.util.HashSet<>();
    for (int i = 0; i < 2; i++) {
      FakeWebhooks.Received r = hooks.next();
      assertNotNull(r, "a baseline alert for each scenario");
      JsonObject event = new JsonObject(r.body());
      assertEquals("totalBelow", event.getString("when"));
      assertTrue(event.getBoolean("baseline"));
      assertEquals("1000000", event.getString("threshold"));
      alerted.add(event.getString("scenario"));
    }
    assertEquals(rankings.keySet(), alerted);
    java.util.List<String> small = comparable(rankings.values().iterator().next());
    assertEquals(java.util.List.of("guide-reference 1800.00 CNY", "runpod 2303.92 CNY", "vast 3209.34 CNY"), small);
    assertNotEquals(small, comparable(rankings.values().stream().skip(1).findFirst().orElseThrow()));

    // the webhook answered; its outcome is in the log before the restart (a stop waits for the write,
    // not for an answer still on its way)
    for (String id : rankings.keySet()) {
      String status = null;
      for (long end = System.nanoTime() + 20_000_000_000L; System.nanoTime() < end && !"delivered".equals(status); Thread.sleep(50)) {
        JsonArray d = get("/api/scenarios/" + id + "/alerts").bodyAsJsonObject().getJsonArray("deliveries");
        status = d.isEmpty() ? null : d.getJsonObject(0).getString("status");
      }
      assertEquals("delivered", status, "scenario " + id + " before the restart");
    }
    app.stop();
    service = null;
    start();

    for (Map.Entry<String, JsonObject> e : rankings.entrySet()) {
      // ranked at start on the book of the moment, then again as each vendor's refresh lands
      java.util.List<String> expected = comparable(e.getValue());
      java.util.List<String> seen = null;
      for (long end = System.nanoTime() + 20_000_000_000L; System.nanoTime() < end && !expected.equals(seen); Thread.sleep(100)) {
        HttpResponse<Buffer> again = get("/api/scenarios/" + e.getKey() + "/ranking");
        seen = again.statusCode() == 200 ? comparable(again.bodyAsJsonObject()) : java.util.List.of(again.bodyAsString());
      }
      assertEquals(expected, seen, "scenario " + e.getKey());
    }
    // the rows hold each body as it was sent, the fields the scenario reader does not take included
    Map<String, JsonObject> stored = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("data/gpurent.db"));
         Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id, client, body FROM scenarios ORDER BY created_at, id")) {
      while (rs.next()) {
        assertEquals("127.0.0.1", rs.getString(2));
        stored.put(rs.getString(1), new JsonObject(rs.getString(3)));
      }
    }
    assertEquals(bodies, stored);
    assertEquals("zh", stored.values().iterator().next().getString("lang"));
    assertEquals(alerts, stored.values().iterator().next().getJsonArray("alerts"));
    // the restored rules are the AlertVerticle's again: each scenario's log answers, holding the one
    // baseline delivery, which the restart did not send a second time
    for (String id : rankings.keySet()) {
      HttpResponse<Buffer> log = get("/api/scenarios/" + id + "/alerts");
      assertEquals(200, log.statusCode(), log.bodyAsString());
      JsonArray deliveries = log.bodyAsJsonObject().getJsonArray("deliveries");
      assertEquals(1, deliveries.size(), deliveries.encode());
      assertEquals("delivered", deliveries.getJsonObject(0).getString("status"));
      assertEquals(id + ":0:baseline", deliveries.getJsonObject(0).getString("key"));
    }
    assertNull(hooks.more(), "no alert sent again after the restart");
    // two restored and one more make this client's three; a fourth is refused
    assertEquals(201, await(client.post(service.port(), "127.0.0.1", "/api/scenarios").sendJson(ServiceFixtures.scenario("team-large.yaml")))
        .statusCode());
    HttpResponse<Buffer> over = await(client.post(service.port(), "127.0.0.1", "/api/scenarios").sendJson(ServiceFixtures.scenario("team-large.yaml")));
    assertEquals(429, over.statusCode(), over.bodyAsString());
    // a deletion is kept too
    String first = bodies.keySet().iterator().next();
    assertEquals(204, await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + first).send()).statusCode());
    app.stop();
    service = null;
    start();
    assertEquals(404, get("/api/scenarios/" + first + "/ranking").statusCode());
    String second = bodies.keySet().stream().skip(1).findFirst().orElseThrow();
    int status = 0;
    for (long end = System.nanoTime() + 20_000_000_000L; System.nanoTime() < end && status != 200; Thread.sleep(100)) {
      status = get("/api/scenarios/" + second + "/ranking").statusCode();
    }
    assertEquals(200, status);
  }
}
