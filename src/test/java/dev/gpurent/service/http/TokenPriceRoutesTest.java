package dev.gpurent.service.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/token-prices} on the service as {@code serve} starts it, its config naming the
 * recorded per-token files of OpenComputePrices (2026-03-22); the vendors read from recorded files.
 */
class TokenPriceRoutesTest {

  static final Path TOKENS = ServiceFixtures.DATA.resolve("opencomputeprices/2026-03-22").toAbsolutePath();
  static RunningService app;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root, (dir, fake) -> ServiceFixtures.writeRoot(dir, v -> ServiceFixtures.DATA.resolve(v.equals("runpod")
            ? "runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"
            : "skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv").toAbsolutePath().toString()))
        .config(c -> c.put("tokenPrices", new JsonObject().put("files", new JsonArray(List.of(
            TOKENS.resolve("openrouter.csv").toString(), TOKENS.resolve("deepinfra.csv").toString(),
            TOKENS.resolve("together.csv").toString(), TOKENS.resolve("novita.csv").toString())))))
        .env(Map.of());
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static JsonObject get(String path, int status) throws Exception {
    var r = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", path).send());
    assertEquals(status, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  @Test
  void answers_a_models_quotes_per_million_with_their_rows_and_every_refused_row() throws Exception {
    JsonObject body = get("/api/token-prices?model=llama-3.3-70b", 200);
    // deepinfra Turbo: 3.2e-05 US cents a token out = 0.32 USD a million; openrouter "0.00000032" USD = 0.32;
    // novita "$0.4 /Mt"; deepinfra 4e-05 cents = 0.40; together "$0.88"
    assertEquals(List.of("deepinfra deepinfra.csv line 24 0.32", "openrouter openrouter.csv line 259 0.32", "novita novita.csv line 73 0.4",
            "deepinfra deepinfra.csv line 64 0.4", "together together.csv line 6 0.88"),
        body.getJsonArray("quotes").stream().map(o -> (JsonObject) o)
            .map(q -> q.getString("provider") + " " + q.getString("source") + " " + q.getString("outputPerMillion")).toList());
    assertEquals(5, body.getInteger("total"));
    assertEquals(List.of("openrouter.csv", "deepinfra.csv", "together.csv", "novita.csv"), body.getJsonArray("sources").getList());
    assertEquals("novita.csv line 22: input_price '-' is no price in the source's unit ('$x /Mt')", body.getJsonArray("refused").getString(0));
    assertEquals(1, get("/api/token-prices?model=llama-3.3-70b&limit=1", 200).getJsonArray("quotes").size());
    // 321 + 185 + 20 + 78 quotes in all
    assertEquals(604, get("/api/token-prices?limit=0", 200).getInteger("total"));
  }

  @Test
  void refuses_a_bad_limit_or_an_overlong_model_naming_the_field() throws Exception {
    assertEquals("limit", get("/api/token-prices?limit=-1", 400).getJsonArray("fields").getJsonObject(0).getString("field"));
    assertEquals("model", get("/api/token-prices?model=" + "x".repeat(201), 400).getJsonArray("fields").getJsonObject(0).getString("field"));
  }
}
