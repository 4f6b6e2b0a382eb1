package dev.gpurent.service;
import dev.gpurent.testing.FakeWebhooks;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.alerts.AlertVerticle;
import dev.gpurent.service.alerts.HostResolver;
import dev.gpurent.service.alerts.WebhookSender;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile registration gets from the AlertVerticle: a name that resolves inside is refused
 * at connect time (the resolver is the test's: nothing is looked up), the POSTs one URL or one
 * client's scenarios receive are bounded by the delivery rates whatever the retries (the clock is
 * fixed, so the buckets never refill and the counts are exact), and a host that never answers
 * holds only its own connections.
 */
class WebhookGuardTest {

  @TempDir Path tmp;
  final List<Vertx> opened = new ArrayList<>();

  /**
   * The nodes first, then the servers they called: a server closed while a client still waits on
   * it (the silent host) waits out Vert.x's graceful shutdown, longer than a test should.
   */
  @AfterEach
  void close() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) await(opened.get(i).close());
  }

  static JsonObject settings(Object... keyValues) {
    JsonObject s = new JsonObject().put("attempts", 3).put("backoff", "20ms").put("maxBackoff", "50ms").put("timeout", "60s")
        .put("connectTimeout", "60s");
    for (int i = 0; i < keyValues.length; i += 2) s.put((String) keyValues[i], keyValues[i + 1]);
    return s;
  }

  /** A Vert.x with an AlertVerticle on {@code settings}, names resolved by {@code names} (host -> address). */
  Vertx node(JsonObject settings, Map<String, List<String>> names) throws Exception {
    Vertx v = Vertx.vertx();
    opened.add(v);
    SnapshotStore store = await(SnapshotStore.open(v, StoreSettings.sqlite(tmp.resolve("alerts-" + opened.size() + ".db"))));
    HostResolver resolver = host -> {
      List<String> ips = names.get(host);
      if (ips == null) return Future.failedFuture(new UnknownHostException(host));
      List<InetAddress> all = new ArrayList<>();
      for (String ip : ips) all.add(dev.gpurent.alert.AddressClassifier.literal(ip).orElseThrow());
      return Future.succeededFuture(all);
    };
    await(v.deployVerticle(new AlertVerticle(store, AlertSettings.from(settings), AlertDeliveryTest.CLOCK, resolver)));
    return v;
  }

  static JsonObject rule(String url, int amount) {
    return new JsonObject().put("when", "totalBelow").put("amount", amount).put("to", new JsonObject().put("type", "json").put("url", url));
  }

  /** Registers {@code id} as {@code client} with {@code rules}, then gives it a first ranking at 1800: every rule below 2000+ fires. */
  static void registerAndRank(Vertx v, String id, String client, JsonArray rules) {
    JsonObject registration = new JsonObject().put("name", "team-small").put("workloads", new JsonArray()).put("alerts", rules);
    v.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", id).put("registration", registration).put("client", client));
    AlertDeliveryTest.rank(v, id, AlertDeliveryTest.T0, "runpod", "1800.00", false);
  }

  static JsonArray log(Vertx v, String id) throws Exception {
    return await(v.eventBus().<JsonObject>request(Addresses.ALERTS_LOG, new JsonObject().put("id", id).put("limit", 500))).body()
        .getJsonArray("deliveries");
  }

  /** The log of {@code id} once it has {@code rows} rows and none pending, polled up to 60 s. */
  static JsonArray settled(Vertx v, String id, int rows) throws Exception {
    for (int i = 0; i < 600; i++) {
      JsonArray log = log(v, id);
      if (log.size() == rows && log.stream().noneMatch(d -> ((JsonObject) d).getString("status").equals("pending"))) return log;
      Thread.sleep(100);
    }
    throw new AssertionError("the log of " + id + " did not settle: " + log(v, id).encode());
  }

  /** How many rows of the logs have each (status, lastError). */
  static Map<String, Integer> outcomes(List<JsonArray> logs) {
    Map<String, Integer> out = new TreeMap<>();
    for (JsonArray log : logs) {
      log.forEach(d -> out.merge(((JsonObject) d).getString("status") + ": " + ((JsonObject) d).getString("lastError"), 1, Integer::sum));
    }
    return out;
  }

  @Test
  void a_name_that_resolves_to_loopback_or_private_is_refused_at_connect_time_with_a_neutral_reason() throws Exception {
    FakeWebhooks hooks = await(new FakeWebhooks(Vertx.vertx()).start());
    Vertx v = node(settings("attempts", 2), Map.of("internal.test", List.of("127.0.0.1"), "split.test", List.of("93.184.216.34", "10.0.0.1"),
        "mapped.test", List.of("::ffff:127.0.0.1")));
    String port = hooks.url("/json").replaceAll("^http://127\\.0\\.0\\.1:(\\d+)/json$", "$1");
    JsonArray rules = new JsonArray();
    for (String host : List.of("internal.test", "split.test", "mapped.test", "gone.test")) rules.add(rule("http://" + host + ":" + port + "/json", 2000));
    registerAndRank(v, "g-inside", "", rules);
    assertEquals(Map.of("failed: " + WebhookSender.REFUSED, 4), outcomes(List.of(settled(v, "g-inside", 4))),
        "a name not found and a name found inside read the same");
    assertNull(hooks.more(), "nothing reached the service on loopback");
  }

  @Test
  void twenty_registrations_naming_one_failing_url_get_it_no_more_posts_than_its_rate() throws Exception {
    FakeWebhooks hooks = await(new FakeWebhooks(Vertx.vertx()).start());
    FakeWebhooks.Answer[] down = new FakeWebhooks.Answer[60];
    java.util.Arrays.fill(down, new FakeWebhooks.Answer(500, "down"));
    hooks.script("/json", down);
    Vertx v = node(settings("allowHosts", FakeWebhooks.ALLOWED, "perUrlPerMinute", 10, "perClientPerMinute", 1000), Map.of());
    List<JsonArray> logs = new ArrayList<>();
    for (int i = 0; i < 20; i++) registerAndRank(v, "g-amp-" + i, "attacker", new JsonArray().add(rule(hooks.url("/json"), 2000)));
    for (int i = 0; i < 20; i++) logs.add(settled(v, "g-amp-" + i, 1));
    int posts = 0;
    while (hooks.next(1) != null) posts++;
    assertEquals(10, posts, "3 tries of 20 events would be 60");
    assertEquals(Map.of("failed: " + AlertVerticle.HELD_BACK, 20), outcomes(logs), "each event's last try found the bucket empty");
  }

  @Test
  void one_clients_scenarios_share_its_rate_and_another_client_keeps_its_own() throws Exception {
    FakeWebhooks hooks = await(new FakeWebhooks(Vertx.vertx()).start());
    Vertx v = node(settings("allowHosts", FakeWebhooks.ALLOWED, "perUrlPerMinute", 1000, "perClientPerMinute", 10), Map.of());
    List<JsonArray> logs = new ArrayList<>();
    for (int i = 0; i < 20; i++) registerAndRank(v, "g-client-" + i, "attacker", new JsonArray().add(rule(hooks.url("/json") + "?n=" + i, 2000)));
    registerAndRank(v, "g-other", "someone-else", new JsonArray().add(rule(hooks.url("/json"), 2000)));
    for (int i = 0; i < 20; i++) logs.add(settled(v, "g-client-" + i, 1));
    assertEquals("delivered", settled(v, "g-other", 1).getJsonObject(0).getString("status"));
    int posts = 0;
    while (hooks.next(1) != null) posts++;
    assertEquals(11, posts, "10 of the attacker's URLs, each differing, and the other client's");
    assertEquals(Map.of("delivered: null", 10, "failed: " + AlertVerticle.HELD_BACK, 10), outcomes(logs));
  }

  @Test
  void a_host_that_never_answers_holds_its_own_connections_and_a_healthy_host_is_delivered_meanwhile() throws Exception {
    Vertx other = Vertx.vertx();
    opened.add(other);
    AtomicInteger stuck = new AtomicInteger();
    var silent = await(other.createHttpServer().requestHandler(req -> stuck.incrementAndGet()).listen(0, "127.0.0.1"));
    FakeWebhooks hooks = await(new FakeWebhooks(other).start());
    Vertx v = node(settings("allowHosts", FakeWebhooks.ALLOWED, "connectionsPerHost", 2, "attempts", 1), Map.of());
    JsonArray slowRules = new JsonArray();
    for (int i = 0; i < 5; i++) slowRules.add(rule("http://127.0.0.1:" + silent.actualPort() + "/hook", 2000 + i));
    registerAndRank(v, "g-slow", "a", slowRules);
    for (int i = 0; i < 600 && stuck.get() < 2; i++) Thread.sleep(100);
    assertEquals(2, stuck.get(), "the silent host holds its 2 connections; its 3 other tries wait for them");
    registerAndRank(v, "g-healthy", "b", new JsonArray().add(rule(hooks.url("/json"), 2000)));
    assertNotNull(hooks.next(60), "the healthy host got its alert");
    assertEquals("delivered", settled(v, "g-healthy", 1).getJsonObject(0).getString("status"));
    assertEquals(List.of("pending", "pending", "pending", "pending", "pending"),
        log(v, "g-slow").stream().map(d -> ((JsonObject) d).getString("status")).toList(), "while the silent host's are still pending");
    assertEquals(2, stuck.get());
  }
}
