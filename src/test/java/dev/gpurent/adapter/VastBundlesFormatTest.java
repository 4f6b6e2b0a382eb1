package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.Stock;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The {@code vast-bundles} kind against Vast.ai's own OpenAPI spec for POST /api/v0/bundles/
 * ({@code ../shared/data/vast/openapi/search_offers.yaml}, vast-ai/vast-cli). No real recorded
 * answer exists (PROVENANCE.md, "Not found"): the spec's example response is the only payload,
 * and its values are FICTIONAL ("Imaginary RTX 9999", "Atlantis, AT", "QuantumX 128-Core
 * Processor"). The tests parse that example as it stands, and, to show the quote path, the same
 * example record COPIED with only {@code gpu_name} changed to a real Vast name.
 */
@ExtendWith(VertxExtension.class)
public class VastBundlesFormatTest {

  static final Path SPEC = Path.of("../shared/data/vast/openapi/search_offers.yaml");
  static final Instant AT = Instant.parse("2026-02-19T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    shipped = VendorDefinition.load(Path.of("adapters/vast-api.yaml"));
  }

  /**
   * The spec's example 200 answer, {@code {"offers": {...one offer...}}}, as JSON. The spec repeats
   * the key {@code description} under {@code order} (line 259), which YamlFiles refuses, so it is
   * read with SnakeYAML's defaults (the later value wins; the example is not affected).
   */
  @SuppressWarnings("unchecked")
  public static JsonObject specExample() {
    Map<String, Object> spec;
    try (Reader r = Files.newBufferedReader(SPEC)) {
      spec = (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Object> post = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) spec.get("paths"))
        .get("/api/v0/bundles/")).get("post");
    Map<String, Object> ok = (Map<String, Object>) ((Map<String, Object>) post.get("responses")).get("200");
    Map<String, Object> json = (Map<String, Object>) ((Map<String, Object>) ok.get("content")).get("application/json");
    return new JsonObject((Map<String, Object>) json.get("example"));
  }

  /** The example offer copied with only gpu_name changed. */
  static JsonObject exampleOfferNamed(String gpuName) {
    return specExample().getJsonObject("offers").copy().put("gpu_name", gpuName);
  }

  @Test
  void parses_the_spec_example_and_rejects_its_fictional_gpu() {
    JsonObject example = specExample();
    JsonObject offer = example.getJsonObject("offers");   // the spec gives one object, not an array
    assertEquals("Imaginary RTX 9999", offer.getString("gpu_name"));
    VastBundlesFormat.Result r = VastBundlesFormat.parse(Payload.of(example.toBuffer(), "test"), shipped, catalog, AT);
    assertEquals(1, r.offers());
    assertEquals(0, r.quotes().size());
    assertEquals(List.of("offers[0] (vast-12345678): unknown GPU 'Imaginary RTX 9999' (gpu_ram 24576 MB)"), r.rejected());
  }

  /** The example record with gpu_name "RTX 4090" (the only change): its fictional prices become quotes. */
  @Test
  void quotes_the_example_offer_under_a_real_gpu_name() {
    JsonObject answer = new JsonObject().put("offers", new JsonArray().add(exampleOfferNamed("RTX 4090")));
    VastBundlesFormat.Result r = VastBundlesFormat.parse(Payload.of(answer.toBuffer(), "test"), shipped, catalog, AT);
    assertEquals(List.of(), r.rejected());
    assertEquals(2, r.quotes().size());
    Quote onDemand = r.quotes().get(0);
    Quote spot = r.quotes().get(1);
    assertEquals(Billing.ON_DEMAND, onDemand.billing());
    assertEquals(Money.of("0.234567", "USD"), onDemand.price());       // dph_total, for all 4 GPUs
    assertEquals(Billing.SPOT, spot.billing());
    assertEquals(Money.of("0.111111", "USD"), spot.price());           // min_bid
    for (Quote q : r.quotes()) {
      assertEquals("vast-12345678", q.offerId());
      assertEquals("rtx-4090", q.gpuId());
      assertEquals(4.0, q.gpuCount());
      assertEquals("AT", q.region());                                  // "Atlantis, AT"
      assertEquals(32.0, q.vcpus());                                   // cpu_cores_effective
      assertEquals(64.0, q.ramGiB());                                  // cpu_ram 65536 MB
      assertEquals(PriceUnit.HOUR, q.unit());
      assertEquals(AT, q.observedAt());
      assertEquals("vast-api", q.vendor());
    }
  }

  /**
   * The spec's example offer says {@code rentable: true}: both its quotes are available, in the
   * spec's words. A copy with only gpu_name and rentable changed (false) gives quotes the engine never picks.
   */
  @Test
  void carries_the_offers_rentable_flag_as_its_stock() {
    assertEquals(Boolean.TRUE, specExample().getJsonObject("offers").getBoolean("rentable"));
    JsonObject taken = exampleOfferNamed("RTX 4090").put("rentable", false).put("id", 2);
    JsonObject answer = new JsonObject().put("offers", new JsonArray().add(exampleOfferNamed("RTX 4090")).add(taken));
    VastBundlesFormat.Result r = VastBundlesFormat.parse(Payload.of(answer.toBuffer(), "test"), shipped, catalog, AT);
    assertEquals(List.of("vast-12345678 on-demand available rentable: true", "vast-12345678 spot available rentable: true",
            "vast-2 on-demand unavailable rentable: false", "vast-2 spot unavailable rentable: false"),
        r.quotes().stream().map(q -> q.offerId() + " " + q.billing() + " " + q.stock().state().wire() + " " + q.stock().said()).toList());
    assertEquals(Stock.UNKNOWN, VastBundlesFormat.stock(null), "an answer without rentable states nothing");
  }

  /** Copies of the example record with only gpu_name changed: names that need gpu_ram to say which card. */
  @Test
  void resolves_ambiguous_vast_names_with_gpu_ram() {
    JsonObject a100 = exampleOfferNamed("A100 SXM4").put("gpu_ram", 81920).put("id", 1);
    JsonObject v100 = exampleOfferNamed("Tesla V100").put("gpu_ram", 32768).put("id", 2);
    JsonObject h100 = exampleOfferNamed("H100 SXM").put("id", 3);
    JsonObject noBid = exampleOfferNamed("RTX 4090").put("min_bid", 0).put("id", 4);
    JsonObject noPrice = exampleOfferNamed("RTX 4090").put("dph_total", 0).put("id", 5);
    JsonObject again = exampleOfferNamed("RTX 4090").put("id", 1);
    VastBundlesFormat.Result r = VastBundlesFormat.parse(Payload.of(new JsonObject()
        .put("offers", new JsonArray().add(a100).add(v100).add(h100).add(noBid).add(noPrice).add(again)).toBuffer(), "test"),
        shipped, catalog, AT);
    assertEquals(6, r.offers());
    assertEquals("a100-80g-sxm", r.quotes().stream().filter(q -> q.offerId().equals("vast-1")).findFirst().orElseThrow().gpuId());
    assertEquals("v100-16g", r.quotes().stream().filter(q -> q.offerId().equals("vast-2")).findFirst().orElseThrow().gpuId(),
        "'Tesla V100' alone is the 16 GB card in the catalog; the name wins over gpu_ram when it resolves");
    assertEquals("h100-sxm", r.quotes().stream().filter(q -> q.offerId().equals("vast-3")).findFirst().orElseThrow().gpuId());
    assertEquals(1, r.quotes().stream().filter(q -> q.offerId().equals("vast-4")).count());  // no spot quote at min_bid 0
    assertEquals(7, r.quotes().size());
    assertEquals(List.of(
        "offers[4] (vast-5): dph_total '0' is not an offer",
        "offers[5] (vast-1): id appears twice; the second is ignored"), r.rejected());
  }

  @Test
  void reads_country_codes_from_geolocation() {
    assertEquals("AT", VastBundlesFormat.country("Atlantis, AT"));
    assertEquals("US", VastBundlesFormat.country("Texas, US"));
    assertEquals("SE", VastBundlesFormat.country("SE"));
    assertEquals("", VastBundlesFormat.country(null));
    assertEquals("", VastBundlesFormat.country("Somewhere"));
  }

  @Test
  void refuses_an_error_answer() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VastBundlesFormat.parse(
        Payload.of(Buffer.buffer("{\"error\": \"invalid_request\", \"msg\": \"Invalid json body\"}"), "test"), shipped, catalog, AT));
    assertEquals("Vast.ai answered with an error: invalid_request Invalid json body", e.getMessage());
  }

  @Test
  void ships_disabled_with_a_key_from_the_environment() {
    assertFalse(shipped.enabled());
    assertEquals("Bearer env:VAST_API_KEY", shipped.config().getJsonObject("headers").getString("Authorization"));
    assertEquals("vast-bundles", shipped.kind());
  }

  @Test
  void posts_the_query_to_an_http_source(Vertx vertx, VertxTestContext ctx) {
    JsonObject answer = new JsonObject().put("offers", new JsonArray().add(exampleOfferNamed("RTX 4090")));
    JsonObject query = shipped.config().getJsonObject("query");
    vertx.createHttpServer()
        .requestHandler(req -> req.body().onSuccess(body -> {
          boolean ok = req.method().name().equals("POST") && query.equals(body.toJsonObject())
              && req.getHeader("Authorization") != null && req.getHeader("Authorization").startsWith("Bearer")
              && "application/json".equals(req.getHeader("Content-Type"));
          if (ok) req.response().end(answer.toBuffer());
          else req.response().setStatusCode(400).end("{\"error\": \"invalid_request\"}");
        }))
        .listen(0, "127.0.0.1")
        .compose(server -> new VastBundlesFactory().create(vertx, VendorDefinition.from(shipped.config().copy()
            .put("source", "http://127.0.0.1:" + server.actualPort() + "/api/v0/bundles/"), shipped.where()), catalog).fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(2, vq.quotes().size());
          assertTrue(vq.quotes().get(0).source().startsWith("vast-bundles:http://127.0.0.1:"));
          ctx.completeNow();
        })));
  }

  @Test
  void fetches_a_saved_answer_through_vertx(Vertx vertx, VertxTestContext ctx, @TempDir Path dir) throws IOException {
    Path file = dir.resolve("bundles.json");
    Files.write(file, specExample().toBuffer().getBytes());
    VendorDefinition def = VendorDefinition.from(shipped.config().copy().put("source", file.toString()), shipped.where());
    new VastBundlesFactory().create(vertx, def, catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(0, vq.quotes().size());
      assertEquals(List.of("offers[0] (vast-12345678): unknown GPU 'Imaginary RTX 9999' (gpu_ram 24576 MB)"), vq.rejected());
      ctx.completeNow();
    })));
  }
}
