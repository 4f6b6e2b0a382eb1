package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.FakeVendorServer;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static dev.gpurent.testing.ServiceFixtures.TOKEN;
import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.cluster.Owners;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node of a cluster serving a scenario another node owns (here: a node that owns none): it ranks
 * the scenario when REST asks, keeps it ranked through price changes while a dashboard here follows
 * it, and once none does stops ranking it and drops its ranking, so that a later read is ranked
 * afresh rather than answered stale.
 */
class NotOwnedScenarioTest {

  @TempDir Path root;
  RunningService app;
  Vertx vertx;
  FakeVendorServer fake;
  Bootstrap.Running service;
  WebClient client;

  static final Owners NONE = new Owners() {
    @Override
    public boolean owns(String scenario) {
      return false;
    }

    @Override
    public String node() {
      return "node-owning-nothing";
    }

    @Override
    public void onChange(Runnable changed) {}
  };

  @BeforeEach
  void start() throws Exception {
    app = RunningService.prepare(root).owning(NONE);
    vertx = app.vertx();
    fake = app.fake();
    client = app.client();
    service = app.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (app != null) app.close();
  }

  @Test
  void ranked_when_asked_kept_while_followed_and_dropped_after() throws Exception {
    JsonObject s = new JsonObject().put("name", "someone else's").put("currency", "USD").put("workloads", new JsonArray().add(
        new JsonObject().put("kind", "inference").put("paramsBillions", 7).put("peakQps", 3).put("secondsPerRequest", 2)
            .put("concurrentPerCard", 4)));
    var registered = await(client.post(service.port(), "127.0.0.1", "/api/scenarios").sendJsonObject(s));
    assertEquals(201, registered.statusCode(), registered.bodyAsString());
    String id = registered.bodyAsJsonObject().getString("id");
    String first = ServiceFixtures.runpodTotal(get(id));

    LinkedBlockingQueue<JsonObject> seen = new LinkedBlockingQueue<>();
    WebSocket ws = ServiceFixtures.openSocket(vertx, service.port(), "/ws");
    ws.textMessageHandler(text -> seen.add(new JsonObject(text)));
    ws.writeTextMessage(new JsonObject().put("subscribe", new JsonArray().add(id)).encode());
    JsonObject subscribed = seen.poll(30, TimeUnit.SECONDS);
    assertEquals("ranking", subscribed.getString("type"), subscribed.encode());
    assertEquals(first, ServiceFixtures.runpodTotal(subscribed.getJsonObject("ranking")), "the ranking the REST read made");

    double followedPasses = metric("gpurent_ranking_live_followed_seconds_count");
    change(2);
    assertTrue(metric("gpurent_ranking_live_followed_seconds_count") > followedPasses, "the time to the followed rankings is kept");
    JsonObject pushed = seen.poll(30, TimeUnit.SECONDS);
    assertEquals("ranking", pushed.getString("type"), String.valueOf(pushed));
    String doubled = ServiceFixtures.runpodTotal(pushed.getJsonObject("ranking"));
    assertNotEquals(first, doubled, "followed here, so ranked here on the new prices");
    assertEquals(doubled, ServiceFixtures.runpodTotal(get(id)), "REST reads the followed ranking");

    await(ws.close());
    // the first pass after nobody follows it drops it; the one after that ranks nothing at all
    change(3);
    double priced = metric("gpurent_ranking_live_vendors_total");
    followedPasses = metric("gpurent_ranking_live_followed_seconds_count");
    change(4);
    assertEquals(priced, metric("gpurent_ranking_live_vendors_total"), "a scenario nobody here follows is not ranked by the passes");
    assertEquals(followedPasses, metric("gpurent_ranking_live_followed_seconds_count"), "a pass with nothing followed has no such time");
    String quadrupled = ServiceFixtures.runpodTotal(get(id));
    assertNotEquals(doubled, quadrupled, "read after two more changes: ranked afresh, not the dropped ranking");
    assertEquals(ServiceFixtures.runpodTotal(get(id)), quadrupled, "the same book, the same answer");
  }

  /** RunPod's recorded prices times {@code factor}, fetched, and the pass over the live scenarios ended. */
  private void change(double factor) throws Exception {
    double passes = metric("gpurent_ranking_live_pass_seconds_count");
    fake.rewrite("runpod", body -> ServiceFixtures.scale(body, factor));
    await(client.post(service.port(), "127.0.0.1", "/api/admin/refresh?vendor=runpod").bearerTokenAuthentication(TOKEN).send());
    for (int i = 0; i < 300 && (metric("gpurent_ranking_live_pass_seconds_count") <= passes
        || metric("gpurent_ranking_live_running") > 0); i++) {
      Thread.sleep(50);
    }
    assertTrue(metric("gpurent_ranking_live_pass_seconds_count") > passes, "the pass ended");
  }

  private JsonObject get(String id) throws Exception {
    var r = await(client.get(service.port(), "127.0.0.1", "/api/scenarios/" + id + "/ranking").send());
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  private double metric(String name) throws Exception {
    return ServiceFixtures.metric(client, service, name);
  }
}
