package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.text.Localizer.en;
import static dev.gpurent.text.Localizer.ens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast scan against {@link ReferencePricer} on random books and scenarios from a fixed seed:
 * the same vendors ranked, the same winning offer per vendor and workload, the same totals to the
 * cent, with the placement rules (one machine, allowMultiNode, 730 h), filters, fallbacks,
 * requireComplete, stated stock and inStock in play, and the same offers skipped for want of stock.
 */
class ScanDifferentialTest {

  private static final long SEED = 20261201L;
  private static final int CASES = 1500;
  private static final String[] GPUS = {"rtx-4090", "a100-40g-sxm", "a100-80g-sxm", "l40s", "h100-sxm", "a10", "t4", "mi300x"};
  private static final String[][] REGIONS = {{"us-east-1", "US"}, {"eu-west-1", "IE"}, {"cn-north-1", "CN"}, {"sverdlovsk", "RU"}, {"", ""}};
  static final FxRates FX = FxRates.fallback(Map.of("base", "EUR", "asOf", "2025-05-09", "source", "test table",
      "rates", Map.of("USD", "1.1252", "CNY", "8.1470")));
  static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");

  @Test
  void scan_and_reference_agree_on_every_winner_and_total() {
    Random r = new Random(SEED);
    CostModel model = new CostModel(CATALOG, Fixtures.RULES);
    ReferencePricer reference = new ReferencePricer(CATALOG, Fixtures.RULES);
    int plansCompared = 0, incomplete = 0, multiNode = 0, typical = 0, skipped = 0, leads = 0;
    for (int n = 0; n < CASES; n++) {
      QuoteBook book = book(r);
      Scenario drawn = scenario(r);
      // one case in five asks for stated stock; chosen by the case number, so the random books and scenarios stay as they were
      Scenario s = n % 5 == 2 ? drawn.withConstraints(inStock(drawn.constraints())) : drawn;
      Ranking fast = model.rank(s, book);
      String where = "case " + n + " (seed " + SEED + ")";
      assertAgree(reference, s, book, fast, where);
      skipped += fast.skipped().size();
      leads += (int) fast.skipped().stream().filter(Skipped::wouldLead).count();
      for (VendorPlan p : fast.plans()) {
        plansCompared++;
        if (!p.complete()) incomplete++;
        if (p.bill().lines().stream().anyMatch(l -> l.pricedBy() == LineItem.PricedBy.TYPICAL)) typical++;
        if (p.placements().stream().anyMatch(x -> en(x.explanation()).contains(" machines"))) multiNode++;
      }
    }
    // the random cases reach the rules they are meant to test
    String reached = plansCompared + " plans, " + incomplete + " incomplete, " + typical + " with a typical figure, " + multiNode
        + " spread over machines, " + skipped + " offers skipped for stock (" + leads + " would have led)";
    assertTrue(plansCompared > 1500, reached);
    assertTrue(incomplete > 200, reached);
    assertTrue(typical > 100, reached);
    assertTrue(multiNode > 20, reached);
    assertTrue(skipped > 100, reached);
    assertTrue(leads > 20, reached);
  }

  /**
   * Asserts that {@code fast} ranks as the reference pricer does on {@code book}: the offers skipped
   * for stock, the vendors ranked and their order, each plan's winning offers, total and completeness.
   */
  static Map<String, ReferencePricer.Plan> assertAgree(ReferencePricer reference, Scenario s, QuoteBook book, Ranking fast,
                                                        String where) {
    List<String> slowSkipped = new ArrayList<>();
    Map<String, ReferencePricer.Plan> slow = reference.price(s, book, slowSkipped);
    assertEquals(slowSkipped.stream().sorted().toList(), fast.skipped().stream()
        .map(k -> k.quote().vendor() + '|' + k.workload() + '|' + k.quote().key()).sorted().toList(), where + ": skipped for stock");
    for (VendorPlan p : fast.plans()) {
      assertTrue(p.placements().stream().noneMatch(x -> x.quote().stock().isUnavailable()), where + ": an unavailable offer picked");
      if (s.constraints().inStock()) {
        assertTrue(p.placements().stream().allMatch(x -> x.quote().stock().isAvailable()), where + ": inStock picked unstated stock");
      }
    }
    assertEquals(slow.keySet().stream().sorted().toList(), fast.plans().stream().map(VendorPlan::vendor).sorted().toList(),
        () -> where + ": vendors ranked; unavailable " + fast.unavailable() + "\n" + s + "\n" + fast.plans().stream()
            .map(p -> new io.vertx.core.json.JsonObject(p.toMap()).encodePrettily()).toList());
    // #1 is the cheapest complete plan: the complete plans first, then the incomplete ones, each group cheapest first
    List<String> order = slow.entrySet().stream().sorted(java.util.Comparator
            .comparing((Map.Entry<String, ReferencePricer.Plan> e) -> !e.getValue().complete())
            .thenComparing(e -> e.getValue().monthlyTotal()).thenComparing(Map.Entry::getKey))
        .map(Map.Entry::getKey).toList();
    assertEquals(order, fast.plans().stream().map(VendorPlan::vendor).toList(), where + ": order, complete plans first");
    for (VendorPlan p : fast.plans()) {
      ReferencePricer.Plan want = slow.get(p.vendor());
      assertEquals(want.winners().stream().map(Quote::key).toList(), p.placements().stream().map(x -> x.quote().key()).toList(),
          where + ", " + p.vendor() + ": winning offers");
      assertEquals(want.monthlyTotal(), p.monthlyTotal().amount(), where + ", " + p.vendor() + ": monthly total");
      assertEquals(want.complete(), p.complete(), where + ", " + p.vendor() + ": complete");
    }
    return slow;
  }

  /**
   * Books where every card is sold in many regions at prices a few tenths of a cent apart or equal:
   * the scan reads each shape's offers cheapest first and stops early, so the winners of each kind,
   * their ties in cents (broken by the offer key) and the region filters' counts must still be the
   * reference's. Seeded; the counts below show that ties and early stops are reached.
   */
  @Test
  void dense_books_give_the_reference_winners_with_ties_in_cents() {
    Random r = new Random(SEED + 1);
    CostModel model = new CostModel(CATALOG, Fixtures.RULES);
    ReferencePricer reference = new ReferencePricer(CATALOG, Fixtures.RULES);
    int plans = 0, tiedWinners = 0;
    for (int n = 0; n < 300; n++) {
      Map<String, QuoteBook.Entry> vendors = new LinkedHashMap<>();
      for (int v = 0, count = 1 + r.nextInt(3); v < count; v++) {
        VendorQuotes vq = denseVendor(r, "v" + v);
        vendors.put(vq.vendor(), new QuoteBook.Entry(vq, Freshness.fresh()));
      }
      QuoteBook book = new QuoteBook(vendors, Map.of(), FX, AT);
      Scenario drawn = scenario(r);
      Scenario s = n % 4 == 1 ? drawn.withConstraints(inStock(drawn.constraints())) : drawn;
      Ranking fast = model.rank(s, book);
      assertAgree(reference, s, book, fast, "dense case " + n + " (seed " + (SEED + 1) + ")");
      for (VendorPlan p : fast.plans()) {
        plans++;
        for (Placement x : p.placements()) {
          // another offer of the winner's card and mode at the same price: the key decided
          tiedWinners += (int) book.vendor(p.vendor()).orElseThrow().quotes().quotes().stream()
              .filter(q -> q != x.quote() && q.gpuId().equals(x.quote().gpuId()) && q.billing() == x.quote().billing()
                  && q.gpuCount() == x.quote().gpuCount() && q.price().equals(x.quote().price()))
              .count() > 0 ? 1 : 0;
        }
      }
    }
    assertTrue(plans > 300, plans + " plans");
    assertTrue(tiedWinners > 300, tiedWinners + " winners tied with another offer of their shape");
  }

  /** A vendor of 2 cards x 1-2 machine sizes, each in 6-40 offers over the regions at a few close prices. */
  static VendorQuotes denseVendor(Random r, String vendor) {
    String currency = r.nextBoolean() ? "USD" : "CNY";
    List<Quote> quotes = new ArrayList<>();
    int o = 0;
    for (int g = 0; g < 2; g++) {
      String gpu = GPUS[r.nextInt(GPUS.length)];
      for (int per : r.nextBoolean() ? new int[] {1} : new int[] {1, 8}) {
        double hourly = (0.2 + r.nextInt(4000) / 100.0) * per;
        for (int k = 6 + r.nextInt(35); k > 0; k--, o++) {
          String[] region = REGIONS[r.nextInt(REGIONS.length)];
          // equal, or a tenth of a cent or two apart: many costs round to the same cents
          double price = hourly + r.nextInt(3) * 0.001;
          for (Billing b : List.of(Billing.ON_DEMAND, Billing.SPOT, Billing.MONTHLY)) {
            PriceUnit unit = b == Billing.MONTHLY ? PriceUnit.MONTH : PriceUnit.HOUR;
            double factor = b == Billing.SPOT ? 0.4 : b == Billing.MONTHLY ? 0.7 * unit.hoursValue() : 1;
            BigDecimal amount = BigDecimal.valueOf(Math.round(price * factor * 10000) / 10000.0);
            quotes.add(withStock(new Quote(vendor, region[0], gpu + "-x" + per + "-" + o, gpu, per, 0, 0, b,
                new Money(amount, currency), unit, AT, "test").withCountry(region[1])));
          }
        }
      }
    }
    return new VendorQuotes(vendor, vendor, terms(r, currency), quotes, List.of(), AT, "", false);
  }

  static Constraints inStock(Constraints c) {
    return new Constraints(c.vendors(), c.regions(), c.gpuMakers(), c.minComputeCapability(), c.requireComplete(),
        c.includeReference(), true);
  }

  /**
   * A stated stock for a random quote, from its own figures rather than the random stream (so books
   * drawn before stock existed stay as they were): one in six unavailable, one in six available
   * with a count, one in six available without one, the rest unstated.
   */
  static Quote withStock(Quote q) {
    int h = Math.floorMod(q.key().hashCode() * 31 + q.price().amount().hashCode(), 6);
    return switch (h) {
      case 0 -> q.withStock(Stock.unavailable("rentable: false"));
      case 1 -> q.withStock(Stock.available(1 + Math.floorMod(q.key().hashCode(), 9), "available_count"));
      case 2 -> q.withStock(Stock.available(null, "rentable: true"));
      default -> q;
    };
  }

  static QuoteBook book(Random r) {
    Map<String, QuoteBook.Entry> vendors = new LinkedHashMap<>();
    int count = 1 + r.nextInt(4);
    for (int v = 0; v < count; v++) {
      VendorQuotes vq = vendor(r, "v" + v, v == 0);
      vendors.put(vq.vendor(), new QuoteBook.Entry(vq, Freshness.fresh()));
    }
    return new QuoteBook(vendors, Map.of(), FX, AT);
  }

  /** A random vendor of 1-14 offers; the first vendor of a book is the reference sheet one time in four. */
  static VendorQuotes vendor(Random r, String vendor, boolean mayBeReference) {
    String currency = r.nextBoolean() ? "USD" : "CNY";
    List<Quote> quotes = new ArrayList<>();
    int offers = 1 + r.nextInt(14);
    for (int o = 0; o < offers; o++) quotes.addAll(offer(r, vendor, currency, o));
    VendorTerms terms = terms(r, currency);
    return new VendorQuotes(vendor, vendor, terms, quotes, List.of(), AT, "", mayBeReference && r.nextInt(4) == 0);
  }

  /** One random offer (card, GPUs per instance, region) in on-demand and some of spot, monthly and yearly. */
  static List<Quote> offer(Random r, String vendor, String currency, int o) {
    List<Quote> quotes = new ArrayList<>();
    String gpu = GPUS[r.nextInt(GPUS.length)];
    int per = new int[] {1, 1, 2, 4, 8}[r.nextInt(5)];
    String[] region = REGIONS[r.nextInt(REGIONS.length)];
    String offer = gpu + "-x" + per + "-" + o;
    double hourly = (0.2 + r.nextInt(4000) / 100.0) * per;
    for (Billing b : List.of(Billing.ON_DEMAND, Billing.SPOT, Billing.MONTHLY, Billing.YEARLY)) {
      if (b != Billing.ON_DEMAND && r.nextInt(3) == 0) continue;
      PriceUnit unit = b.isCommitment() ? (r.nextBoolean() ? PriceUnit.MONTH : PriceUnit.HOUR) : PriceUnit.HOUR;
      double factor = switch (b) {
        case SPOT -> 0.3 + r.nextDouble() * 0.5;
        case MONTHLY -> 0.7;
        case YEARLY -> 0.55;
        default -> 1;
      };
      BigDecimal price = BigDecimal.valueOf(Math.round(hourly * factor * unit.hoursValue() * 10000) / 10000.0);
      quotes.add(withStock(new Quote(vendor, region[0], offer, gpu, per, 0, 0, b, new Money(price, currency), unit, AT, "test")
          .withCountry(region[1])));
    }
    return quotes;
  }

  static VendorTerms terms(Random r, String currency) {
    ServicePrice storage = service(r, currency, 0.005, 0.2);
    ServicePrice ingress = service(r, currency, 0, 0.05);
    ServicePrice lb = service(r, currency, 5, 200);
    int kind = r.nextInt(4);
    List<VendorTerms.EgressTier> tiers = new ArrayList<>();
    ServicePrice egress;
    if (kind == 0) {
      egress = r.nextBoolean() ? ServicePrice.notSold("") : ServicePrice.unknown("");
    } else {
      if (kind == 3) tiers.add(new VendorTerms.EgressTier(BigDecimal.valueOf(100 + r.nextInt(2000)), Money.zero(currency)));
      tiers.add(new VendorTerms.EgressTier(null, money(r, currency, 0.01, 0.9)));
      // a single-band egress may be a typical figure: billed, but the plan is not complete
      egress = kind == 2 && r.nextInt(3) == 0 ? ServicePrice.typical(tiers.get(0).perGb(), "")
          : ServicePrice.priced(tiers.get(0).perGb(), "");
    }
    return new VendorTerms(currency, storage, egress, tiers, ingress, lb, "hour",
        r.nextInt(5) == 0 ? new BigDecimal("0.9") : BigDecimal.ONE, "test");
  }

  private static ServicePrice service(Random r, String currency, double lo, double hi) {
    return switch (r.nextInt(6)) {
      case 0 -> ServicePrice.notSold("");
      case 1 -> ServicePrice.unknown("");
      case 2 -> ServicePrice.typical(money(r, currency, lo, hi), "");
      default -> ServicePrice.priced(money(r, currency, lo, hi), "");
    };
  }

  private static Money money(Random r, String currency, double lo, double hi) {
    return new Money(BigDecimal.valueOf(Math.round((lo + r.nextDouble() * (hi - lo)) * 10000) / 10000.0), currency);
  }

  static Scenario scenario(Random r) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("currency", r.nextBoolean() ? "CNY" : "USD");
    s.put("horizonMonths", new int[] {6, 12, 24}[r.nextInt(3)]);
    List<Object> workloads = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      Map<String, Object> w = new LinkedHashMap<>();
      boolean multi = r.nextInt(3) == 0;
      if (multi) w.put("allowMultiNode", true);
      if (r.nextBoolean()) {
        w.put("kind", "inference");
        w.put("paramsBillions", new double[] {1, 7, 13, 34, 70}[r.nextInt(5)]);
        w.put("peakQps", 0.5 + r.nextInt(40));
        w.put("secondsPerRequest", 1 + r.nextInt(3));
        w.put("concurrentPerCard", 1 + r.nextInt(8));
        w.put("hoursPerDay", new double[] {4, 12, 24}[r.nextInt(3)]);
        w.put("daysPerMonth", new int[] {22, 30, 31}[r.nextInt(3)]);
        if (r.nextInt(4) == 0) w.put("interruptible", true);
      } else {
        w.put("kind", r.nextBoolean() ? "fine-tune" : "training");
        w.put("paramsBillions", new double[] {1, 7, 13, 70}[r.nextInt(4)]);
        w.put("gpuHoursPerMonth", new double[] {20, 100, 400, 1500, 6000}[r.nextInt(5)]);
        if (r.nextInt(3) == 0) w.put("interruptible", true);
      }
      workloads.add(w);
    }
    s.put("workloads", workloads);
    if (r.nextBoolean()) s.put("storedGb", r.nextInt(5000));
    if (r.nextBoolean()) s.put("egressGbPerMonth", r.nextInt(20000));
    if (r.nextInt(3) == 0) s.put("loadBalancers", 1 + r.nextInt(2));
    if (r.nextInt(4) == 0) s.put("migration", Map.of("gb", 100 + r.nextInt(5000), "sourceEgressPerGb", 0.05));
    if (r.nextInt(5) == 0) s.put("requireComplete", true);
    if (r.nextInt(4) == 0) s.put("includeReference", true);
    if (r.nextInt(5) == 0) s.put("regions", Map.of("exclude", List.of(r.nextBoolean() ? "RU" : "cn-north-1")));
    if (r.nextInt(6) == 0) s.put("regions", Map.of("only", List.of("US", "IE")));
    if (r.nextInt(6) == 0) s.put("vendors", Map.of("exclude", List.of("v1")));
    if (r.nextInt(5) == 0) s.put("gpuMakers", List.of("nvidia"));
    if (r.nextInt(6) == 0) s.put("minComputeCapability", 8.0);
    return new ScenarioReader(CATALOG).read(s);
  }
}
