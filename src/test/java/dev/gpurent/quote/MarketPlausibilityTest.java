package dev.gpurent.quote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The market plausibility rule on books of real recorded catalogs. (The whole sample book, with
 * every Vast and RunPod quote kept, is checked in {@code dev.gpurent.cli.SampleRootTest}.)
 */
class MarketPlausibilityTest {

  static final Path SKY = Path.of("../shared/data/skypilot-catalog-format");
  static final FxRates USD = FxRates.none("USD");

  /** A shipped vendor read from its recorded catalog. */
  static VendorQuotes sky(String vendor, String sample) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + vendor + ".yaml"));
    d = VendorDefinition.from(d.config().copy().put("source", SKY.resolve(sample).toString()), d.where());
    return SkyPilotCatalogFormat.parse(Payload.of(SKY.resolve(sample)), d, Fixtures.CATALOG, Fixtures.AT).vendorQuotes();
  }

  static Map<String, VendorQuotes> book(VendorQuotes... vendors) {
    Map<String, VendorQuotes> m = new LinkedHashMap<>();
    for (VendorQuotes v : vendors) m.put(v.vendor(), v);
    return m;
  }

  /** Mithril and the recorded catalogs of the vendors that sell its cards. */
  static Map<String, VendorQuotes> mithrilAndMarket() {
    return book(sky("mithril", "skypilot-org/v8/mithril/vms.csv"), sky("lambda", "anycloud-sh/lambda/vms.gpu.csv"),
        sky("verda", "skypilot-org/v8/verda/vms.csv"), sky("shadeform", "skypilot-org/v8/shadeform/vms.csv"),
        sky("primeintellect", "skypilot-org/v8/primeintellect/vms.csv"), sky("jarvislabs", "skypilot-org/v8/jarvislabs/vms.csv"),
        sky("daytona", "skypilot-org/v8/daytona/vms.csv"), sky("vast", "anycloud-sh/vast/vms.gpu.csv"));
  }

  /** The plain reading of the rule: the median of the other vendors' cheapest price per GPU-hour. */
  static double floor(Map<String, VendorQuotes> book, String gpu, String self) {
    double[] cheapest = book.values().stream().filter(v -> !v.vendor().equals(self))
        .mapToDouble(v -> v.quotes().stream().filter(q -> q.gpuId().equals(gpu))
            .mapToDouble(q -> q.price().toDouble() / q.unit().hoursValue() / q.gpuCount()).min().orElse(Double.NaN))
        .filter(d -> !Double.isNaN(d)).sorted().toArray();
    int n = cheapest.length;
    return n % 2 == 1 ? cheapest[n / 2] : (cheapest[n / 2 - 1] + cheapest[n / 2]) / 2;
  }

  @Test
  void refuses_mithril_placeholders_with_the_market_they_fail() {
    Map<String, VendorQuotes> in = mithrilAndMarket();
    VendorQuotes mithril = MarketPlausibility.judge(in, USD).get("mithril");
    // A100 x1/x2/x4/x8 at 0.01 per GPU-hour and B200 x8 at 0.08 for the machine: refused.
    List<String> refused = mithril.rejected().stream().filter(r -> r.contains(MarketPlausibility.REASON)).toList();
    assertEquals(List.of("a100-80gb.sxm.8x", "a100-80gb.sxm.1x", "neb-b200.sxm.8x", "a100-80gb.sxm.2x", "a100-80gb.sxm.4x"),
        refused.stream().map(r -> r.substring(0, r.indexOf(' '))).toList());
    String first = refused.get(1);
    assertTrue(first.startsWith("a100-80gb.sxm.1x in us-central3-a (spot): implausibly cheap against the market: 0.01 USD/hour is "
        + "0.0100 USD per GPU-hour, under 1/20 of the market floor for a100-80g-sxm ("), first);
    Matcher m = Pattern.compile("a100-80g-sxm \\(([0-9.]+), the median of the cheapest per GPU-hour at (\\d+) other vendors\\)").matcher(first);
    assertTrue(m.find(), first);
    assertEquals(floor(in, "a100-80g-sxm", "mithril"), Double.parseDouble(m.group(1)), 0.00005);
    assertTrue(first.endsWith("refused as a placeholder, not a price"), first);
    // H100 x8 and H200 x8 at 1.00 per GPU-hour are auction minimums in line with other spot
    // markets (Verda's own H100 spot is 1.00 per GPU-hour): kept.
    assertEquals(List.of("h100-80gb.sxm.8x", "h200.8x"), mithril.quotes().stream().map(Quote::offerId).toList());
    double h100 = floor(in, "h100-sxm", "mithril");
    assertTrue(1.0 >= MarketPlausibility.FLOOR_FRACTION * h100, "H100 floor " + h100);
  }

  /** The same quote at another price. */
  static Quote priced(Quote q, java.math.BigDecimal amount) {
    return new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(),
        new Money(amount, q.price().currency()), q.unit(), q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country());
  }

  /** The plain reading of the ceiling: the median, over the other vendors, of each one's median price per GPU-hour. */
  static double marketMedian(Map<String, VendorQuotes> book, String gpu, String self) {
    double[] medians = book.values().stream().filter(v -> !v.vendor().equals(self))
        .map(v -> v.quotes().stream().filter(q -> q.gpuId().equals(gpu))
            .mapToDouble(q -> q.price().toDouble() / q.unit().hoursValue() / q.gpuCount()).sorted().toArray())
        .filter(a -> a.length > 0).mapToDouble(a -> a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2)
        .sorted().toArray();
    int n = medians.length;
    return n % 2 == 1 ? medians[n / 2] : (medians[n / 2 - 1] + medians[n / 2]) / 2;
  }

  @Test
  void refuses_a_quote_at_1000_times_the_market_with_the_figures() {
    Map<String, VendorQuotes> in = mithrilAndMarket();
    VendorQuotes verda = in.get("verda");
    Quote h100 = verda.quotes().stream().filter(q -> q.gpuId().equals("h100-sxm") && q.billing() == Billing.ON_DEMAND).findFirst().orElseThrow();
    Quote dear = priced(h100, h100.price().amount().multiply(java.math.BigDecimal.valueOf(1000)));
    List<Quote> quotes = new java.util.ArrayList<>(verda.quotes());
    quotes.set(quotes.indexOf(h100), dear);
    in.put("verda", verda.withQuotes(quotes, verda.rejected()));
    Map<String, VendorQuotes> out = MarketPlausibility.judge(in, USD);
    List<String> refused = out.get("verda").rejected().stream().filter(r -> r.contains(MarketPlausibility.DEAR_REASON)).toList();
    assertEquals(1, refused.size(), out.get("verda").rejected().toString());
    double perGpuHour = dear.price().toDouble() / dear.gpuCount();
    double market = marketMedian(in, "h100-sxm", "verda");
    String r = refused.get(0);
    assertTrue(r.startsWith(dear.offerId() + " in " + dear.region() + " (on-demand): implausibly dear against the market: "
        + dear.price() + "/hour is " + String.format(java.util.Locale.ROOT, "%.4f", perGpuHour) + " USD per GPU-hour, "), r);
    Matcher m = Pattern.compile(", ([0-9.]+) times the market median for h100-sxm \\(([0-9.]+), the median of the median per GPU-hour at (\\d+) "
        + "other vendors; the ceiling is 20 times\\); refused as no price$").matcher(r);
    assertTrue(m.find(), r);
    assertEquals(market, Double.parseDouble(m.group(2)), 0.00005);
    assertTrue(Double.parseDouble(m.group(1)) > 200, r);
    assertFalse(out.get("verda").quotes().contains(dear));
    // Nothing real in the book is that dear: every other vendor's payload comes back untouched, and mithril loses only its placeholders.
    for (String v : in.keySet()) if (!v.equals("verda") && !v.equals("mithril")) assertSame(in.get(v), out.get(v), v);
    assertEquals(5, out.get("mithril").rejected().size());
  }

  @Test
  void refuses_1e308_an_hour_with_the_figure_market_or_not() {
    Map<String, VendorQuotes> in = mithrilAndMarket();
    VendorQuotes lambda = in.get("lambda");
    List<Quote> quotes = new java.util.ArrayList<>(lambda.quotes());
    Quote absurd = priced(quotes.get(0), new java.math.BigDecimal("1e308"));
    quotes.set(0, absurd);
    String perGpu = new java.math.BigDecimal("1e308").divide(java.math.BigDecimal.valueOf(absurd.gpuCount()), new java.math.MathContext(6))
        .stripTrailingZeros().toString().replace("E+", "E");
    // alone: no market, the absolute ceiling
    VendorQuotes alone = MarketPlausibility.judge(book(lambda.withQuotes(quotes, List.of())), USD).get("lambda");
    assertFalse(alone.quotes().contains(absurd));
    assertEquals(List.of(absurd.offerId() + " in " + absurd.region() + " (" + absurd.billing().wire() + "): above the price ceiling: "
        + "1E308 USD/hour is " + perGpu + " USD per GPU-hour, above the ceiling of 1000 USD per GPU-hour: no price"), alone.rejected());
    // in a market: refused against it, with the same figures
    in.put("lambda", lambda.withQuotes(quotes, List.of()));
    VendorQuotes judged = MarketPlausibility.judge(in, USD).get("lambda");
    assertFalse(judged.quotes().contains(absurd));
    assertTrue(judged.rejected().get(0).startsWith(absurd.offerId() + " in " + absurd.region() + " (" + absurd.billing().wire()
        + "): implausibly dear against the market: 1E308 USD/hour is " + perGpu + " USD per GPU-hour, "), judged.rejected().get(0));
    Quote yen = new Quote("lambda", "", "x", "h100-sxm", 1, 0, 0, Billing.ON_DEMAND, new Money(new java.math.BigDecimal("1e12"), "XYZ"),
        PriceUnit.HOUR, Instant.EPOCH, "test");
    assertTrue(PriceCeiling.aboveGpuHour(yen, USD).orElseThrow().endsWith("above the ceiling of 100000000 in any currency per GPU-hour: no price"));
    assertTrue(PriceCeiling.aboveGpuHour(priced(yen, new java.math.BigDecimal("40000")), USD).isEmpty(), "a rial price is a price");
  }

  @Test
  void keeps_the_cheap_real_offers_of_the_same_book_and_returns_them_untouched() {
    Map<String, VendorQuotes> in = mithrilAndMarket();
    Map<String, VendorQuotes> out = MarketPlausibility.judge(in, USD);
    for (Map.Entry<String, VendorQuotes> e : in.entrySet()) {
      if (e.getKey().equals("mithril")) continue;
      // Nothing refused: the very payload, not a copy. Verda's V100 at 0.14 (spot 0.07) and
      // Vast's cheapest hosts are among them.
      assertSame(e.getValue(), out.get(e.getKey()), e.getKey());
    }
    assertTrue(in.get("verda").quotes().stream().anyMatch(q -> q.offerId().equals("1V100.6V") && q.price().equals(Money.of("0.07", "USD"))));
  }

  @Test
  void never_judges_a_vendor_by_itself_nor_a_card_too_few_others_sell() {
    VendorQuotes mithril = sky("mithril", "skypilot-org/v8/mithril/vms.csv");
    // Alone, or beside two other sellers of its cards: no market, nothing refused.
    assertSame(mithril, MarketPlausibility.judge(book(mithril), USD).get("mithril"));
    Map<String, VendorQuotes> two = book(mithril, sky("verda", "skypilot-org/v8/verda/vms.csv"),
        sky("primeintellect", "skypilot-org/v8/primeintellect/vms.csv"));
    assertSame(mithril, MarketPlausibility.judge(two, USD).get("mithril"));
    // A third seller of A100 80GB SXM and B200 makes a market.
    two.put("shadeform", sky("shadeform", "skypilot-org/v8/shadeform/vms.csv"));
    assertEquals(5, MarketPlausibility.judge(two, USD).get("mithril").rejected().size());
  }

  @Test
  void lets_reference_sheets_neither_judge_nor_be_judged() {
    VendorQuotes mithril = sky("mithril", "skypilot-org/v8/mithril/vms.csv");
    VendorQuotes verda = sky("verda", "skypilot-org/v8/verda/vms.csv");
    // The same catalogs marked as reference sheets: none of them may set mithril's market.
    Map<String, VendorQuotes> refs = book(mithril, verda.withReference(true),
        sky("shadeform", "skypilot-org/v8/shadeform/vms.csv").withReference(true),
        sky("primeintellect", "skypilot-org/v8/primeintellect/vms.csv").withReference(true));
    assertSame(mithril, MarketPlausibility.judge(refs, USD).get("mithril"));
    // And a reference sheet with placeholders in a real market is left as it is.
    Map<String, VendorQuotes> market = mithrilAndMarket();
    VendorQuotes asReference = market.get("mithril").withReference(true);
    market.put("mithril", asReference);
    assertSame(asReference, MarketPlausibility.judge(market, USD).get("mithril"));
  }

  @Test
  void compares_prices_in_one_currency() {
    // Seeweb's euro prices are converted before they are judged: at the ECB rate of the sample
    // (1 EUR = 1.1252 USD) its L4 at 0.38 EUR is 0.4276 USD per GPU-hour.
    VendorQuotes seeweb = sky("seeweb", "skypilot-org/v8/seeweb/vms.csv");
    FxRates ecb = new FxRates("EUR", Map.of("USD", new java.math.BigDecimal("1.1252")), java.time.LocalDate.parse("2025-05-09"), "ECB");
    Quote l4 = seeweb.quotes().stream().filter(q -> q.offerId().equals("ECS1GPU6")).findFirst().orElseThrow();
    assertEquals(0.38, MarketPlausibility.perGpuHour(l4, ecb).orElseThrow(), 1e-9);
    FxRates usdBase = new FxRates("USD", Map.of("EUR", new java.math.BigDecimal("1").divide(new java.math.BigDecimal("1.1252"),
        java.math.MathContext.DECIMAL64)), java.time.LocalDate.parse("2025-05-09"), "ECB");
    assertEquals(0.4276, MarketPlausibility.perGpuHour(l4, usdBase).orElseThrow(), 0.00005);
    // Unknown currency: not judged rather than misjudged.
    assertTrue(MarketPlausibility.perGpuHour(l4, USD).isEmpty());
    Map<String, VendorQuotes> in = book(seeweb, sky("lambda", "anycloud-sh/lambda/vms.gpu.csv"),
        sky("verda", "skypilot-org/v8/verda/vms.csv"), sky("shadeform", "skypilot-org/v8/shadeform/vms.csv"));
    assertSame(seeweb, MarketPlausibility.judge(in, USD).get("seeweb"));
    assertEquals(Map.of("seeweb", 0), MarketPlausibility.judge(in, usdBase).entrySet().stream().filter(e -> e.getKey().equals("seeweb"))
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().rejected().size())));
  }
}
