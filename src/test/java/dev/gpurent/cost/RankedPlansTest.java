package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.guideReference;
import static dev.gpurent.Fixtures.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A one-off ranking orders the vendors on each plan's draft (its data lines exact, its GPUs to the
 * cent) and builds a plan's exact bill when it is read: what it shows is what a ranking built in
 * full (as a live one is) shows, and a GPU cost at a half cent still rounds as the exact price does.
 */
class RankedPlansTest {

  private static final CostModel MODEL = new CostModel(CATALOG, Fixtures.RULES);

  @Test
  void a_ranking_built_on_read_shows_what_one_built_in_full_shows() {
    Random r = new Random(20261202L);
    int plans = 0;
    for (int n = 0; n < 120; n++) {
      QuoteBook book = ScanDifferentialTest.book(r);
      Scenario s = ScanDifferentialTest.scenario(r);
      Ranking onRead = MODEL.rank(s, book);
      Ranking inFull = LiveRanking.of(MODEL, s, book).ranking();
      assertInstanceOf(RankedPlans.class, onRead.plans());
      // Read from the last plan up: a plan below #1 builds #1 for its winsAt on the way.
      for (int i = onRead.plans().size() - 1; i >= 0; i--) {
        assertEquals(new JsonObject(inFull.plans().get(i).toMap()), new JsonObject(onRead.plans().get(i).toMap()), "case " + n + ", plan " + i);
      }
      assertEquals(new JsonObject(inFull.toMap()), new JsonObject(onRead.toMap()), "case " + n);
      plans += onRead.plans().size();
    }
    assertTrue(plans > 100, "plans compared: " + plans);
  }

  @Test
  void a_gpu_cost_at_half_a_cent_is_priced_exactly_not_read_off_its_double() {
    Scenario s = scenario("guide-template-open.yaml");
    Quote q = new Quote("v", "r", "o", "rtx-4090", 1, 8, 64, Billing.ON_DEMAND, Money.of("0.0005", "CNY"), PriceUnit.HOUR,
        Instant.parse("2026-01-01T00:00:00Z"), "test");
    QuoteBook book = Fixtures.book(guideReference());
    PlanBuilder builder = new PlanBuilder(CATALOG, Fixtures.RULES, s, book, new OfferScan(CATALOG, Fixtures.RULES, s, book));
    // 730 hours at 0.0005 CNY: 0.365 CNY exactly, 36.5 cents, which rounds half up to 37. Its double
    // a hair below the half cent would round to 36; one clear of it is read as it is.
    Pick atHalf = new Pick().set(q, null, 1, 730, Math.nextDown(0.365), 0);
    assertEquals(37, builder.cents(atHalf, guideReference().terms()));
    Pick clear = new Pick().set(q, null, 1, 730, 0.3612, 0);
    assertEquals(36, builder.cents(clear, guideReference().terms()));
  }
}
