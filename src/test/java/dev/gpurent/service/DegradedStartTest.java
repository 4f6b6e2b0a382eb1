package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service started on a root whose files are damaged: {@code data/gpurent.db} is garbage and
 * a vendor's last good quotes file is not JSON. It must start, rank and report what is wrong:
 * history answers 503 naming the file and what to do, {@code /health} says history is
 * unavailable, the corrupt last-good file is moved aside and said in that vendor's status.
 */
class DegradedStartTest {

  static RunningService app;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root).config(config -> config.getJsonObject("quotes").put("cacheDir", "data/last-good"));
    Files.createDirectories(root.resolve("data/last-good"));
    byte[] garbage = new byte[64 * 1024];
    new java.util.Random(15).nextBytes(garbage);
    Files.write(root.resolve("data/gpurent.db"), garbage);
    Files.writeString(root.resolve("data/last-good/runpod.json"), "{\"vendor\": \"runpod\", \"quotes\": [tru");
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static HttpResponse<Buffer> get(String path) throws Exception {
    return ServiceFixtures.await(client.get(service.port(), "127.0.0.1", path).send());
  }

  @Test
  void ranks_with_a_corrupt_database() throws Exception {
    JsonObject scenario = new JsonObject(ServiceFixtures.castMap(YamlFiles.load(Path.of("config/scenarios/team-small.yaml"))));
    HttpResponse<Buffer> r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/rank").sendJsonObject(scenario));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    assertFalse(r.bodyAsJsonObject().getJsonArray("plans").isEmpty());
  }

  @Test
  void health_says_history_unavailable() throws Exception {
    HttpResponse<Buffer> r = get("/health");
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonObject h = r.bodyAsJsonObject();
    assertEquals("degraded", h.getString("status"));
    assertTrue(h.getString("history").startsWith("history unavailable: data/gpurent.db cannot be opened"), h.encode());
  }

  @Test
  void history_routes_answer_503_naming_the_file_and_what_to_do() throws Exception {
    for (String path : new String[] {"/api/history", "/api/snapshots", "/api/snapshots/1", "/api/snapshots/1/diff"}) {
      HttpResponse<Buffer> r = get(path);
      assertEquals(503, r.statusCode(), path + ": " + r.bodyAsString());
      String error = r.bodyAsJsonObject().getString("error");
      assertTrue(error.startsWith("history unavailable: data/gpurent.db cannot be opened"), error);
      assertTrue(error.contains("move it aside or restore it from a backup, then restart"), error);
      assertFalse(error.contains(root.toAbsolutePath().toString()), error);
      assertEquals("1", r.getHeader("Retry-After"));
    }
    HttpResponse<Buffer> take = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/snapshot")
        .bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
    assertEquals(503, take.statusCode(), take.bodyAsString());
  }

  @Test
  void a_corrupt_last_good_file_is_moved_aside_and_said_in_the_vendor_status() throws Exception {
    assertFalse(Files.exists(root.resolve("data/last-good/runpod.json.corrupt")) && Files.size(root.resolve("data/last-good/runpod.json.corrupt")) == 0);
    assertTrue(Files.exists(root.resolve("data/last-good/runpod.json.corrupt")));
    JsonArray vendors = get("/api/vendors").bodyAsJsonArray();
    JsonObject runpod = vendors.stream().map(JsonObject.class::cast).filter(v -> v.getString("vendor").equals("runpod")).findFirst().orElseThrow();
    assertEquals("its last good quotes file runpod.json could not be read (not valid JSON); moved aside as runpod.json.corrupt",
        runpod.getString("notice"));
    assertEquals("fresh", runpod.getString("freshness"), "fetched anew all the same");
  }
}
