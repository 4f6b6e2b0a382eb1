package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code market-observations} kind against the recorded cherielilili/gpu-pricing-tracker file
 * ({@code ../shared/data/market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv}:
 * 20,208 real rows, 43 providers, CRLF), read through the shipped vendor YAML files.
 */
@ExtendWith(VertxExtension.class)
class MarketObservationsFormatTest {

  static final Path SAMPLE = Path.of("../shared/data/market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");
  static final Instant FETCHED = Instant.parse("2026-06-01T08:00:00Z");
  /**
   * The vendor YAMLs this kind ships, with the quotes each gives on the sample's latest day of its
   * provider. (Verda left this kind for its SkyPilot catalog and Vultr for its own plans API in the OpenComputePrices
   * feed; their rows are still read and counted below.)
   */
  static final Map<String, Integer> SHIPPED = Map.ofEntries(Map.entry("crusoe", 6), Map.entry("civo", 3), Map.entry("sesterce", 4),
      Map.entry("koyeb", 5), Map.entry("novita", 3), Map.entry("nebius", 4), Map.entry("coreweave", 6),
      Map.entry("ovh", 2), Map.entry("hotaisle", 4), Map.entry("together", 4));

  static GpuCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  static VendorDefinition def(String vendor, Object... extra) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + vendor + ".yaml"));
    var c = d.config().copy().put("source", SAMPLE.toString());
    for (int i = 0; i < extra.length; i += 2) c.put((String) extra[i], extra[i + 1]);
    return VendorDefinition.from(c, d.where());
  }

  static Quote one(List<Quote> quotes, String offer, Billing billing) {
    List<Quote> found = quotes.stream().filter(q -> q.offerId().equals(offer) && q.billing() == billing).toList();
    assertEquals(1, found.size(), offer + " " + billing + ": " + found);
    return found.get(0);
  }

  static MarketObservationsFormat.Observation row(List<MarketObservationsFormat.Observation> all, String date,
                                                   String provider, String model, int count, String type) {
    Billing b = type.equals("spot") ? Billing.SPOT : Billing.ON_DEMAND;
    List<MarketObservationsFormat.Observation> found = all.stream().filter(o -> o.date().toString().equals(date)
        && o.provider().equals(provider) && o.gpuModel().equals(model) && o.gpuCount() == count && o.billing() == b).toList();
    assertEquals(1, found.size(), date + " " + provider + " " + model + " x" + count + ": " + found);
    return found.get(0);
  }

  @Test
  void reads_every_row_of_the_file_with_providers_counted() {
    MarketObservationsFormat.Parsed all = MarketObservationsFormat.readAll(SAMPLE, catalog, MarketObservationsFormat.PER_GPU_FROM);
    assertEquals(20208, all.dataRows());
    // RunPod's 0.50 placeholders (Placeholders: MI300X "any" and "global", H200 "global") are the only rows refused
    assertEquals(20048, all.observations().size());
    assertEquals(160, all.rejected().size());
    assertTrue(all.rejected().stream().allMatch(r -> r.contains(" runpod ") && r.endsWith(Placeholders.RUNPOD_WORDS)), all.rejected().get(0));
    Map<String, Long> byProvider = all.observations().stream()
        .collect(Collectors.groupingBy(MarketObservationsFormat.Observation::provider, TreeMap::new, Collectors.counting()));
    assertEquals(43, byProvider.size());
    assertEquals(4253L, byProvider.get("vast.ai"));
    assertEquals(2695L, byProvider.get("runpod"));
    assertEquals(894L, byProvider.get("lambda"));
    assertEquals(803L, byProvider.get("crusoe"));
    assertEquals(744L, byProvider.get("civo"));
    assertEquals(715L, byProvider.get("sesterce"));
    assertEquals(677L, byProvider.get("verda"));
    assertEquals(597L, byProvider.get("koyeb"));
    assertEquals(495L, byProvider.get("novita"));
    assertEquals(471L, byProvider.get("vultr"));
    assertEquals(440L, byProvider.get("nebius"));
    assertEquals(321L, byProvider.get("coreweave"));
    assertEquals(14L, byProvider.get("build ai"));
    assertEquals(16540L, all.observations().stream().filter(o -> o.billing() == Billing.ON_DEMAND).count());
    assertEquals(3508L, all.observations().stream().filter(o -> o.billing() == Billing.SPOT).count());
    assertEquals(all.observations(), MarketObservationsFormat.parseAll(SAMPLE, catalog));
  }

  @Test
  void refuses_runpods_placeholder_rows_by_the_rule_of_runpods_own_adapter() {
    // RunPod's gpuTypes write 0.50 for a cloud that does not sell the card (MI300X communityPrice, communityCloud false),
    // and the tracker copies it as region "any": the RunPod adapter's rule refuses it here too.
    VendorDefinition runpod = def("crusoe", "vendor", "runpod-market", "provider", "runpod");
    MarketObservationsFormat.Result r = MarketObservationsFormat.parse(Payload.of(SAMPLE), runpod, catalog, FETCHED);
    assertEquals(LocalDate.parse("2026-05-31"), r.latestDate());
    assertEquals(List.of("line 19924 (2026-05-31 runpod MI300X): region 'any': price_median_usd 0.5 USD per GPU-hour on demand, "
        + "the figure of " + Placeholders.RUNPOD_WORDS), r.rejected());
    List<Quote> mi300x = r.quotes().stream().filter(q -> q.gpuId().equals("mi300x")).toList();
    assertEquals(1, mi300x.size(), mi300x.toString());
    assertEquals(Money.of("1.99", "USD"), mi300x.get(0).price());
    // A real price of 0.50 on spot is not judged by value (RunPod's L40 secure spot is 0.50 in its own payload).
    assertTrue(Placeholders.runPod("price_median_usd", null, null, Billing.SPOT, new BigDecimal("0.5")).isEmpty());
  }

  @Test
  void reads_bundle_prices_before_2026_02_19_and_per_gpu_prices_from_then() {
    List<MarketObservationsFormat.Observation> all = MarketObservationsFormat.parseAll(SAMPLE, catalog);
    // PROVENANCE: lambda H100_SXM is 3.29 for 1 GPU and 23.92 for 8 (2026-02-11, whole bundle)
    MarketObservationsFormat.Observation one = row(all, "2026-02-11", "lambda", "H100_SXM", 1, "on_demand");
    MarketObservationsFormat.Observation eight = row(all, "2026-02-11", "lambda", "H100_SXM", 8, "on_demand");
    assertEquals(0, new BigDecimal("3.29").compareTo(one.median()));
    assertEquals(0, new BigDecimal("23.92").compareTo(eight.median()));
    assertEquals(MarketObservationsFormat.Basis.BUNDLE, eight.basis());
    assertEquals(0, new BigDecimal("23.92").compareTo(eight.medianForBundle()));
    assertEquals(0, new BigDecimal("2.99").compareTo(eight.perGpu(eight.median())));
    assertEquals("h100-sxm", eight.gpuId());
    assertEquals("global", eight.region());
    assertEquals(9, eight.nOffers());
    assertEquals("https://getdeploying.com", eight.sourceUrl());
    // the day the file switched: 8 GPUs at 27.52 on 02-18, 3.44 (per GPU) on 02-19
    assertEquals(0, new BigDecimal("27.52").compareTo(row(all, "2026-02-18", "lambda", "H100_SXM", 8, "on_demand").medianForBundle()));
    MarketObservationsFormat.Observation after = row(all, "2026-02-19", "lambda", "H100_SXM", 8, "on_demand");
    assertEquals(MarketObservationsFormat.Basis.PER_GPU, after.basis());
    assertEquals(0, new BigDecimal("3.44").compareTo(after.median()));
    assertEquals(0, new BigDecimal("27.52").compareTo(after.medianForBundle()));
    // runpod A100_SXM_80GB: the same 1.39 for 1, 2, 4 and 8 GPUs on 2026-02-19: per GPU
    for (int n : new int[] {1, 2, 4, 8}) {
      assertEquals(0, new BigDecimal("1.39").compareTo(row(all, "2026-02-19", "runpod", "A100_SXM_80GB", n, "on_demand").median()));
    }
  }

  @Test
  void quotes_crusoe_at_the_median_of_its_latest_day() {
    MarketObservationsFormat.Result r = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("crusoe"), catalog, FETCHED);
    assertEquals(LocalDate.parse("2026-05-31"), r.latestDate());
    assertEquals(803, r.providerRows());
    assertEquals(20208, r.dataRows());
    assertEquals(6, r.quotes().size());
    assertEquals(List.of(), r.rejected());
    Quote h100 = one(r.quotes(), "H100_SXM x1", Billing.ON_DEMAND);
    assertEquals(Money.of("3.9", "USD"), h100.price());
    assertEquals("h100-sxm", h100.gpuId());
    assertEquals(1.0, h100.gpuCount());
    assertEquals("us", h100.region());
    assertEquals(PriceUnit.HOUR, h100.unit());
    assertEquals(Instant.parse("2026-05-31T00:00:00Z"), h100.priceDate(), "the observation day of the row");
    assertNotEquals(h100.priceDate(), h100.observedAt(), "read at the fetch, not on that day");
    assertEquals("market-observations:" + SAMPLE, h100.source());
    assertEquals("crusoe", h100.vendor());
    assertEquals(Money.of("1.45", "USD"), one(r.quotes(), "A100_PCIE_40GB x1", Billing.ON_DEMAND).price());
    assertEquals("a100-40g-pcie", one(r.quotes(), "A100_PCIE_40GB x1", Billing.ON_DEMAND).gpuId());
    assertEquals("gb200", one(r.quotes(), "GB200 x1", Billing.ON_DEMAND).gpuId());
    assertEquals("median of the day's observed offers (getdeploying.com and vendor APIs), not a quote", r.vendorQuotes().note());
  }

  @Test
  void prices_a_per_gpu_row_for_the_whole_bundle() {
    // vultr H100_SXM x8 is 2.99 on 2026-05-08 (per GPU, as Vultr lists it): the 8-GPU offer costs 23.92
    MarketObservationsFormat.Result vultr = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("koyeb", "provider", "vultr"), catalog, FETCHED);
    assertEquals(LocalDate.parse("2026-05-08"), vultr.latestDate());
    Quote h100x8 = one(vultr.quotes(), "H100_SXM x8", Billing.ON_DEMAND);
    assertEquals(Money.of("23.92", "USD"), h100x8.price());
    assertEquals(8.0, h100x8.gpuCount());
    assertEquals("", h100x8.region());                     // "global"
    // koyeb H200 x2 is 3.0 (per GPU) on 2026-05-08
    MarketObservationsFormat.Result koyeb = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("koyeb"), catalog, FETCHED);
    assertEquals(Money.of("6.0", "USD"), one(koyeb.quotes(), "H200 x2", Billing.ON_DEMAND).price());
    assertEquals(Money.of("3.0", "USD"), one(koyeb.quotes(), "H200 x1", Billing.ON_DEMAND).price());
    // with perGpuFrom: never every price is read as written
    MarketObservationsFormat.Result asWritten = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("koyeb", "provider", "vultr", "perGpuFrom", "never"), catalog, FETCHED);
    assertEquals(Money.of("2.99", "USD"), one(asWritten.quotes(), "H100_SXM x8", Billing.ON_DEMAND).price());
  }

  @Test
  void every_shipped_vendor_file_quotes_its_provider() {
    SHIPPED.forEach((vendor, expected) -> {
      MarketObservationsFormat.Result r = MarketObservationsFormat.parse(Payload.of(SAMPLE), def(vendor), catalog, FETCHED);
      assertEquals(expected, r.quotes().size(), vendor);
      assertEquals(List.of(), r.rejected(), vendor);
      assertTrue(r.quotes().stream().allMatch(q -> q.vendor().equals(vendor) && q.price().isPositive()), vendor);
    });
    MarketObservationsFormat.Result nebius = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("nebius"), catalog, FETCHED);
    assertEquals(LocalDate.parse("2026-05-31"), nebius.latestDate());
    assertEquals(Money.of("2.15", "USD"), one(nebius.quotes(), "H100_SXM x1", Billing.ON_DEMAND).price());
    assertEquals("eu", one(nebius.quotes(), "H100_SXM x1", Billing.ON_DEMAND).region());
    // hotaisle MI300X x8 is 1.99 per GPU on 2026-05-08: the 8-GPU machine is 15.92, in no region ("global")
    MarketObservationsFormat.Result hotaisle = MarketObservationsFormat.parse(Payload.of(SAMPLE), def("hotaisle"), catalog, FETCHED);
    assertEquals(LocalDate.parse("2026-05-08"), hotaisle.latestDate());
    assertEquals(Money.of("15.92", "USD"), one(hotaisle.quotes(), "MI300X x8", Billing.ON_DEMAND).price());
    assertEquals("", one(hotaisle.quotes(), "MI300X x8", Billing.ON_DEMAND).region());
    assertEquals(Money.of("68.8", "USD"), one(MarketObservationsFormat.parse(Payload.of(SAMPLE), def("coreweave"), catalog, FETCHED).quotes(), "B200 x8",
        Billing.ON_DEMAND).price());
  }

  /**
   * The file has no bad row, so the rejection path is shown on rows COPIED from it: crusoe's real
   * 2026-05-31 H100_SXM row with only gpu_model changed to a card nobody sells, and again with
   * only rental_type changed. These two rows are the only synthetic input of this class.
   */
  @Test
  void rejects_unknown_gpus_and_rental_types_with_reasons() throws IOException {
    String real = "2026-05-31,crusoe,H100_SXM,1,us,on_demand,3.9,3.9,3.9,1,https://crusoe.ai/cloud/pricing/,2026-05-31T20:30:19+00:00";
    String text = Files.readString(SAMPLE, StandardCharsets.UTF_8);
    assertTrue(text.contains(real + "\r\n"));
    String changed = text + real.replace("H100_SXM", "H999_SXM") + "\r\n" + real.replace("on_demand", "reserved") + "\r\n";
    MarketObservationsFormat.Result r = MarketObservationsFormat.parse(Payload.of(Buffer.buffer(changed), SAMPLE.toString()), def("crusoe"), catalog, FETCHED);
    assertEquals(6, r.quotes().size());
    assertEquals(805, r.providerRows());
    assertEquals(List.of(
        "line 20210 (2026-05-31 crusoe H999_SXM): unknown GPU 'H999_SXM'",
        "line 20211 (2026-05-31 crusoe H100_SXM): rental_type 'reserved' is neither on_demand nor spot"), r.rejected());
  }

  @Test
  void refuses_a_file_without_the_header() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MarketObservationsFormat.readAll(new StringReader("day,vendor,price\r\n2026-01-01,x,1\r\n"), catalog,
            MarketObservationsFormat.PER_GPU_FROM));
    assertTrue(e.getMessage().startsWith("not a market observations CSV: header lacks date, provider, gpu_model"), e.getMessage());
  }

  @Test
  void refuses_a_vendor_file_without_a_provider() {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/crusoe.yaml"));
    VendorDefinition noProvider = VendorDefinition.from(d.config().copy().put("provider", " "), d.where());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MarketObservationsFactory().create(null, noProvider, catalog));
    assertEquals("adapters/crusoe.yaml: provider: is required: the provider column's value to quote (e.g. crusoe)", e.getMessage());
  }

  @Test
  void fetches_through_vertx(Vertx vertx, VertxTestContext ctx) {
    new MarketObservationsFactory().create(vertx, def("crusoe"), catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(6, vq.quotes().size());
      assertEquals(Money.of("3.9", "USD"), one(vq.quotes(), "H100_SXM x1", Billing.ON_DEMAND).price());
      assertTrue(Files.exists(SAMPLE), "a file source is never deleted");
      ctx.completeNow();
    })));
  }

  @Test
  void downloads_an_http_source_and_deletes_the_temporary_file(Vertx vertx, VertxTestContext ctx, @TempDir Path dir) throws IOException {
    byte[] csv = Files.readAllBytes(SAMPLE);
    vertx.createHttpServer()
        .requestHandler(req -> req.response().end(Buffer.buffer(csv)))
        .listen(0, "127.0.0.1")
        .compose(server -> new MarketObservationsFactory().create(vertx,
            def("nebius", "source", "http://127.0.0.1:" + server.actualPort() + "/data/observations.csv"), catalog).fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(4, vq.quotes().size());
          assertTrue(vq.quotes().get(0).source().startsWith("market-observations:http://127.0.0.1:"));
          ctx.completeNow();
        })));
  }
}
