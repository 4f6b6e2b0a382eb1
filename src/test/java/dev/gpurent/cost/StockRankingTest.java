package dev.gpurent.cost;

import static dev.gpurent.Fixtures.book;
import static dev.gpurent.Fixtures.guideReference;
import static dev.gpurent.Fixtures.scenario;
import static dev.gpurent.text.Localizer.en;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.report.RankingText;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Stated stock in the ranking, on the guide's pinned template (guide-template.yaml) priced from the
 * guide's reference sheet, ranked as a vendor: 2 x RTX 4090 monthly at 1500 = 3000 and 100 h of an
 * A100 40G at 12 = 1200, plus 200 storage, 400 egress and 200 for the load balancer: 5000 CNY a month.
 */
class StockRankingTest {

  static final CostModel MODEL = new CostModel(Fixtures.CATALOG, Fixtures.RULES);

  static Ranking rank(UnaryOperator<Quote> stock, boolean inStock) {
    VendorQuotes ref = guideReference();
    VendorQuotes stated = new VendorQuotes(ref.vendor(), ref.displayName(), ref.terms(), ref.quotes().stream().map(stock).toList(),
        List.of(), ref.fetchedAt(), ref.note(), ref.reference());
    Scenario s = scenario("guide-template.yaml");
    Constraints c = s.constraints();
    s = s.withConstraints(new Constraints(c.vendors(), c.regions(), c.gpuMakers(), c.minComputeCapability(), c.requireComplete(),
        true, inStock));
    return MODEL.rank(s, book(stated));
  }

  @Test
  void a_plan_on_offers_with_a_stated_count_shows_it() {
    Ranking r = rank(q -> q.withStock(Stock.available(3, "available_count=3")), false);
    VendorPlan p = r.plans().get(0);
    assertEquals(Money.of("5000", "CNY"), p.monthlyTotal());
    assertEquals(Map.of("state", "available", "count", 3, "said", "available_count=3"), p.placements().get(0).toMap().get("stock"));
    String text = RankingText.render(r, 1);
    assertTrue(text.contains("  stock inference: 3 in stock (available_count=3)\n"), text);
    assertTrue(text.contains("  stock fine-tuning: 3 in stock (available_count=3)\n"), text);
    assertTrue(RankingText.render(r, 1, dev.gpurent.text.Lang.ZH).contains("有货 3 台（available_count=3）"));
  }

  /**
   * The 4090's monthly price sold out: inference goes on-demand, 2 cards x 730 h x 3 = 4380 instead
   * of 3000, a bill of 6380; the monthly offer is listed as skipped, with the 5000 it would have made.
   */
  @Test
  void a_sold_out_offer_is_never_picked_and_is_listed_where_it_would_have_won() {
    Ranking r = rank(q -> q.gpuId().equals("rtx-4090") && q.billing() == Billing.MONTHLY ? q.withStock(Stock.unavailable("SOLD_OUT")) : q,
        false);
    VendorPlan p = r.plans().get(0);
    assertEquals(Money.of("6380", "CNY"), p.monthlyTotal());
    assertEquals(Billing.ON_DEMAND, p.placements().get(0).billing());
    assertEquals(List.of(Billing.ON_DEMAND, Billing.SPOT), p.placements().get(0).modes().stream().map(Placement.ModeCost::billing).toList(),
        "a sold-out mode is not among the offer's modes");
    Skipped k = r.skipped().get(0);
    assertEquals(1, r.skipped().size());
    assertEquals(List.of("inference", "MONTHLY", "3000.00", "4380.00", "5000.00", "true", "not rentable now (SOLD_OUT)"),
        List.of(k.workload(), k.quote().billing().name(), k.perMonth().plain(), k.instead().orElseThrow().plain(),
            k.planWith().orElseThrow().plain(), String.valueOf(k.wouldLead()), en(k.reason())));
    assertTrue(RankingText.render(r, 1).contains("""
        Skipped, not rentable now (they would have been picked):
          guide-reference rtx-4090, cn monthly for inference: 3000.00 CNY a month, not rentable now (SOLD_OUT); \
        picked instead at 4380.00 CNY; with it guide-reference's bill would be 5000.00 CNY a month, #1
        """), RankingText.render(r, 1));
  }

  @Test
  void in_stock_takes_only_offers_stated_available_and_counts_the_rest() {
    Ranking none = rank(q -> q, true);
    assertTrue(none.plans().isEmpty());
    QuoteBook b = book(guideReference());
    int quotes = b.vendors().values().iterator().next().quotes().quotes().size();
    assertEquals(Map.of(Ranking.EXCLUDED_IN_STOCK, quotes), none.excluded());
    assertEquals("inference: no offer of rtx-4090 is stated in stock (inStock); fine-tuning: no offer of a100-40g-sxm is stated in stock (inStock)",
        en(none.unavailable().get(0).reason()));
    Ranking some = rank(q -> q.billing() == Billing.ON_DEMAND ? q.withStock(Stock.available(null, "rentable: true")) : q, true);
    assertEquals(Money.of("6380", "CNY"), some.plans().get(0).monthlyTotal(), "the 4090s on-demand: its monthly price states no stock");
    assertTrue(some.skipped().isEmpty(), "an offer of unstated stock is left out by the filter, not skipped as sold out");
  }

  @Test
  void in_stock_is_read_strictly() {
    assertEquals(true, StrictInputTest.read(StrictInputTest.INFERENCE + "inStock: true\n").constraints().inStock());
    assertEquals(false, StrictInputTest.read(StrictInputTest.INFERENCE).constraints().inStock());
    assertEquals("inStock: must be true or false, got 'yes please'", StrictInputTest.error(StrictInputTest.INFERENCE + "inStock: yes please\n"));
  }
}
