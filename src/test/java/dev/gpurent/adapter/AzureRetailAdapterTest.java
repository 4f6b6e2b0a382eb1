package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code azure-retail} kind.
 *
 * <p><b>No recorded Azure Retail Prices API response exists in ../shared/data</b> (PROVENANCE.md,
 * "Not found"). The two pages below are therefore BUILT IN THIS TEST, field by field, to the
 * response schema Microsoft documents on learn.microsoft.com ("Azure Retail Prices REST API
 * overview": {@code BillingCurrency, CustomerEntityId, CustomerEntityType, Items[], NextPageLink,
 * Count}; each item {@code currencyCode, tierMinimumUnits, retailPrice, unitPrice, armRegionName,
 * location, effectiveStartDate, meterId, meterName, productId, skuId, productName, skuName,
 * serviceName, serviceId, serviceFamily, unitOfMeasure, type, isPrimaryMeterRegion, armSkuName}
 * plus {@code reservationTerm} on reservations, whose unitPrice is the total for the term while
 * unitOfMeasure still says "1 Hour"). Where the values come from:
 * <ul>
 *   <li>the two D8 v4 items (westeurope: Reservation 1 Year 2377.0, Consumption 0.46) are the
 *       documentation's own example items;</li>
 *   <li>every GPU Consumption and Spot unitPrice is a REAL price: the eastus Price / SpotPrice of
 *       the same armSkuName in ../shared/data/skypilot-catalog-format/anycloud-sh/azure/vms.gpu.csv,
 *       a catalog built from this API on 2026-05-20;</li>
 *   <li>the Reservation totals, the Low Priority, Windows, Dev/Test and NG8ads prices, and the
 *       meterId / productId / skuId / productName strings are ILLUSTRATIVE (no real value was at
 *       hand); only how the adapter treats them is under test.</li>
 * </ul>
 */
@ExtendWith(VertxExtension.class)
class AzureRetailAdapterTest {

  static final Instant AT = Instant.parse("2026-05-20T00:00:00Z");
  static GpuCatalog catalog;
  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    shipped = VendorDefinition.load(Path.of("adapters/azure-retail.yaml"));
  }

  /** One Items[] entry in the documented field order. */
  static JsonObject item(String armSku, String region, String location, String meterName, String skuName, String productName,
                         String type, String price, String reservationTerm) {
    JsonObject o = new JsonObject()
        .put("currencyCode", "USD")
        .put("tierMinimumUnits", 0.0);
    if (reservationTerm != null) o.put("reservationTerm", reservationTerm);
    o.put("retailPrice", new BigDecimal(price))
        .put("unitPrice", new BigDecimal(price))
        .put("armRegionName", region)
        .put("location", location)
        .put("effectiveStartDate", "2025-01-01T00:00:00Z")
        .put("meterId", "00000000-0000-0000-0000-" + String.format("%012d", Math.abs((armSku + meterName + type).hashCode())))
        .put("meterName", meterName)
        .put("productId", "DZH318Z0TEST")
        .put("skuId", "DZH318Z0TEST/0001")
        .put("productName", productName)
        .put("skuName", skuName)
        .put("serviceName", "Virtual Machines")
        .put("serviceId", "DZH313Z7MMC8")
        .put("serviceFamily", "Compute")
        .put("unitOfMeasure", "1 Hour")
        .put("type", type)
        .put("isPrimaryMeterRegion", true)
        .put("armSkuName", armSku);
    return o;
  }

  static JsonObject eastus(String armSku, String meterName, String productName, String type, String price, String term) {
    return item(armSku, "eastus", "US East", meterName, meterName, productName, type, price, term);
  }

  static Buffer page(JsonArray items, String next) {
    return new JsonObject().put("BillingCurrency", "USD").put("CustomerEntityId", "Default").put("CustomerEntityType", "Retail")
        .put("Items", items).put("NextPageLink", next).put("Count", items.size()).toBuffer();
  }

  static final String A100 = "Virtual Machines NCadsA100v4 Series";

  /** Page 1: the documentation's D8 v4 items and the NC24ads A100 v4 meters of every kind. */
  static JsonArray page1Items() {
    return new JsonArray()
        // the documentation's example items, verbatim values
        .add(item("Standard_D8_v4", "westeurope", "EU West", "D8 v4", "D8 v4", "Virtual Machines Dv4 Series", "Reservation", "2377.0", "1 Year"))
        .add(item("Standard_D8_v4", "westeurope", "EU West", "D8 v4", "D8 v4", "Virtual Machines Dv4 Series", "Consumption", "0.46", null))
        // real eastus prices (anycloud-sh azure catalog, 2026-05-20)
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4", A100, "Consumption", "3.673", null))
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4 Spot", A100, "Consumption", "0.746721", null))
        // illustrative values from here on
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4 Low Priority", A100, "Consumption", "0.7346", null))
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4", A100 + " Windows", "Consumption", "4.5", null))
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4", A100, "DevTestConsumption", "3.0", null))
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4", A100, "Reservation", "20080.0", "1 Year"))
        .add(eastus("Standard_NC24ads_A100_v4", "NC24ads A100 v4", A100, "Reservation", "38613.0", "3 Years"));
  }

  /** Page 2: other GPU families (real eastus prices) and one rejected size. */
  static JsonArray page2Items() {
    return new JsonArray()
        .add(eastus("Standard_ND96asr_v4", "ND96asr A100 v4", "Virtual Machines NDasrA100v4 Series", "Consumption", "27.197", null))
        .add(eastus("Standard_ND96asr_v4", "ND96asr A100 v4 Spot", "Virtual Machines NDasrA100v4 Series", "Consumption", "5.98334", null))
        .add(eastus("Standard_ND96asr_v4", "ND96asr A100 v4", "Virtual Machines NDasrA100v4 Series", "Reservation", "450000.5", "3 Years"))
        .add(eastus("Standard_NV36ads_A10_v5", "NV36ads A10 v5", "Virtual Machines NVadsA10v5 Series", "Consumption", "3.2", null))
        .add(eastus("Standard_NV6ads_A10_v5", "NV6ads A10 v5", "Virtual Machines NVadsA10v5 Series", "Consumption", "0.454", null))
        .add(eastus("Standard_NC40ads_H100_v5", "NC40ads H100 v5", "Virtual Machines NCadsH100v5 Series", "Consumption", "6.98", null))
        .add(eastus("Standard_ND96isr_H100_v5", "ND96isr H100 v5", "Virtual Machines NDisrH100v5 Series", "Consumption", "98.32", null))
        .add(eastus("Standard_NC6s_v3", "NC6s v3", "Virtual Machines NCSv3 Series", "Consumption", "3.06", null))
        .add(eastus("Standard_NC4as_T4_v3", "NC4as T4 v3", "Virtual Machines NCasT4 v3 Series", "Consumption", "0.526", null))
        .add(eastus("Standard_NG8ads_V620_v1", "NG8ads V620 v1", "Virtual Machines NGadsV620v1 Series", "Consumption", "0.2", null));
  }

  static VendorDefinition fileDef(Path file) {
    return VendorDefinition.from(shipped.config().copy().put("source", file.toString()), shipped.where());
  }

  static Quote one(List<Quote> quotes, String sku, Billing billing) {
    List<Quote> found = quotes.stream().filter(q -> q.offerId().equals(sku) && q.billing() == billing).toList();
    assertEquals(1, found.size(), sku + " " + billing + ": " + found);
    return found.get(0);
  }

  static void assertQuote(Quote q, String gpu, double count, String price, PriceUnit unit) {
    assertEquals(gpu, q.gpuId(), q.toString());
    assertEquals(count, q.gpuCount(), 1e-9, q.toString());
    assertEquals(Money.of(price, "USD"), q.price(), q.toString());
    assertEquals(unit, q.unit(), q.toString());
    assertEquals("eastus", q.region());
  }

  @Test
  void parses_documented_pages_into_linux_gpu_quotes() {
    AzureRetailAdapter.Result r = AzureRetailAdapter.parse(
        List.of(page(page1Items(), "https://prices.azure.com/api/retail/prices?$skip=1000"), page(page2Items(), null)),
        shipped, catalog, AT);
    assertEquals(19, r.items());
    assertEquals(2, r.pages());
    assertEquals(Map.of(
        "not a GPU (N-series) size", 2,
        "Low Priority meter (Spot is quoted instead)", 1,
        "Windows meter (Linux prices only)", 1,
        "DevTestConsumption (Dev/Test subscriptions only)", 1), r.skipped());
    assertEquals(13, r.quotes().size());
    assertEquals(List.of("Items[18] (Standard_NG8ads_V620_v1 eastus 'NG8ads V620 v1' Consumption): "
        + "unknown GPU 'Radeon PRO V620' (NGads V620)"), r.rejected());

    List<Quote> q = r.quotes();
    assertQuote(one(q, "Standard_NC24ads_A100_v4", Billing.ON_DEMAND), "a100-80g-pcie", 1, "3.673", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NC24ads_A100_v4", Billing.SPOT), "a100-80g-pcie", 1, "0.746721", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NC24ads_A100_v4", Billing.YEARLY), "a100-80g-pcie", 1, "20080", PriceUnit.YEAR);
    assertQuote(one(q, "Standard_NC24ads_A100_v4", Billing.THREE_YEARS), "a100-80g-pcie", 1, "12871", PriceUnit.YEAR);
    assertQuote(one(q, "Standard_ND96asr_v4", Billing.ON_DEMAND), "a100-40g-sxm", 8, "27.197", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_ND96asr_v4", Billing.SPOT), "a100-40g-sxm", 8, "5.98334", PriceUnit.HOUR);
    // 450000.5 / 3 does not terminate: 10 decimal places
    assertQuote(one(q, "Standard_ND96asr_v4", Billing.THREE_YEARS), "a100-40g-sxm", 8, "150000.1666666667", PriceUnit.YEAR);
    assertQuote(one(q, "Standard_NV36ads_A10_v5", Billing.ON_DEMAND), "a10", 1, "3.2", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NV6ads_A10_v5", Billing.ON_DEMAND), "a10", 1.0 / 6, "0.454", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NC40ads_H100_v5", Billing.ON_DEMAND), "h100-nvl", 1, "6.98", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_ND96isr_H100_v5", Billing.ON_DEMAND), "h100-sxm", 8, "98.32", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NC6s_v3", Billing.ON_DEMAND), "v100-pcie-16g", 1, "3.06", PriceUnit.HOUR);
    assertQuote(one(q, "Standard_NC4as_T4_v3", Billing.ON_DEMAND), "t4", 1, "0.526", PriceUnit.HOUR);
    Quote a100 = one(q, "Standard_NC24ads_A100_v4", Billing.ON_DEMAND);
    assertEquals(24, a100.vcpus());
    assertEquals(AT, a100.observedAt());
    assertEquals(Instant.parse("2025-01-01T00:00:00Z"), a100.priceDate(), "the item's effectiveStartDate");
    assertEquals("azure-retail:" + shipped.config().getString("source"), a100.source());
  }

  @Test
  void maps_every_anycloud_azure_gpu_size_through_the_size_table() throws IOException {
    // every GPU armSkuName of the real anycloud-sh Azure catalog (built from this API) must be known
    List<String> sizes = Files.readAllLines(Path.of("../shared/data/skypilot-catalog-format/anycloud-sh/azure/vms.gpu.csv"))
        .stream().skip(1).map(l -> l.substring(0, l.indexOf(','))).distinct().toList();
    assertEquals(36, sizes.size());
    JsonArray items = new JsonArray();
    for (String s : sizes) items.add(eastus(s, s.substring("Standard_".length()).replace('_', ' '), "Virtual Machines Series", "Consumption", "1", null));
    AzureRetailAdapter.Result r = AzureRetailAdapter.parse(page(items, null), shipped, catalog, AT);
    assertEquals(List.of(), r.rejected());
    assertEquals(36, r.quotes().size());
    assertEquals(0.125, one(r.quotes(), "Standard_NV4as_v4", Billing.ON_DEMAND).gpuCount());
    assertEquals("mi25", one(r.quotes(), "Standard_NV4as_v4", Billing.ON_DEMAND).gpuId());
    assertEquals("v100-32g", one(r.quotes(), "Standard_ND40rs_v2", Billing.ON_DEMAND).gpuId());
    assertEquals("a100-80g-sxm", one(r.quotes(), "Standard_ND96amsr_A100_v4", Billing.ON_DEMAND).gpuId());
    assertEquals("h100-nvl", one(r.quotes(), "Standard_NCC40ads_H100_v5", Billing.ON_DEMAND).gpuId());
    assertEquals(2.0, one(r.quotes(), "Standard_NC80adis_H100_v5", Billing.ON_DEMAND).gpuCount());
    assertEquals("mi300x", one(r.quotes(), "Standard_ND96isr_MI300X_v5", Billing.ON_DEMAND).gpuId());
  }

  @Test
  void rejects_unknown_sizes_terms_duplicates_and_zero_prices_with_reasons() {
    JsonArray items = new JsonArray()
        .add(eastus("Standard_NC6s_v3", "NC6s v3", "Virtual Machines NCSv3 Series", "Consumption", "3.06", null))
        .add(eastus("Standard_NC6s_v3", "NC6s v3", "Virtual Machines NCSv3 Series", "Consumption", "3.10", null))
        .add(eastus("Standard_NC2s_v3", "NC2s v3", "Virtual Machines NCSv3 Series", "Consumption", "1", null))
        .add(eastus("Standard_NX12_v9", "NX12 v9", "Virtual Machines NX Series", "Consumption", "1", null))
        .add(eastus("Standard_NC4as_T4_v3", "NC4as T4 v3", "Virtual Machines NCasT4 v3 Series", "Consumption", "0", null))
        .add(eastus("Standard_NC4as_T4_v3", "NC4as T4 v3", "Virtual Machines NCasT4 v3 Series", "Reservation", "100", "5 Years"));
    AzureRetailAdapter.Result r = AzureRetailAdapter.parse(page(items, null), shipped, catalog, AT);
    assertEquals(1, r.quotes().size());
    assertEquals(List.of(
        "Items[1] (Standard_NC6s_v3 eastus 'NC6s v3' Consumption): a second on-demand price for Standard_NC6s_v3 in eastus ignored",
        "Items[2] (Standard_NC2s_v3 eastus 'NC2s v3' Consumption): size 'Standard_NC2s_v3' is not among the NCv3 sizes the adapter knows [6, 12, 24] (vCPUs)",
        "Items[3] (Standard_NX12_v9 eastus 'NX12 v9' Consumption): GPU size 'Standard_NX12_v9' is not in the adapter's size table",
        "Items[4] (Standard_NC4as_T4_v3 eastus 'NC4as T4 v3' Consumption): price 0 is not an offer",
        "Items[5] (Standard_NC4as_T4_v3 eastus 'NC4as T4 v3' Reservation): reservationTerm '5 Years' is neither '1 Year' nor '3 Years'"),
        r.rejected());
  }

  @Test
  void refuses_a_payload_that_is_not_a_retail_prices_page() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AzureRetailAdapter.parse(Buffer.buffer("{\"value\": []}"), shipped, catalog, AT));
    assertTrue(e.getMessage().startsWith("not an Azure Retail Prices page"), e.getMessage());
  }

  @Test
  void follows_next_page_links_over_http(Vertx vertx, VertxTestContext ctx) {
    AtomicInteger requests = new AtomicInteger();
    List<String> paths = new ArrayList<>();
    vertx.createHttpServer()
        .requestHandler(req -> {
          requests.incrementAndGet();
          paths.add(req.uri());
          String base = "http://127.0.0.1:" + req.localAddress().port();
          if (req.path().equals("/api/retail/prices") && req.getParam("$skip") == null) {
            req.response().end(page(page1Items(), base + "/api/retail/prices?$filter=x&$skip=1000"));
          } else if ("1000".equals(req.getParam("$skip"))) {
            req.response().end(page(page2Items(), null));
          } else {
            req.response().setStatusCode(404).end();
          }
        })
        .listen(0, "127.0.0.1")
        .compose(server -> {
          VendorDefinition http = VendorDefinition.from(shipped.config().copy()
              .put("source", "http://127.0.0.1:" + server.actualPort() + "/api/retail/prices?$filter=x"), shipped.where());
          return new AzureRetailFactory().create(vertx, http, catalog).fetch();
        })
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(2, requests.get(), paths.toString());
          assertEquals(13, vq.quotes().size());
          assertEquals(1, vq.rejected().size());
          assertEquals(Money.of("98.32", "USD"), one(vq.quotes(), "Standard_ND96isr_H100_v5", Billing.ON_DEMAND).price());
          ctx.completeNow();
        })));
  }

  @Test
  void fails_a_fetch_whose_pages_exceed_max_pages(Vertx vertx, VertxTestContext ctx) {
    vertx.createHttpServer()
        .requestHandler(req -> req.response().end(page(new JsonArray(),
            "http://127.0.0.1:" + req.localAddress().port() + "/p?n=" + System.nanoTime())))
        .listen(0, "127.0.0.1")
        .compose(server -> {
          VendorDefinition http = VendorDefinition.from(shipped.config().copy().put("maxPages", 3)
              .put("source", "http://127.0.0.1:" + server.actualPort() + "/p"), shipped.where());
          return new AzureRetailFactory().create(vertx, http, catalog).fetch();
        })
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertEquals("Azure Retail Prices: more than 3 pages (maxPages); narrow the $filter or raise maxPages", e.getMessage());
          ctx.completeNow();
        })));
  }

  @Test
  void fetches_a_saved_page_through_vertx(Vertx vertx, VertxTestContext ctx, @TempDir Path dir) throws IOException {
    Path file = dir.resolve("page.json");
    Files.write(file, page(page2Items(), "https://prices.azure.com/api/retail/prices?$skip=2000").getBytes());
    new AzureRetailFactory().create(vertx, fileDef(file), catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(9, vq.quotes().size());   // a file is one page: its NextPageLink is not followed
      assertEquals(1, vq.rejected().size());
      // cited relative to the working directory: quotes are shown to API users, absolute paths never are
      assertEquals("azure-retail:" + dev.gpurent.config.UserText.relative(file.toString()), vq.quotes().get(0).source());
      ctx.completeNow();
    })));
  }
}
