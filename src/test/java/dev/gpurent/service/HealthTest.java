package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /health}'s named checks against the whole service on RunPod's and Vast's recorded
 * payloads: the store damaged before a start (found by {@code PRAGMA quick_check}) and while
 * running (its next operation fails), memory past {@code health.heapAfterGc} and an
 * OutOfMemoryError, each turning the answer to degraded or down with the check named.
 */
class HealthTest {

  RunningService app;
  Vertx vertx;
  Bootstrap.Running service;
  WebClient client;
  @TempDir Path root;

  @BeforeEach
  void fakes() throws Exception {
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

  private HttpResponse<Buffer> get(String path) throws Exception {
    return await(client.get(service.port(), "127.0.0.1", path).send());
  }

  private JsonObject snapshot() throws Exception {
    HttpResponse<Buffer> r = await(client.post(service.port(), "127.0.0.1", "/api/admin/snapshot")
        .bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
    assertEquals(201, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  /** Polls /health (a generous ceiling, never a timed assertion) until its answer passes {@code wanted}. */
  private HttpResponse<Buffer> healthUntil(Predicate<JsonObject> wanted, String what) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    HttpResponse<Buffer> r;
    do {
      r = get("/health");
      if (wanted.test(r.bodyAsJsonObject())) return r;
      Thread.sleep(100);
    } while (System.nanoTime() < end);
    throw new AssertionError("not within 60 s: " + what + "; last /health: " + r.bodyAsString());
  }

  private static boolean failing(JsonObject health, String check) {
    return health.getJsonArray("failing", new JsonArray()).contains(check);
  }

  @Test
  void every_check_is_named_and_ok_on_a_sound_service() throws Exception {
    start(c -> { });
    HttpResponse<Buffer> r = get("/health");
    assertEquals(200, r.statusCode());
    JsonObject h = r.bodyAsJsonObject();
    for (String check : new String[] {"store", "memory", "eventLoop"}) {
      assertEquals("ok", h.getJsonObject("checks").getJsonObject(check).getString("status"), check + ": " + h.encode());
    }
    assertEquals("available", h.getString("history"));
    assertEquals("snapshots and history available", h.getJsonObject("checks").getJsonObject("store").getString("detail"));
    assertEquals(java.util.Set.of("guide-reference", "runpod", "vast"), h.getJsonObject("vendors").fieldNames());
    // the vendors check as each vendor stands (a vendor whose first fetch a busy machine timed out is named)
    JsonObject vendors = h.getJsonObject("checks").getJsonObject("vendors");
    boolean allFresh = h.getJsonObject("vendors").stream().allMatch(e -> "fresh".equals(e.getValue()));
    assertEquals(allFresh ? "every vendor fresh (3)" : "degraded", allFresh ? vendors.getString("detail") : vendors.getString("status"), h.encode());
    assertEquals(allFresh ? "up" : "degraded", h.getString("status"));
    assertEquals(allFresh ? new JsonArray() : new JsonArray().add("vendors"), h.getJsonArray("failing"));
  }

  @Test
  void a_store_corrupted_while_running_turns_health_degraded_naming_the_store_until_it_reads_again() throws Exception {
    start(c -> { });
    snapshot();
    Path db = root.resolve("data/gpurent.db");
    String url = "jdbc:sqlite:" + db;
    // Another connection writes and checkpoints, so that the service's next read finds the file
    // changed and reads its pages from disk again (SQLite keeps them cached while nothing changes).
    try (Connection other = DriverManager.getConnection(url); Statement st = other.createStatement()) {
      st.execute("PRAGMA user_version = 7");
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    byte[] sound = Files.readAllBytes(db);
    byte[] garbage = new byte[sound.length];
    new java.util.Random(28).nextBytes(garbage);
    Files.write(db, garbage);

    HttpResponse<Buffer> list = get("/api/snapshots");
    assertEquals(503, list.statusCode(), list.bodyAsString());
    HttpResponse<Buffer> r = healthUntil(h -> failing(h, "store"), "the store check failing");
    assertEquals(200, r.statusCode(), "it still ranks: " + r.bodyAsString());
    JsonObject h = r.bodyAsJsonObject();
    assertEquals("degraded", h.getString("status"));
    assertTrue(h.getJsonArray("failing").contains("store") && !h.getJsonArray("failing").contains("memory"), h.encode());
    String detail = h.getJsonObject("checks").getJsonObject("store").getString("detail");
    assertTrue(detail.startsWith("the store's last operation failed (") && detail.contains("not a database"), detail);
    assertTrue(h.getString("history").startsWith("history unavailable: "), h.getString("history"));
    HttpResponse<Buffer> rank = await(client.post(service.port(), "127.0.0.1", "/api/rank").sendJson(ServiceFixtures.scenario("team-small.yaml")));
    assertEquals(200, rank.statusCode(), rank.bodyAsString());

    // the file restored, the next operation succeeds and the check clears
    Files.write(db, sound);
    try (Connection other = DriverManager.getConnection(url); Statement st = other.createStatement()) {
      st.execute("PRAGMA user_version = 8");
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    assertEquals(200, get("/api/snapshots").statusCode());
    r = healthUntil(h2 -> !failing(h2, "store"), "the store check clear again");
    assertEquals("ok", r.bodyAsJsonObject().getJsonObject("checks").getJsonObject("store").getString("status"));
  }

  @Test
  void a_store_damaged_before_the_start_is_found_by_quick_check() throws Exception {
    // three snapshots of RunPod's and Lambda's quotes, then one page of quote rows three quarters into the file overwritten
    Path db = root.resolve("data/gpurent.db");
    dev.gpurent.store.SnapshotStore store = await(dev.gpurent.store.SnapshotStore.open(vertx, dev.gpurent.store.StoreSettings.sqlite(db)));
    java.time.Instant t = java.time.Instant.parse("2026-03-01T02:30:00Z");
    for (int i = 0; i < 3; i++) await(store.write("2026-03-0" + (i + 1), dev.gpurent.store.RealBooks.book(t.plusSeconds(86_400L * i)), t.plusSeconds(86_400L * i)));
    await(store.close());
    byte[] bytes = Files.readAllBytes(db);
    int page = dev.gpurent.store.RealBooks.rowPage(bytes);
    java.util.Arrays.fill(bytes, page * 4096, (page + 1) * 4096, (byte) 0x5a);
    Files.write(db, bytes);

    start(c -> { });
    HttpResponse<Buffer> r = healthUntil(h -> failing(h, "store"), "the store check failing");
    assertEquals(200, r.statusCode());
    String detail = r.bodyAsJsonObject().getJsonObject("checks").getJsonObject("store").getString("detail");
    assertTrue(detail.startsWith("the store failed its integrity check at start (*** in database main ***"), detail);
    assertEquals(200, get("/api/snapshots").statusCode(), "the store opened, and serves what it can");
  }

  @Test
  void memory_past_its_threshold_degrades_and_an_out_of_memory_error_is_down() throws Exception {
    start(c -> c.put("health", new JsonObject().put("heapAfterGc", 0.001)));
    System.gc();  // a collection, so that the heap pools have a usage after one
    HttpResponse<Buffer> r = healthUntil(h -> failing(h, "memory"), "the memory check failing");
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonObject memory = r.bodyAsJsonObject().getJsonObject("checks").getJsonObject("memory");
    assertEquals("degraded", memory.getString("status"));
    assertTrue(memory.getString("detail").startsWith("the heap after the last collection is ")
        && memory.getString("detail").contains("over health.heapAfterGc 0.001"), memory.encode());

    // an OutOfMemoryError in a handler (thrown here, not provoked): the service is down until restarted
    service.vertx().runOnContext(v -> {
      throw new OutOfMemoryError("Java heap space (thrown by the test)");
    });
    r = healthUntil(h -> "down".equals(h.getString("status")), "down after an OutOfMemoryError");
    assertEquals(503, r.statusCode());
    memory = r.bodyAsJsonObject().getJsonObject("checks").getJsonObject("memory");
    assertEquals("down", memory.getString("status"));
    assertTrue(memory.getString("detail").startsWith("an OutOfMemoryError (Java heap space (thrown by the test))"), memory.encode());
  }
}
