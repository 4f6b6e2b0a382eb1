package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class GcpBillingCatalogAdapterTest {

  static final Path JUMBO = Path.of("../shared/data/gcp/cloud-billing-catalog/jumbo2020-gcp_gpu_skus.skuId-0-D.json");
  static final Path OPENCOST = Path.of("../shared/data/gcp/cloud-billing-catalog/opencost-skus.json");
  static final Instant FETCHED = Instant.parse("2026-08-01T00:00:00Z");
  /** Every SKU of the Jumbo2020 file carries this effectiveTime (the time of that request). */
  static final Instant JUMBO_AT = Instant.parse("2025-06-16T20:08:26.437914Z");
  static final String FAKE_KEY = "AIzaFAKE-test-key-0123456789";
  static final Function<String, String> ENV = name -> name.equals("GCP_API_KEY") ? FAKE_KEY : null;

  static GpuCatalog catalog;
  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    shipped = VendorDefinition.load(Path.of("adapters/gcp-catalog.yaml"));
  }

  static VendorDefinition withSource(String source) {
    return VendorDefinition.from(shipped.config().copy().put("source", source), shipped.where());
  }

  /** The shipped definition with {@code gpuOnlyRows: keep}: every GPU-only SKU a quote, to check how each is read. */
  static VendorDefinition keeping(String source) {
    return VendorDefinition.from(shipped.config().copy().put("source", source).put("gpuOnlyRows", "keep"), shipped.where());
  }

  static GcpBillingCatalogAdapter.Result parse(Path file) throws IOException {
    return GcpBillingCatalogAdapter.parse(Buffer.buffer(Files.readAllBytes(file)), keeping(file.toString()), catalog,
        FETCHED);
  }

  /** The kept quotes of one GPU (its name in the SKU descriptions) in one region, by billing mode. */
  static Map<Billing, Quote> offer(GcpBillingCatalogAdapter.Result r, String gpuName, String region) {
    String offerId = gpuName + " (GPU only, host VM extra)";
    return r.quotes().stream().filter(q -> q.offerId().equals(offerId) && q.region().equals(region))
        .collect(Collectors.toMap(Quote::billing, q -> q));
  }

  static void assertPrice(String usd, Quote q) {
    assertEquals(Money.of(usd, "USD"), q.price(), q.toString());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals(1.0, q.gpuCount());
  }

  @Test
  void parses_jumbo_gpu_skus_with_regions_from_descriptions() throws IOException {
    GcpBillingCatalogAdapter.Result r = parse(JUMBO);
    assertEquals(1411, r.skus());
    assertEquals(0, r.nonGpuSkipped());
    assertEquals(0, r.duplicatesDropped());
    // 984 SKUs kept: 940 of one region + 44 "Americas" SKUs of three regions
    assertEquals(1058, r.quotes().size());
    assertEquals(427, r.rejected().size());
    assertEquals(Map.of(Billing.ON_DEMAND, 263L, Billing.SPOT, 269L, Billing.YEARLY, 258L, Billing.THREE_YEARS, 268L),
        r.quotes().stream().collect(Collectors.groupingBy(Quote::billing, Collectors.counting())));
    assertTrue(r.quotes().stream().allMatch(q -> q.vendor().equals("gcp-catalog") && q.priceDate().equals(JUMBO_AT) && q.observedAt().equals(FETCHED)
        && q.source().equals("gcp-billing-catalog:" + JUMBO) && q.vcpus() == 0));

    // skus[1] 0032-6F6D-C48E "Nvidia L4 GPU attached to Spot Preemptible VMs running in Montreal": 0 units + 184998100 nanos
    Quote l4 = offer(r, "Nvidia L4 GPU", "northamerica-northeast1").get(Billing.SPOT);
    assertEquals("l4", l4.gpuId());
    assertPrice("0.1849981", l4);
    // 9A8D-FD21-8B23 "Commitment v1: Nvidia Tesla A100 GPU running in EMEA for 1 Year": 1 + 848362040 nanos
    Map<Billing, Quote> a100 = offer(r, "Nvidia Tesla A100 GPU", "europe-west1");
    assertEquals("a100-40g-sxm", a100.get(Billing.YEARLY).gpuId());
    assertPrice("1.84836204", a100.get(Billing.YEARLY));
    assertPrice("2.933908", a100.get(Billing.ON_DEMAND));     // 50D9-B0E2-1064
    assertPrice("1.1736", a100.get(Billing.SPOT));            // 0BEC-93C3-3036
    // 2C3A-BAB7-8C82 "Commitment v1: Nvidia H100 80GB GPU running in Americas for 3 Years": one quote per region
    for (String region : List.of("us-central1", "us-east1", "us-west1")) {
      Quote h100 = offer(r, "Nvidia H100 80GB GPU", region).get(Billing.THREE_YEARS);
      assertEquals("h100-sxm", h100.gpuId());
      assertPrice("4.299898566", h100);
    }
    // Belgium: the A3 Mega GPU is its own offer with its own price
    assertPrice("10.78698", offer(r, "Nvidia H100 80GB GPU", "europe-west1").get(Billing.ON_DEMAND));
    assertPrice("11.39008", offer(r, "Nvidia H100 80GB Mega GPU", "europe-west1").get(Billing.ON_DEMAND));
    assertEquals("h100-sxm", offer(r, "Nvidia H100 80GB Mega GPU", "europe-west1").get(Billing.ON_DEMAND).gpuId());
    assertEquals("h200", offer(r, "H200 141GB GPU", "us-east4").get(Billing.ON_DEMAND).gpuId());   // "Northern Virginia"
    assertPrice("9.31174", offer(r, "H200 141GB GPU", "us-east4").get(Billing.ON_DEMAND));
  }

  @Test
  void rejects_reservations_dws_licences_and_zero_prices_with_reasons() throws IOException {
    List<String> rejected = parse(JUMBO).rejected();
    assertTrue(rejected.contains("skus[30] 04C1-B7EE-A903 'Reserved Nvidia Tesla A100 GPU in Milan': reservation-only: "
        + "capacity reserved ahead, not rentable on demand or as a commitment"), rejected.get(0));
    assertTrue(rejected.contains("skus[25] 03EF-757B-7BD8 'Licensing Fee for Bitnami Alchemy (GPU cost)': "
        + "a licence fee charged per GPU, not the price of a GPU"));
    assertEquals(180, rejected.stream().filter(s -> s.contains(": reservation-only: ")).count());
    assertEquals(108, rejected.stream().filter(s -> s.contains("reserved ahead in DWS Calendar mode")).count());
    assertEquals(130, rejected.stream().filter(s -> s.contains("a licence fee charged per GPU")).count());
    assertEquals(103, rejected.stream().filter(s -> s.contains(": DWS (Dynamic Workload Scheduler) defined-duration")).count());
    List<String> zero = rejected.stream().filter(s -> s.endsWith("USD is not an offer")).toList();
    assertEquals(14, zero.size());
    assertTrue(zero.stream().anyMatch(s -> s.endsWith("'Nvidia Tesla V100 GPU running in Jakarta': price 0 USD is not an offer")),
        zero.toString());
  }

  @Test
  void parses_opencost_page_with_categories_and_service_regions() throws IOException {
    GcpBillingCatalogAdapter.Result r = parse(OPENCOST);
    assertEquals(7, r.skus());
    assertEquals(6, r.nonGpuSkipped());
    assertEquals(3, r.quotes().size());
    assertEquals(List.of("6 non-GPU SKUs skipped (resourceGroup CPU: 3, resourceGroup RAM: 3)"), r.rejected());
    for (Quote q : r.quotes()) {
      assertEquals("Nvidia Tesla A100 GPU (GPU only, host VM extra)", q.offerId());
      assertEquals("a100-40g-sxm", q.gpuId());
      assertEquals(Billing.ON_DEMAND, q.billing());
      assertPrice("2.933908", q);
      assertEquals(Instant.parse("2023-03-24T10:52:50.681Z"), q.priceDate(), "the SKU's effectiveTime");
      assertEquals(FETCHED, q.observedAt());
    }
    assertEquals(List.of("us-central1", "us-east1", "us-west1"), r.quotes().stream().map(Quote::region).toList());
    // the same SKU (039F-D0DA-4055) in the Jumbo2020 file has no serviceRegions: "Americas" gives the same regions
    GcpBillingCatalogAdapter.Result jumbo = parse(JUMBO);
    for (String region : List.of("us-central1", "us-east1", "us-west1")) {
      assertPrice("2.933908", offer(jumbo, "Nvidia Tesla A100 GPU", region).get(Billing.ON_DEMAND));
    }
  }

  /** A real SKU record of the sample, one field changed, to reach a rule no recorded SKU reaches. */
  static JsonObject realSku(Path file, String skuId) throws IOException {
    Object root = Buffer.buffer(Files.readAllBytes(file)).toJsonValue();
    JsonArray skus = root instanceof JsonArray a ? a : ((JsonObject) root).getJsonArray("skus");
    for (Object o : skus) {
      if (((JsonObject) o).getString("skuId").equals(skuId)) return ((JsonObject) o).copy();
    }
    throw new AssertionError(skuId);
  }

  @Test
  void rejects_unknown_locations_gpus_and_contradicting_usage_types() throws IOException {
    JsonObject galaxy = realSku(JUMBO, "0008-F633-76AA");   // L4 spot in Hong Kong
    galaxy.put("description", "Nvidia L4 GPU attached to Spot Preemptible VMs running in Galaxy Frankfurt");
    JsonObject unknownGpu = realSku(JUMBO, "003E-D940-4BC0");  // P100 in Seoul
    unknownGpu.put("description", "Nvidia Tesla Q900 GPU running in Seoul");
    JsonObject contradicted = realSku(OPENCOST, "039F-D0DA-4055");
    contradicted.getJsonObject("category").put("usageType", "Preemptible");
    JsonObject page = new JsonObject().put("skus", new JsonArray().add(galaxy).add(unknownGpu).add(contradicted));
    GcpBillingCatalogAdapter.Result r = GcpBillingCatalogAdapter.parse(page.toBuffer(), withSource("x.json"), catalog, FETCHED);
    assertEquals(0, r.quotes().size());
    assertEquals(List.of(
        "skus[0] 0008-F633-76AA 'Nvidia L4 GPU attached to Spot Preemptible VMs running in Galaxy Frankfurt': "
            + "unknown location 'Galaxy Frankfurt'",
        "skus[1] 003E-D940-4BC0 'Nvidia Tesla Q900 GPU running in Seoul': unknown GPU 'Nvidia Tesla Q900 GPU'",
        "skus[2] 039F-D0DA-4055 'Nvidia Tesla A100 GPU running in Americas': usageType Preemptible contradicts the "
            + "description (on-demand)"), r.rejected());
  }

  @Test
  void maps_every_location_of_the_recorded_gpu_skus() {
    for (String loc : List.of("APAC", "Alabama", "Americas", "Belgium", "Berlin", "Columbus", "Dallas", "Dammam", "Delhi",
        "Doha", "EMEA", "Finland", "Frankfurt", "Hong Kong", "Israel", "Jakarta", "Japan", "Johannesburg", "Las Vegas",
        "London", "Los Angeles", "Madrid", "Melbourne", "Mexico", "Milan", "Montreal", "Mumbai", "Netherlands",
        "Northern Virginia", "Osaka", "Paris", "Phoenix", "Salt Lake City", "Santiago", "Sao Paulo", "Seoul", "Singapore",
        "Stockholm", "Sydney", "Taiwan", "TelAviv", "Tokyo", "Toronto", "Turin", "Virginia", "Warsaw", "Zurich")) {
      assertTrue(GcpBillingCatalogAdapter.LOCATIONS.containsKey(GcpBillingCatalogAdapter.locationKey(loc)), loc);
    }
    assertEquals(List.of("northamerica-northeast1"),
        GcpBillingCatalogAdapter.LOCATIONS.get(GcpBillingCatalogAdapter.locationKey("Montréal")));
    assertEquals(List.of("me-west1"), GcpBillingCatalogAdapter.LOCATIONS.get(GcpBillingCatalogAdapter.locationKey("Tel Aviv")));
    assertNull(GcpBillingCatalogAdapter.LOCATIONS.get(GcpBillingCatalogAdapter.locationKey("Galaxy Frankfurt")));
  }

  @Test
  void fails_on_payloads_that_are_not_sku_pages() {
    VendorDefinition def = withSource("x.json");
    assertThrows(IllegalArgumentException.class,
        () -> GcpBillingCatalogAdapter.parse(Buffer.buffer("<html>"), def, catalog, FETCHED));
    assertThrows(IllegalArgumentException.class,
        () -> GcpBillingCatalogAdapter.parse(Buffer.buffer("{\"services\":[]}"), def, catalog, FETCHED));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GcpBillingCatalogAdapter.parse(
        Buffer.buffer("{\"error\":{\"code\":403,\"message\":\"The request is missing a valid API key.\"}}"), def, catalog,
        FETCHED));
    assertTrue(e.getMessage().contains("missing a valid API key"), e.getMessage());
  }

  @Test
  void refuses_keys_in_the_yaml_and_needs_the_key_variable_name() {
    JsonObject c = shipped.config().copy().put("apiKey", FAKE_KEY);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GcpBillingCatalogAdapter.adapter(
        null, VendorDefinition.from(c, shipped.where()), catalog, ENV));
    assertFalse(e.getMessage().contains(FAKE_KEY), e.getMessage());
    assertTrue(e.getMessage().contains("apiKeyEnv"), e.getMessage());
    JsonObject noEnv = shipped.config().copy();
    noEnv.remove("apiKeyEnv");
    e = assertThrows(IllegalArgumentException.class, () -> GcpBillingCatalogAdapter.adapter(
        null, VendorDefinition.from(noEnv, shipped.where()), catalog, ENV));
    assertTrue(e.getMessage().contains("apiKeyEnv: is required"), e.getMessage());
  }

  @Test
  void ships_a_disabled_definition_for_the_live_api() {
    assertEquals("gcp-catalog", shipped.vendor());
    assertEquals("Google Cloud (GPU SKUs, host VM extra)", shipped.displayName());
    assertEquals(GcpBillingCatalogAdapter.KIND, shipped.kind());
    assertFalse(shipped.enabled());
    assertEquals("https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus", shipped.config().getString("source"));
    assertEquals("GCP_API_KEY", shipped.config().getString("apiKeyEnv"));
    assertTrue(shipped.note().contains("host VM"), shipped.note());
    assertFalse(GcpBillingCatalogAdapter.keepGpuOnly(shipped), "GPU-only SKUs are rejected as shipped");
    assertTrue(AdapterRegistry.load().kinds().contains(GcpBillingCatalogAdapter.KIND));
  }

  @Test
  void rejects_every_gpu_only_sku_of_the_recorded_page_as_shipped(Vertx vertx, VertxTestContext ctx) {
    new GcpBillingCatalogFactory().create(vertx, withSource(JUMBO.toString()), catalog).fetch()
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals("gcp-catalog", vq.vendor());
          assertEquals(List.of(), vq.quotes(), "a GPU without its host VM is no machine");
          // the 984 SKUs that would have been kept (1058 quotes), then the 427 rejected for reasons of their own
          List<String> gpuOnly = vq.rejected().stream().filter(s -> s.endsWith(": " + GcpBillingCatalogAdapter.GPU_ONLY_REASON)).toList();
          assertEquals(984, gpuOnly.size());
          assertEquals(1411, vq.rejected().size());
          assertTrue(gpuOnly.contains("skus[1] 0032-6F6D-C48E 'Nvidia L4 GPU attached to Spot Preemptible VMs running in "
              + "Montreal': GPU-only SKU: the host VM is priced separately and is not in this catalog"), gpuOnly.get(0));
          assertTrue(vq.rejected().contains("skus[30] 04C1-B7EE-A903 'Reserved Nvidia Tesla A100 GPU in Milan': "
              + "reservation-only: capacity reserved ahead, not rentable on demand or as a commitment"));
          // and the pipeline refuses a payload without quotes: nothing of it can reach a ranking
          assertTrue(dev.gpurent.quote.QuoteIntegrity.check(vq, java.util.Set.of("l4", "a100-40g-sxm"), null).refusal()
              .orElseThrow().contains("GPU-only SKU"));
          ctx.completeNow();
        })));
  }

  @Test
  void keeps_gpu_only_skus_labelled_when_the_yaml_says_keep(Vertx vertx, VertxTestContext ctx) {
    new GcpBillingCatalogFactory().create(vertx, keeping(JUMBO.toString()), catalog).fetch()
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(1058, vq.quotes().size());
          assertEquals(427, vq.rejected().size());
          assertTrue(vq.quotes().stream().allMatch(q -> q.offerId().endsWith(" (GPU only, host VM extra)")));
          ctx.completeNow();
        })));
  }

  @Test
  void refuses_a_gpu_only_rows_value_it_does_not_know() {
    JsonObject c = shipped.config().copy().put("gpuOnlyRows", "maybe");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GcpBillingCatalogAdapter.adapter(
        null, VendorDefinition.from(c, shipped.where()), catalog, ENV));
    assertTrue(e.getMessage().endsWith("gpuOnlyRows: must be reject or keep, got 'maybe'"), e.getMessage());
  }

  @Test
  void fails_without_the_key_naming_the_variable(Vertx vertx, VertxTestContext ctx) {
    GcpBillingCatalogAdapter.adapter(vertx, shipped, catalog, name -> null).fetch()
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertTrue(e.getMessage().contains("environment variable GCP_API_KEY is not set"), e.getMessage());
          ctx.completeNow();
        })));
  }

  /** The real opencost page split in two: the first 4 SKUs with nextPageToken "p2", then the other 3. */
  static List<Buffer> twoPages() throws IOException {
    JsonObject file = new JsonObject(Files.readString(OPENCOST));
    JsonArray skus = file.getJsonArray("skus");
    JsonArray first = new JsonArray(new ArrayList<>(skus.getList().subList(0, 4)));
    JsonArray rest = new JsonArray(new ArrayList<>(skus.getList().subList(4, skus.size())));
    return List.of(file.copy().put("skus", first).put("nextPageToken", "p2").toBuffer(),
        file.copy().put("skus", rest).put("nextPageToken", "").toBuffer());
  }

  @Test
  void follows_next_page_tokens_and_keeps_the_key_out_of_quotes(Vertx vertx, VertxTestContext ctx) throws IOException {
    List<Buffer> pages = twoPages();
    List<MultiMap> seen = new ArrayList<>();
    vertx.createHttpServer().requestHandler(req -> {
      seen.add(MultiMap.caseInsensitiveMultiMap().addAll(req.params()));
      Buffer body = "p2".equals(req.getParam("pageToken")) ? pages.get(1) : pages.get(0);
      req.response().putHeader("Content-Type", "application/json").end(body);
    }).listen(0).compose(server -> {
      String url = "http://localhost:" + server.actualPort() + "/v1/services/6F81-5844-456A/skus";
      GcpBillingCatalogAdapter.Adapter adapter = GcpBillingCatalogAdapter.adapter(vertx, keeping(url), catalog, ENV);
      assertFalse(adapter.toString().contains(FAKE_KEY));
      return adapter.fetchResult().map(r -> Map.entry(url, r));
    }).onComplete(ctx.succeeding(e -> ctx.verify(() -> {
      GcpBillingCatalogAdapter.Result r = e.getValue();
      assertEquals(2, r.pages());
      assertEquals(7, r.skus(), "all SKUs of both pages are read");
      assertEquals(6, r.nonGpuSkipped());
      assertEquals(3, r.quotes().size());
      assertEquals(2, seen.size());
      assertEquals(FAKE_KEY, seen.get(0).get("key"));
      assertEquals(FAKE_KEY, seen.get(1).get("key"));
      assertNull(seen.get(0).get("pageToken"));
      assertEquals("p2", seen.get(1).get("pageToken"));
      assertEquals("5000", seen.get(0).get("pageSize"));
      for (Quote q : r.quotes()) {
        assertEquals("gcp-billing-catalog:" + e.getKey(), q.source());
        assertPrice("2.933908", q);
      }
      assertTrue(r.rejected().stream().noneMatch(s -> s.contains(FAKE_KEY)));
      ctx.completeNow();
    })));
  }

  @Test
  void keeps_the_key_out_of_http_errors(Vertx vertx, VertxTestContext ctx) {
    // a server that echoes the whole request URI, key included, into its error message
    vertx.createHttpServer().requestHandler(req -> req.response().setStatusCode(400)
            .putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("error", new JsonObject().put("code", 400)
                .put("message", "API key not valid: " + req.uri()).put("status", "INVALID_ARGUMENT")).toBuffer()))
        .listen(0)
        .compose(server -> GcpBillingCatalogAdapter.adapter(vertx,
            withSource("http://localhost:" + server.actualPort() + "/v1/services/6F81-5844-456A/skus"), catalog, ENV).fetch())
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertTrue(e.getMessage().contains("HTTP 400"), e.getMessage());
          assertTrue(e.getMessage().contains("API key not valid"), e.getMessage());
          assertFalse(e.getMessage().contains(FAKE_KEY), e.getMessage());
          assertNull(e.getCause(), "no cause that could carry the key");
          ctx.completeNow();
        })));
  }

  @Test
  void keeps_the_key_out_of_timeouts(Vertx vertx, VertxTestContext ctx) {
    HttpServer[] server = new HttpServer[1];
    vertx.createHttpServer().requestHandler(req -> { /* never answers */ }).listen(0)
        .compose(s -> {
          server[0] = s;
          JsonObject c = shipped.config().copy().put("timeout", "1s")
              .put("source", "http://localhost:" + s.actualPort() + "/v1/services/6F81-5844-456A/skus");
          return GcpBillingCatalogAdapter.adapter(vertx, VendorDefinition.from(c, shipped.where()), catalog, ENV).fetch();
        })
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertTrue(e.getMessage().contains("page 1"), e.getMessage());
          assertFalse(e.getMessage().contains(FAKE_KEY), e.getMessage());
          ctx.completeNow();
        })));
  }

  @Test
  void redacts_keys_and_key_parameters() {
    assertEquals("GET /skus?key=***&pageSize=5000 and *** again",
        GcpBillingCatalogAdapter.redact("GET /skus?key=" + FAKE_KEY + "&pageSize=5000 and " + FAKE_KEY + " again", FAKE_KEY));
    assertEquals("GET /skus?pageSize=1&key=***", GcpBillingCatalogAdapter.redact("GET /skus?pageSize=1&key=other", FAKE_KEY));
  }
}
