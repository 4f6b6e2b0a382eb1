package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.http.SecurityHeaders;
import dev.gpurent.service.ranking.RankingBudget;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may hold what, on a service over the recorded RunPod and Vast payloads (and the guide's
 * reference sheet: 3 vendors): the memory budget refuses the largest admitted scenario once it is
 * spent and holds at a restart on a smaller budget; clients are counted by network, and
 * {@code X-Forwarded-For} only from a trusted proxy (Linux routes all of 127/8 to loopback, so a
 * client bound to 127.0.0.2 is another address); wrong admin tokens are limited per client; every
 * answer carries the security headers.
 */
class AdmissionTest {

  /** The largest scenario admitted: 50 workloads (ranking.maxWorkloads) of a 70B model at 500 QPS. */
  static final JsonObject LARGEST = largest();
  /** Its weight as a live scenario: 50 workloads x 3 vendors x 6 KiB. */
  static final long LARGEST_LIVE = 50 * 3 * RankingBudget.LIVE_BYTES_PER_CELL;

  @TempDir Path root;
  RunningService app;
  Vertx vertx;
  WebClient client;
  Bootstrap.Running service;

  @BeforeEach
  void vendors() throws Exception {
    app = RunningService.prepare(root);
    vertx = app.vertx();
    client = app.client();
  }

  @AfterEach
  void stop() throws Exception {
    if (app != null) app.close();
  }

  private void start(Consumer<JsonObject> config) throws Exception {
    service = app.config(config).start();
  }

  static JsonObject largest() {
    JsonArray ws = new JsonArray();
    for (int i = 0; i < 50; i++) {
      ws.add(new JsonObject().put("name", "llm-" + i).put("kind", "inference").put("paramsBillions", 70).put("peakQps", 500)
          .put("secondsPerRequest", 2).put("concurrentPerCard", 4));
    }
    return new JsonObject().put("name", "largest admitted").put("currency", "USD").put("workloads", ws);
  }

  /** A client whose connections leave from {@code address} (any of 127/8). */
  private WebClient from(String address) {
    return WebClient.create(vertx, new WebClientOptions().setLocalAddress(address));
  }

  private HttpResponse<Buffer> register(WebClient c, JsonObject scenario, String forwardedFor) throws Exception {
    HttpRequest<Buffer> req = c.post(service.port(), "127.0.0.1", "/api/scenarios");
    if (forwardedFor != null) req.putHeader("X-Forwarded-For", forwardedFor);
    return await(req.sendJsonObject(scenario));
  }

  private HttpResponse<Buffer> get(String path) throws Exception {
    return await(client.get(service.port(), "127.0.0.1", path).send());
  }

  private static String error(HttpResponse<Buffer> r) {
    return r.bodyAsJsonObject().getString("error");
  }

  @Test
  void three_addresses_of_one_network_share_one_per_client_cap() throws Exception {
    start(c -> c.getJsonObject("ranking").put("maxScenariosPerClient", 2));
    JsonObject small = ServiceFixtures.scenario("team-small.yaml");
    assertEquals(201, register(from("127.0.0.2"), small, null).statusCode());
    assertEquals(201, register(from("127.0.0.3"), small, null).statusCode());
    HttpResponse<Buffer> third = register(from("127.0.0.4"), small, null);
    assertEquals(429, third.statusCode(), third.bodyAsString());
    assertEquals("at most 2 live scenarios per client (127.0.0.0/24); delete one first", error(third));
    // the store keeps each address; the cap counts their network
    assertEquals(List.of("127.0.0.2", "127.0.0.3"), storedClients());
  }

  @Test
  void forwarded_for_is_ignored_from_an_untrusted_peer_and_used_from_a_trusted_proxy() throws Exception {
    start(c -> {
      c.getJsonObject("ranking").put("maxScenariosPerClient", 1);
      c.put("clients", new JsonObject().put("trustedProxies", new JsonArray().add("127.0.0.9")));
    });
    JsonObject small = ServiceFixtures.scenario("team-small.yaml");
    WebClient proxy = from("127.0.0.9");
    // the proxy appends the address it heard from; what the client wrote to the left of it proves nothing
    assertEquals(201, register(proxy, small, "127.0.0.2, 203.0.113.7").statusCode());
    HttpResponse<Buffer> neighbour = register(proxy, small, "203.0.113.80");
    assertEquals(429, neighbour.statusCode(), neighbour.bodyAsString());
    assertEquals("at most 1 live scenarios per client (203.0.113.0/24); delete one first", error(neighbour));
    // from a peer that is no trusted proxy the header is ignored: it counts as its own address
    HttpResponse<Buffer> direct = register(from("127.0.0.2"), small, "198.51.100.1");
    assertEquals(201, direct.statusCode(), direct.bodyAsString());
    HttpResponse<Buffer> again = register(from("127.0.0.3"), small, "203.0.113.9");
    assertEquals(429, again.statusCode(), again.bodyAsString());
    assertEquals("at most 1 live scenarios per client (127.0.0.0/24); delete one first", error(again));
    assertEquals(List.of("127.0.0.2", "203.0.113.7"), storedClients());
  }

  @Test
  void the_largest_admitted_scenario_is_refused_once_the_budget_is_spent() throws Exception {
    // room for two of them in the live share (three quarters of the budget)
    long budget = LARGEST_LIVE * 2 * 4 / 3;
    start(c -> c.getJsonObject("ranking").put("memoryBudget", budget).put("maxScenariosPerClient", 100));
    for (int i = 0; i < 2; i++) {
      HttpResponse<Buffer> r = register(client, LARGEST, null);
      assertEquals(201, r.statusCode(), r.bodyAsString());
    }
    assertEquals(2 * LARGEST_LIVE, (long) ServiceFixtures.metric(client, service, "gpurent_ranking_budget_live_bytes"));
    HttpResponse<Buffer> third = register(client, LARGEST, null);
    assertEquals(429, third.statusCode(), third.bodyAsString());
    assertEquals("live scenarios hold 1.8 MiB of their 1.8 MiB share of the 2.3 MiB ranking budget (ranking.memoryBudget)"
        + " and this one needs 0.9 MiB (workloads x vendors); delete a live scenario, or rank it once with POST /api/rank", error(third));
    // a one-off ranking of it needs more than the quarter left (50 x 3 x 24 KiB): 503, try again later
    HttpResponse<Buffer> once = await(client.post(service.port(), "127.0.0.1", "/api/rank").sendJsonObject(LARGEST));
    assertEquals(503, once.statusCode(), once.bodyAsString());
    assertEquals("1", once.getHeader("Retry-After"));
    assertEquals("busy: rankings under way and live scenarios hold 1.8 MiB of the 2.3 MiB ranking budget (ranking.memoryBudget)"
        + " and this ranking needs 3.5 MiB (workloads x vendors); try again shortly, or with fewer workloads", error(once));
    // a small one fits in what is left, and gives its weight back once answered
    HttpResponse<Buffer> small = await(client.post(service.port(), "127.0.0.1", "/api/rank").sendJsonObject(ServiceFixtures.scenario("team-small.yaml")));
    assertEquals(200, small.statusCode(), small.bodyAsString());
    assertEquals(0, ServiceFixtures.metric(client, service, "gpurent_ranking_budget_oneoff_bytes"));
  }

  @Test
  void the_budget_holds_at_a_restart_on_a_smaller_one() throws Exception {
    start(c -> c.getJsonObject("ranking").put("memoryBudget", LARGEST_LIVE * 2 * 4 / 3));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      HttpResponse<Buffer> r = register(client, LARGEST.copy().put("name", "largest " + i), null);
      assertEquals(201, r.statusCode(), r.bodyAsString());
      ids.add(r.bodyAsJsonObject().getString("id"));
      // the store orders by creation time: a millisecond apart, the first is the oldest
      Thread.sleep(5);
    }
    app.stop();
    service = null;
    // room for one: the oldest is restored, the other is left in the store and says why
    start(c -> c.getJsonObject("ranking").put("memoryBudget", LARGEST_LIVE * 4 / 3));
    HttpResponse<Buffer> first = get("/api/scenarios/" + ids.get(0) + "/ranking");
    assertEquals(200, first.statusCode(), first.bodyAsString());
    assertEquals("largest 0", first.bodyAsJsonObject().getString("scenario"));
    HttpResponse<Buffer> second = get("/api/scenarios/" + ids.get(1) + "/ranking");
    assertEquals(503, second.statusCode(), second.bodyAsString());
    assertEquals("not loaded at start: live scenarios hold 0.9 MiB of their 0.9 MiB share of the 1.2 MiB ranking budget"
        + " (ranking.memoryBudget) and this one needs 0.9 MiB (workloads x vendors); delete a live scenario, or rank it once"
        + " with POST /api/rank; DELETE it, or start the service with a larger budget", error(second));
    assertEquals(1, ServiceFixtures.metric(client, service, "gpurent_ranking_scenarios_unloaded"));
    assertEquals(ids, storedIds());
    // its owner deletes it: gone from the store too
    assertEquals(204, await(client.delete(service.port(), "127.0.0.1", "/api/scenarios/" + ids.get(1)).send()).statusCode());
    assertEquals(404, get("/api/scenarios/" + ids.get(1) + "/ranking").statusCode());
    assertEquals(List.of(ids.get(0)), storedIds());
    assertEquals(0, ServiceFixtures.metric(client, service, "gpurent_ranking_scenarios_unloaded"));
  }

  @Test
  void wrong_admin_tokens_are_answered_429_past_the_limit_per_client() throws Exception {
    start(c -> c.put("clients", new JsonObject().put("adminFailuresPerMinute", 3)));
    WebClient guesser = from("127.0.0.2");
    for (int i = 0; i < 3; i++) {
      HttpResponse<Buffer> r = await(guesser.post(service.port(), "127.0.0.1", "/api/admin/reload").bearerTokenAuthentication("guess-" + i).send());
      assertEquals(401, r.statusCode(), r.bodyAsString());
    }
    // past the limit the token is not even compared: the right one from that network is refused too
    for (String token : new String[] {"guess-4", ServiceFixtures.TOKEN}) {
      HttpResponse<Buffer> r = await(from("127.0.0.3").post(service.port(), "127.0.0.1", "/api/admin/reload").bearerTokenAuthentication(token).send());
      assertEquals(429, r.statusCode(), r.bodyAsString());
      int wait = Integer.parseInt(r.getHeader("Retry-After"));
      assertTrue(wait >= 1 && wait <= 60, "Retry-After " + wait);
      assertEquals("too many wrong admin tokens from this client; try again in " + wait + " s", error(r));
    }
    // another network is not held back
    HttpResponse<Buffer> other = await(from("127.0.1.2").post(service.port(), "127.0.0.1", "/api/admin/reload").bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
    assertEquals(200, other.statusCode(), other.bodyAsString());
  }

  @Test
  void every_answer_carries_the_security_headers() throws Exception {
    start(c -> { });
    for (String path : new String[] {"/", "/app.css", "/api/gpus", "/api/no-such-route", "/health"}) {
      HttpResponse<Buffer> r = get(path);
      assertNotNull(r.getHeader("Content-Security-Policy"), path);
      assertEquals(SecurityHeaders.CSP, r.getHeader("Content-Security-Policy"), path);
      assertTrue(SecurityHeaders.CSP.contains("frame-ancestors 'none'"));
      assertEquals("DENY", r.getHeader("X-Frame-Options"), path);
      assertEquals("nosniff", r.getHeader("X-Content-Type-Options"), path);
      assertEquals("no-referrer", r.getHeader("Referrer-Policy"), path);
    }
    assertEquals(200, get("/").statusCode());
    assertEquals(200, get("/app.css").statusCode());
  }

  /** The stored clients, sorted: two registrations within a millisecond have no order. */
  private List<String> storedClients() throws Exception {
    return column("client").stream().sorted().toList();
  }

  private List<String> storedIds() throws Exception {
    return column("id");
  }

  private List<String> column(String name) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("data/gpurent.db"));
         Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT " + name + " FROM scenarios ORDER BY created_at, id")) {
      while (rs.next()) out.add(rs.getString(1));
    }
    return out;
  }
}
