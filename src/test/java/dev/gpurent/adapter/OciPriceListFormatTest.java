package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code oci-price-list} kind against the recorded OCI price list API sample
 * ({@code ../shared/data/oci/price-list-api/opencost-prices_usd.json}: 407 real items, of which 4
 * are "GPU Per Hour" parts; 3 other GPU parts were held out of the sample).
 */
@ExtendWith(VertxExtension.class)
class OciPriceListFormatTest {

  static final Path SAMPLE = Path.of("../shared/data/oci/price-list-api/opencost-prices_usd.json");
  static final Instant AT = Instant.parse("2024-01-19T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition def;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    VendorDefinition shipped = VendorDefinition.load(Path.of("adapters/oci-list.yaml"));
    def = VendorDefinition.from(shipped.config().copy().put("source", SAMPLE.toString()), shipped.where());
  }

  static OciPriceListFormat.Result parseSample() throws IOException {
    return OciPriceListFormat.parse(Payload.of(SAMPLE), def, catalog, AT);
  }

  static void assertQuote(Quote q, String gpu, String usdPerGpuHour) {
    assertEquals(gpu, q.gpuId(), q.toString());
    assertEquals(Money.of(usdPerGpuHour, "USD"), q.price(), q.toString());
    assertEquals(1.0, q.gpuCount());
    assertEquals(Billing.ON_DEMAND, q.billing());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals("", q.region());
    assertEquals(AT, q.observedAt());
  }

  @Test
  void parses_gpu_parts_of_the_oci_price_list() throws IOException {
    OciPriceListFormat.Result r = parseSample();
    assertEquals(407, r.items());
    assertEquals(403, r.nonGpuSkipped());
    assertEquals(4, r.quotes().size());
    assertEquals(List.of(), r.rejected());
    assertEquals("oci-list", r.vendorQuotes().vendor());
    assertEquals("Oracle Cloud (price list API)", r.vendorQuotes().displayName());

    Map<String, Quote> byPart = r.quotes().stream().collect(Collectors.toMap(Quote::offerId, q -> q));
    assertQuote(byPart.get("B88517"), "p100", "1.275");        // Compute - Bare Metal GPU Standard - X7
    assertQuote(byPart.get("B89734"), "v100-16g", "2.95");     // Compute - GPU Standard - V2
    assertQuote(byPart.get("B95907"), "a100-80g-sxm", "4");    // Compute - GPU - A100 - v2
    assertQuote(byPart.get("B98415"), "h100-sxm", "10");       // Oracle Cloud Infrastructure - Compute - GPU - H100
    assertEquals("oci-price-list:" + SAMPLE, byPart.get("B98415").source());
  }

  @Test
  void reports_storage_egress_and_load_balancer_parts_matching_the_yaml_terms() throws IOException {
    OciPriceListFormat.ListedTerms listed = parseSample().listed();
    assertEquals("USD", listed.currency());
    assertEquals(0, new BigDecimal("0.0255").compareTo(listed.objectStoragePerGbMonth()));
    assertEquals(def.terms().storagePerGbMonth().price(), new Money(listed.objectStoragePerGbMonth(), "USD"));
    assertEquals(0, new BigDecimal("0.0113").compareTo(listed.loadBalancerBasePerHour()));
    assertEquals(0, new BigDecimal("0.0001").compareTo(listed.loadBalancerPerMbpsHour()));
    // the North America / Europe origin part is not in the sample; these two are
    assertEquals(List.of("APAC, Japan, and South America", "Middle East and Africa"), List.copyOf(listed.outboundPerGb().keySet()));
    List<OciPriceListFormat.Tier> apac = listed.outboundPerGb().get("APAC, Japan, and South America");
    assertEquals(2, apac.size());
    assertEquals(0, BigDecimal.ZERO.compareTo(apac.get(0).price()));
    assertEquals(0, new BigDecimal("10240").compareTo(apac.get(0).toUnits()));   // first 10 TB free, as the YAML says
    assertEquals(0, new BigDecimal("0.025").compareTo(apac.get(1).price()));
    assertEquals(new BigDecimal("10240"), def.terms().egressTiers().get(0).upToGb());
  }

  @Test
  void reads_the_known_oci_display_name_forms() {
    Map<String, String> expected = Map.ofEntries(
        Map.entry("Compute - GPU Standard - A10", "a10"),
        Map.entry("Compute - GPU - A100 - v2", "a100-80g-sxm"),
        Map.entry("Compute - GPU - A100", "a100-40g-sxm"),
        Map.entry("Compute - Bare Metal GPU Standard - X7", "p100"),
        Map.entry("Compute - Virtual Machine GPU Standard - X7", "p100"),
        Map.entry("Compute - GPU Standard - V2", "v100-16g"),
        Map.entry("Oracle Cloud Infrastructure - Compute - GPU - H100", "h100-sxm"),
        Map.entry("Compute - GPU - L40S", "l40s"),
        Map.entry("Compute - GPU - MI300X", "mi300x"),
        Map.entry("BM.GPU.H100", "h100-sxm"),
        Map.entry("BM.GPU.H100.8", "h100-sxm"),
        Map.entry("VM.GPU.A10.1", "a10"),
        Map.entry("BM.GPU4.8", "a100-40g-sxm"),
        Map.entry("BM.GPU.A100-v2.8", "a100-80g-sxm"),
        Map.entry("BM.GPU.RTXPRO.8", "rtx-pro-6000"),
        Map.entry("VM.GPU3.4", "v100-16g"));
    expected.forEach((name, gpu) -> assertEquals(Optional.of(gpu),
        OciPriceListFormat.gpuSpelling(name).flatMap(catalog::find).map(g -> g.id()), name));
    assertEquals(Optional.empty(), OciPriceListFormat.gpuSpelling("Compute - Standard - E4 - OCPU"));
    // an unknown version is not read as the first one
    assertEquals(Optional.of("H100 v3"), OciPriceListFormat.gpuSpelling("Compute - GPU - H100 - v3"));
  }

  /**
   * The sample's GPU parts all resolve, so the rejection path is shown on records COPIED from the
   * sample: the real H100 part B98415 with only its displayName changed (to a version OCI never
   * listed), and the real A100 v2 part B95907 with only its price value changed to 0. These are
   * the only synthetic inputs of this test class.
   */
  @Test
  void rejects_unknown_gpu_and_zero_price_with_reasons() throws IOException {
    JsonObject root = new JsonObject(Files.readString(SAMPLE));
    JsonArray items = root.getJsonArray("items");
    JsonObject h100 = find(items, "B98415").copy().put("partNumber", "B98415-copy")
        .put("displayName", "Oracle Cloud Infrastructure - Compute - GPU - H100 - v3");
    JsonObject a100 = find(items, "B95907").copy().put("partNumber", "B95907-copy");
    a100.getJsonArray("currencyCodeLocalizations").getJsonObject(0).getJsonArray("prices").getJsonObject(0).put("value", 0);
    items.add(h100).add(a100);
    OciPriceListFormat.Result r = OciPriceListFormat.parse(Payload.of(root.toBuffer(), "test"), def, catalog, AT);
    assertEquals(409, r.items());
    assertEquals(403, r.nonGpuSkipped());
    assertEquals(4, r.quotes().size());
    assertEquals(List.of(
        "items[407] (B98415-copy Oracle Cloud Infrastructure - Compute - GPU - H100 - v3): unknown GPU in displayName "
            + "'Oracle Cloud Infrastructure - Compute - GPU - H100 - v3' (read as 'H100 v3')",
        "items[408] (B95907-copy Compute - GPU - A100 - v2): price 0 is not an offer"), r.rejected());
  }

  private static JsonObject find(JsonArray items, String part) {
    for (int i = 0; i < items.size(); i++) {
      if (part.equals(items.getJsonObject(i).getString("partNumber"))) return items.getJsonObject(i);
    }
    throw new AssertionError(part + " not in the sample");
  }

  @Test
  void refuses_a_payload_that_is_not_a_price_list() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> OciPriceListFormat.parse(Payload.of(Buffer.buffer("{\"products\": []}"), "test"), def, catalog, AT));
    assertEquals("not an OCI price list payload: expected {\"items\": [...]}", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> OciPriceListFormat.parse(Payload.of(Buffer.buffer("<html>"), "test"), def, catalog, AT));
  }

  @Test
  void fetches_through_vertx(Vertx vertx, VertxTestContext ctx) {
    new OciPriceListFactory().create(vertx, def, catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(4, vq.quotes().size());
      assertEquals(0, vq.rejected().size());
      assertTrue(vq.quotes().stream().anyMatch(q -> q.offerId().equals("B98415") && q.price().equals(Money.of("10", "USD"))));
      assertNull(vq.quotes().stream().filter(q -> q.gpuId().equals("a10")).findFirst().orElse(null));
      ctx.completeNow();
    })));
  }
}
