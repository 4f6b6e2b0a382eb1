package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.MarketPlausibility;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code opencomputeprices} kind on the recorded files of 2026-03-22
 * ({@code ../shared/data/opencomputeprices/2026-03-22/}, PROVENANCE.md 10), read through the
 * shipped vendor files: one named test per trap of 10a, each on the verbatim rows it quotes.
 */
class OpenComputePricesFormatTest {

  static final Path DAY = Path.of("../shared/data/opencomputeprices/2026-03-22");
  static final Instant FETCHED = Instant.parse("2026-03-24T08:00:00Z");
  static GpuCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  /** A shipped vendor file, with {@code provider} changed where a test reads another provider of the file. */
  static VendorDefinition def(String vendor, String... keyValues) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + vendor + ".yaml"));
    io.vertx.core.json.JsonObject c = d.config().copy();
    for (int i = 0; i < keyValues.length; i += 2) c.put(keyValues[i], keyValues[i + 1]);
    return VendorDefinition.from(c, d.where());
  }

  static OpenComputePricesFormat.Result read(String file, VendorDefinition def) {
    return OpenComputePricesFormat.parse(Payload.of(DAY.resolve(file)), def, catalog, FETCHED);
  }

  static List<Quote> offer(OpenComputePricesFormat.Result r, String offerId) {
    return r.quotes().stream().filter(q -> q.offerId().equals(offerId)).toList();
  }

  static List<String> rejected(OpenComputePricesFormat.Result r, String contains) {
    return r.rejected().stream().filter(l -> l.contains(contains)).toList();
  }

  @Test
  void vultrA16TwoGigabyteSliceIsAnEighthOfACard() {
    // line 2: vcg-a16-2c-8g-2vram,,A16,,2,1,...,on_demand,,0.059,...; 9 locations in raw_extra.
    // 2 GB of a 16 GB A16 (catalog a16: memoryGiB 16) = 2/16 = 0.125 of a card, at the plan's 0.059/h.
    // OfferScan.usage places whole cards only (a count under 1 is never a placement): the slice
    // carries no model and never counts as an A16.
    var r = read("vultr.csv", def("vultr"));
    List<Quote> slice = offer(r, "vcg-a16-2c-8g-2vram");
    assertEquals(9, slice.size());
    assertEquals(List.of("atl", "blr", "ewr", "fra", "lhr", "nrt", "ord", "sgp", "sjc"), slice.stream().map(Quote::region).sorted().toList());
    for (Quote q : slice) {
      assertEquals("a16", q.gpuId());
      assertEquals(0.125, q.gpuCount());
      assertEquals(new BigDecimal("0.059"), q.price().amount());
      assertEquals(Billing.ON_DEMAND, q.billing());
      assertTrue(q.source().contains("vultr.csv line 2"), q.source());
      assertTrue(q.source().contains("a slice of a card: 2 GB against 16 GB of a a16"), q.source());
    }
    // 4 GB of an 80 GB A100 (cards: A100 -> "A100 80GB"): 4/80 = 0.05
    assertEquals(0.05, offer(r, "vcg-a100-1c-6g-4vram").get(0).gpuCount());
    assertTrue(r.quotes().stream().filter(q -> q.gpuCount() >= 1).noneMatch(q -> q.offerId().contains("-2vram")));
  }

  @Test
  void vultrPreemptiblePlansAreUnavailableAsTheFeedSays() {
    // line 3: vcg-a16-2c-8g-2vram_preemptible spot 0.059, available False (all 29 preemptible rows: 10a); line 2 True: unknown
    var r = read("vultr.csv", def("vultr"));
    List<Quote> spot = offer(r, "vcg-a16-2c-8g-2vram_preemptible");
    assertEquals(9, spot.size());
    assertTrue(spot.stream().allMatch(q -> q.billing() == Billing.SPOT && q.stock().equals(dev.gpurent.quote.Stock.unavailable("available False"))));
    assertTrue(r.quotes().stream().filter(q -> q.billing() == Billing.SPOT).allMatch(q -> q.stock().isUnavailable()));
    assertTrue(offer(r, "vcg-a16-2c-8g-2vram").stream().allMatch(q -> q.stock().equals(dev.gpurent.quote.Stock.UNKNOWN)));
  }

  @Test
  void vultr160GigabytePlanIsTwoA100s() {
    // line 42: vcg-a100-24c-240g-160vram,,A100,,160,1,... 4.795: 160 GB summed over 160 / 80 = 2 cards
    var r = read("vultr.csv", def("vultr"));
    List<Quote> plan = offer(r, "vcg-a100-24c-240g-160vram");
    assertEquals(1, plan.size());
    Quote q = plan.get(0);
    assertEquals("a100-80g-sxm", q.gpuId());
    assertEquals(2.0, q.gpuCount());
    assertEquals(new BigDecimal("4.795"), q.price().amount());
    assertTrue(q.source().contains("memory summed over 2 cards"), q.source());
    // vcg-a16-96c-960g-256vram: 256 / 16 = 16 A16s at 7.534
    assertEquals(16.0, offer(r, "vcg-a16-96c-960g-256vram").get(0).gpuCount());
  }

  @Test
  void vultrPlansSoldInNoLocationAreRefused() {
    // 9 on-demand plans and their 9 preemptible twins list "locations":[] (all L40S, some A40, the 640 GB A100)
    var r = read("vultr.csv", def("vultr"));
    assertEquals(18, rejected(r, "raw_extra.locations is empty").size());
    assertEquals("line 32 (vultr vcg-l40s-16c-180g-48vram): raw_extra.locations is empty: the plan is sold in no location today",
        rejected(r, "vcg-l40s-16c-180g-48vram)").get(0));
    assertTrue(r.quotes().stream().noneMatch(q -> q.gpuId().equals("l40s")));
  }

  @Test
  void azureNc48adsA100Eastus2ReservationTotalsBecomeYearlyAndThreeYearTerms() {
    var r = read("azure.csv", def("azure-feed"));
    Map<Billing, Quote> byBilling = new TreeMap<>();
    r.quotes().stream().filter(q -> q.offerId().equals("Standard_NC48ads_A100_v4") && q.region().equals("eastus2"))
        .forEach(q -> byBilling.put(q.billing(), q));
    // pay-as-you-go 7.346 an hour, for 2 A100 80 GB PCIe
    Quote hourly = byBilling.get(Billing.ON_DEMAND);
    assertEquals(new BigDecimal("7.346"), hourly.price().amount());
    assertEquals(PriceUnit.HOUR, hourly.unit());
    assertEquals("a100-80g-pcie", hourly.gpuId());
    assertEquals(2.0, hourly.gpuCount());
    // 42066.0: the 1-year total, a year's price (42066 / 8760 = 4.80/h)
    Quote yearly = byBilling.get(Billing.YEARLY);
    assertEquals(new BigDecimal("42066.0"), yearly.price().amount());
    assertEquals(PriceUnit.YEAR, yearly.unit());
    assertTrue(yearly.source().contains("read as the 1-year term (42066.0 / 8,760 h = 4.80/h)"), yearly.source());
    // 71642.0: the 3-year total, 71642 / 3 = 23880.666667 a year (71642 / 26280 = 2.73/h)
    Quote three = byBilling.get(Billing.THREE_YEARS);
    assertEquals(new BigDecimal("23880.666667"), three.price().amount());
    assertEquals(PriceUnit.YEAR, three.unit());
    assertTrue(three.source().contains("read as the 3-year term (71642.0 / 26,280 h = 2.73/h)"), three.source());
    // never an hourly price: the dearest on-demand hour left in the whole file is the real 191.024 (10a)
    BigDecimal dearest = r.quotes().stream().filter(q -> q.billing() == Billing.ON_DEMAND).map(q -> q.price().amount())
        .max(BigDecimal::compareTo).orElseThrow();
    assertTrue(dearest.compareTo(new BigDecimal("191.024")) <= 0, dearest.toPlainString());
  }

  @Test
  void azureWindowsPairDropsTheDuplicateWithTheReason() {
    // NC48ads_A100_v4 eastus2 Windows: one sku_id at 9.554 and 7.346; 7.346 is the Linux price
    var r = read("azure.csv", def("azure-feed"));
    // (its spot meter has a Windows pair too: 3.550266 and the Linux Spot price 2.048799)
    List<String> pair = rejected(r, "(azure Standard_NC48ads_A100_v4 eastus2)").stream()
        .filter(l -> l.contains("Windows") && (l.contains("9.554") || l.contains("7.346"))).toList();
    assertEquals(2, pair.size(), pair.toString());
    assertTrue(pair.stream().anyMatch(l -> l.endsWith("Windows 9.554/h, the licence in the price: gpurent prices Linux machines")), pair.toString());
    assertTrue(pair.stream().anyMatch(l -> l.contains("a duplicate of the Windows pair with line")
        && l.endsWith("its 7.346/h is the Linux price, read from the Linux row")), pair.toString());
    assertTrue(r.quotes().stream().noneMatch(q -> q.source().contains("Windows")));
  }

  @Test
  void azureLowPriorityRowIsDroppedNotSpot() {
    // line 2: Standard_NC80adis_H100_v5 germanywestcentral spot 3.63, meter "NC80adisH100v5 Low Priority"
    var r = read("azure.csv", def("azure-feed"));
    assertEquals("line 2 (azure Standard_NC80adis_H100_v5 germanywestcentral): a Low Priority meter ('NC80adisH100v5 Low Priority'), "
        + "filed as spot: Azure's older low-priority VMs, not its Spot price, dropped", r.rejected().get(0));
    assertTrue(r.quotes().stream().filter(q -> q.billing() == Billing.SPOT)
        .noneMatch(q -> q.offerId().equals("Standard_NC80adis_H100_v5") && q.region().equals("germanywestcentral")
            && q.price().amount().compareTo(new BigDecimal("3.63")) == 0));
  }

  @Test
  void coreweaveNodePricesAreWholeNodes() {
    // GB200 NVL72 42.0 is getdeploying's "4x GB200" 42.0 (10.5 a GPU); A100 21.6 = 8 x 2.7; L40S 18.0 = 8 x 2.25
    var r = read("coreweave.csv", def("coreweave-feed"));
    Quote gb200 = offer(r, "GB200 NVL72").get(0);
    assertEquals("gb200", gb200.gpuId());
    assertEquals(4.0, gb200.gpuCount());
    assertEquals(new BigDecimal("42.0"), gb200.price().amount());
    assertEquals(8.0, offer(r, "A100").get(0).gpuCount());
    assertEquals("a100-80g-sxm", offer(r, "A100").get(0).gpuId());
    assertEquals(8.0, offer(r, "L40S").get(0).gpuCount());
    assertEquals(List.of("line 3 (coreweave L40): the price of a whole node under gpu_count 1, and the vendor file's nodes do not say "
        + "how many L40 the node 'L40' has"), r.rejected());
    assertTrue(r.quotes().stream().noneMatch(q -> q.gpuCount() == 1));
  }

  @Test
  void akashStatisticsRowsAreNotOffers() {
    var r = read("akash.csv", def("aethir", "provider", "akash"));
    assertEquals(0, r.quotes().size());
    assertEquals(55, rejected(r, "an akash statistics row").size());
    assertEquals("line 2 (akash a100_SXM4_min): an akash statistics row: the min price of A100 over 2 providers (2 available), not an offer",
        r.rejected().get(0));
    assertEquals(4, rejected(r, "(akash gtx1050ti_PCIe_").size());
  }

  @Test
  void getdeployingCheapestSummaryRowIsNotAnOffer() {
    // salad: 16 cheapest_* rows from the site's index; its own listings are offers (1x RTX 4090 at 0.18)
    var r = read("getdeploying.csv", def("salad"));
    assertTrue(r.rejected().stream().anyMatch(l -> l.contains("(salad cheapest_RTX 4090): a getdeploying summary row: the cheapest "
        + "RTX 4090 on the site's index (Salad, of 12 providers), not an offer")), r.rejected().toString());
    assertEquals(16, rejected(r, "a getdeploying summary row").size());
    Quote q = offer(r, "1x RTX 4090 1x RTX 4090 24GB").get(0);
    assertEquals("rtx-4090", q.gpuId());
    assertEquals(new BigDecimal("0.18"), q.price().amount());
    assertTrue(r.quotes().stream().noneMatch(x -> x.offerId().startsWith("cheapest_")));
  }

  @Test
  void lightningaiGpuNameOneIsRefusedByName() {
    var r = read("lightningai.csv", def("aethir", "provider", "lightningai"));
    assertEquals(0, r.quotes().size());
    assertEquals(8, rejected(r, "unknown GPU '1'").size());
    assertEquals("line 2 (lightningai 1): unknown GPU '1'", r.rejected().get(0));
  }

  @Test
  void unknownGpuNamesAreRefusedWithTheName() {
    var denvr = read("denvr.csv", def("denvr"));
    assertEquals(List.of("line 7 (denvr gaudi2): unknown GPU 'gaudi2'"), denvr.rejected());
    // massedcompute: gpu_x* rows name no card; "H100x2" at 188 GB is 94 a card, no H100 the name can mean
    var mc = read("massedcompute.csv", def("massedcompute"));
    assertEquals(4, rejected(mc, "no gpu_name").size());
    assertTrue(mc.rejected().stream().anyMatch(l -> l.startsWith("line 15 (massedcompute H100x2): memory 94 GB against 80 GB of a h100-sxm")),
        mc.rejected().toString());
  }

  @Test
  void perTokenRowsAreNotGpuOffers() {
    // together.csv: 20 inference rows, price_per_hour 0; counted as skipped, never a quote
    var r = read("together.csv", def("aethir", "provider", "together"));
    assertEquals(0, r.quotes().size());
    assertEquals(List.of(20L, 0L).get(0), RowLog.rowCounts(r.rejected())[1]);
    assertTrue(r.rejected().get(0).startsWith("skipped 20 rows: " + FeedTraps.TOKEN), r.rejected().get(0));
  }

  @Test
  void e2eMonthlyAndAnnualPricesBecomeCommitmentQuotes() {
    // line 2: NVIDIA B200 4.9/h, raw_extra {"monthly":3431.0,"annual":34164.0}
    var r = read("e2e.csv", def("e2e"));
    Map<Billing, Quote> b200 = new TreeMap<>();
    offer(r, "NVIDIA B200").forEach(q -> b200.put(q.billing(), q));
    assertEquals(new BigDecimal("4.9"), b200.get(Billing.ON_DEMAND).price().amount());
    assertEquals(PriceUnit.HOUR, b200.get(Billing.ON_DEMAND).unit());
    assertEquals(new BigDecimal("3431.0"), b200.get(Billing.MONTHLY).price().amount());
    assertEquals(PriceUnit.MONTH, b200.get(Billing.MONTHLY).unit());
    assertEquals(new BigDecimal("34164.0"), b200.get(Billing.YEARLY).price().amount());
    assertEquals(PriceUnit.YEAR, b200.get(Billing.YEARLY).unit());
    assertTrue(b200.get(Billing.YEARLY).source().endsWith("e2e.csv line 2 (raw_extra.annual)"), b200.get(Billing.YEARLY).source());
    // 7 rows x 3 modes; the 80 GB and the 40 GB A100 are two cards
    assertEquals(21, r.quotes().size());
    // both rows are "NVIDIA A100": the second offer is told apart by its card
    assertEquals("a100-80g-sxm", offer(r, "NVIDIA A100").get(0).gpuId());
    assertEquals("a100-40g-sxm", offer(r, "NVIDIA A100 (a100-40g-sxm)").get(0).gpuId());
  }

  @Test
  void getdeployingReservedRowsBecomeTerms() {
    // cirrascale "8x B200 ..." reserved 38.88, billing "Reserved (12mo) 12-month contract: $27,999/month"
    var c = read("getdeploying.csv", def("cirrascale"));
    Quote b200 = offer(c, "8x B200 8x B200 180GB").get(0);
    assertEquals(Billing.YEARLY, b200.billing());
    assertEquals(new BigDecimal("27999"), b200.price().amount());
    assertEquals(PriceUnit.MONTH, b200.unit());
    assertEquals(8.0, b200.gpuCount());
    // the four MI300X terms: 1, 3, 6 and 12 months at 22,499, 21,379, 20,249 and 17,999 a month
    Map<Billing, BigDecimal> mi = new TreeMap<>();
    offer(c, "8x MI300X 8x MI300X 192GB").forEach(q -> mi.put(q.billing(), q.price().amount()));
    assertEquals(Map.of(Billing.MONTHLY, new BigDecimal("22499"), Billing.THREE_MONTHS, new BigDecimal("21379"),
        Billing.SIX_MONTHS, new BigDecimal("20249"), Billing.YEARLY, new BigDecimal("17999")), mi);
    // database_mart "Reserved (1mo) Reserved capacity with a 1-month minimum commitment.": monthly at 0.65 an hour
    var d = read("getdeploying.csv", def("databasemart"));
    Quote a40 = offer(d, "1x A40 1x A40 48GB").get(0);
    assertEquals(Billing.MONTHLY, a40.billing());
    assertEquals(new BigDecimal("0.65"), a40.price().amount());
    assertEquals(PriceUnit.HOUR, a40.unit());
  }

  @Test
  void aethirT4At19IsRefusedByTheMarketPlausibilityRule() {
    // T4 elsewhere in the feed: lyceum 0.39, cerebrium 0.59, replicate 0.81, alibaba-cloud 1.12 (medians of
    // each vendor's T4 prices); their median (0.59 + 0.81) / 2 = 0.70; 19.0 / 0.70 = 27.1 > 20
    Map<String, VendorQuotes> book = new TreeMap<>();
    book.put("aethir", read("aethir.csv", def("aethir")).vendorQuotes());
    for (String v : List.of("lyceum", "cerebrium", "replicate", "alibaba-cloud")) book.put(v, read("getdeploying.csv", def(v)).vendorQuotes());
    assertEquals(1, book.get("aethir").quotes().size());
    VendorQuotes judged = MarketPlausibility.judge(book, FxRates.none("USD")).get("aethir");
    assertEquals(0, judged.quotes().size());
    assertTrue(judged.rejected().get(0).contains(MarketPlausibility.DEAR_REASON + ": 19.00 USD/hour is 19.0000 USD per GPU-hour, 27.1429 "
        + "times the market median for t4 (0.7000, the median of the median per GPU-hour at 4 other vendors"), judged.rejected().get(0));
  }
}
