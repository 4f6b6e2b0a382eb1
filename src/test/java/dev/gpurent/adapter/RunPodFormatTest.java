package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class RunPodFormatTest {

  static final Path SAMPLE = Path.of("../shared/data/runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json");
  static final Instant AT = Instant.parse("2025-06-21T23:18:00Z");

  static GpuCatalog catalog;
  static VendorDefinition def;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    VendorDefinition shipped = VendorDefinition.load(Path.of("adapters/runpod.yaml"));
    def = VendorDefinition.from(shipped.config().copy().put("source", SAMPLE.toString()), shipped.where());
  }

  static VendorQuotes parseSample() throws IOException {
    return RunPodFormat.parse(Payload.of(SAMPLE), def, catalog, AT);
  }

  static Map<Billing, Quote> offer(VendorQuotes vq, String offerId) {
    return vq.quotes().stream().filter(q -> q.offerId().equals(offerId))
        .collect(Collectors.toMap(Quote::billing, q -> q));
  }

  static void assertPrice(String expected, Quote q) {
    assertEquals(Money.of(expected, "USD"), q.price(), q.toString());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals(1.0, q.gpuCount());
  }

  @Test
  void parses_runpod_gpu_types() throws IOException {
    VendorQuotes vq = parseSample();
    assertEquals("runpod", vq.vendor());
    assertEquals(147, vq.quotes().size());
    assertEquals(29, vq.rejected().size(), String.join("\n", vq.rejected()));
    assertTrue(vq.quotes().stream().allMatch(q -> q.region().isEmpty() && q.observedAt().equals(AT)
        && q.source().equals("runpod:" + SAMPLE)));

    Map<Billing, Quote> secure = offer(vq, "NVIDIA GeForce RTX 4090/secure");
    assertEquals(4, secure.size(), secure.toString());
    assertEquals("rtx-4090", secure.get(Billing.ON_DEMAND).gpuId());
    assertPrice("0.69", secure.get(Billing.ON_DEMAND));
    assertPrice("0.35", secure.get(Billing.SPOT));
    assertPrice("0.649", secure.get(Billing.THREE_MONTHS));
    assertPrice("0.6", secure.get(Billing.SIX_MONTHS));
    Map<Billing, Quote> community = offer(vq, "NVIDIA GeForce RTX 4090/community");
    assertEquals(2, community.size(), community.toString());
    assertPrice("0.34", community.get(Billing.ON_DEMAND));
    assertPrice("0.2", community.get(Billing.SPOT));

    Map<Billing, Quote> h100 = offer(vq, "NVIDIA H100 80GB HBM3/secure");
    assertEquals("h100-sxm", h100.get(Billing.ON_DEMAND).gpuId());
    assertPrice("2.99", h100.get(Billing.ON_DEMAND));
    assertPrice("1.75", h100.get(Billing.SPOT));
    assertPrice("2.811", h100.get(Billing.THREE_MONTHS));
    assertPrice("2.601", h100.get(Billing.SIX_MONTHS));
    assertPrice("2.69", offer(vq, "NVIDIA H100 80GB HBM3/community").get(Billing.ON_DEMAND));
    assertPrice("1.5", offer(vq, "NVIDIA H100 80GB HBM3/community").get(Billing.SPOT));

    // A100 80GB PCIe: the id resolves to the 80 GB PCIe card, not the ambiguous "A100 PCIe"
    Map<Billing, Quote> a100 = offer(vq, "NVIDIA A100 80GB PCIe/secure");
    assertEquals("a100-80g-pcie", a100.get(Billing.ON_DEMAND).gpuId());
    assertPrice("1.64", a100.get(Billing.ON_DEMAND));
    assertPrice("1.427", a100.get(Billing.THREE_MONTHS));
  }

  @Test
  void rejects_community_prices_when_community_cloud_is_false() throws IOException {
    VendorQuotes vq = parseSample();
    assertTrue(vq.rejected().contains(
        "gpuTypes[0] (AMD Instinct MI300X OAM): communityPrice 0.5 not offered: communityCloud is false (" + Placeholders.RUNPOD_WORDS + ")"),
        String.join("\n", vq.rejected()));
    assertTrue(offer(vq, "AMD Instinct MI300X OAM/community").isEmpty());
    Map<Billing, Quote> mi300x = offer(vq, "AMD Instinct MI300X OAM/secure");
    assertEquals("mi300x", mi300x.get(Billing.ON_DEMAND).gpuId());
    assertPrice("2.49", mi300x.get(Billing.ON_DEMAND));
    assertPrice("1.49", mi300x.get(Billing.SPOT));
    assertPrice("2.117", mi300x.get(Billing.THREE_MONTHS));
    assertPrice("1.992", mi300x.get(Billing.SIX_MONTHS));
    assertEquals(4, mi300x.size(), "oneMonthPrice is null: no MONTHLY quote");

    // the secure side too: A30 is community-only, so its securePrice 0.41 is no offer
    assertTrue(offer(vq, "NVIDIA A30/secure").isEmpty());
    assertTrue(vq.rejected().contains("gpuTypes[3] (NVIDIA A30): securePrice 0.41 not offered: secureCloud is false (" + Placeholders.RUNPOD_WORDS + ")"));
    assertEquals(27, vq.rejected().stream().filter(r -> r.contains("Cloud is false")).count());
  }

  @Test
  void rejects_unknown_gpu_types() throws IOException {
    List<String> unknown = parseSample().rejected().stream().filter(r -> r.contains("unknown GPU")).toList();
    assertEquals(List.of(
        "gpuTypes[34] (Tesla V100-FHHL-16GB): unknown GPU 'Tesla V100-FHHL-16GB' (displayName 'V100 FHHL')",
        "gpuTypes[38] (unknown): unknown GPU 'unknown' (displayName 'unknown')"), unknown);
  }

  @Test
  void accepts_graphql_envelope() throws IOException {
    JsonArray types = new JsonArray(Files.readString(SAMPLE));
    Buffer wrapped = new JsonObject().put("data", new JsonObject().put("gpuTypes", types)).toBuffer();
    VendorQuotes vq = RunPodFormat.parse(Payload.of(wrapped, "test"), def, catalog, AT);
    assertEquals(147, vq.quotes().size());
    assertEquals(29, vq.rejected().size());
  }

  @Test
  void fails_on_graphql_errors_and_garbage() {
    Buffer errors = Buffer.buffer("{\"errors\":[{\"message\":\"Unauthorized\"}]}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunPodFormat.parse(Payload.of(errors, "test"), def, catalog, AT));
    assertTrue(e.getMessage().contains("Unauthorized"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> RunPodFormat.parse(Payload.of(Buffer.buffer("<html>"), "test"), def, catalog, AT));
    assertThrows(IllegalArgumentException.class, () -> RunPodFormat.parse(Payload.of(Buffer.buffer("{\"x\":1}"), "test"), def, catalog, AT));
  }

  @Test
  void requires_query_for_http_source() {
    VendorDefinition noQuery = VendorDefinition.from(def.config().copy().put("source", "https://api.runpod.io/graphql")
        .put("query", null), def.where());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RunPodFactory().create(null, noQuery, catalog));
    assertTrue(e.getMessage().contains("query"), e.getMessage());
  }

  @Test
  void posts_graphql_query_to_http_source(Vertx vertx, VertxTestContext ctx) throws IOException {
    JsonArray types = new JsonArray(Files.readString(SAMPLE));
    String shippedQuery = def.config().getString("query");
    // a loopback server stands in for api.runpod.io/graphql: it answers only a POST of the query
    vertx.createHttpServer()
        .requestHandler(req -> req.body().onSuccess(body -> {
          boolean ok = req.method().name().equals("POST")
              && shippedQuery.equals(body.toJsonObject().getString("query"))
              && req.getHeader("Authorization") != null && req.getHeader("Authorization").startsWith("Bearer") // "Bearer " + RUNPOD_API_KEY (unset here)
              && "application/json".equals(req.getHeader("Content-Type"));
          if (ok) req.response().end(new JsonObject().put("data", new JsonObject().put("gpuTypes", types)).toBuffer());
          else req.response().setStatusCode(400).end("bad request");
        }))
        .listen(0, "127.0.0.1")
        .compose(server -> {
          VendorDefinition http = VendorDefinition.from(
              def.config().copy().put("source", "http://127.0.0.1:" + server.actualPort() + "/graphql"), def.where());
          return new RunPodFactory().create(vertx, http, catalog).fetch();
        })
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(147, vq.quotes().size());
          assertEquals(29, vq.rejected().size());
          assertTrue(vq.quotes().get(0).source().startsWith("runpod:http://127.0.0.1:"));
          ctx.completeNow();
        })));
  }

  @Test
  void fetches_through_vertx(Vertx vertx, VertxTestContext ctx) {
    VendorAdapter adapter = new RunPodFactory().create(vertx, def, catalog);
    adapter.fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(147, vq.quotes().size());
      assertEquals(29, vq.rejected().size());
      assertPrice("0.69", offer(vq, "NVIDIA GeForce RTX 4090/secure").get(Billing.ON_DEMAND));
      ctx.completeNow();
    })));
  }
}
