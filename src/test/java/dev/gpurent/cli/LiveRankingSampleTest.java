package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Incremental re-ranking on the recorded payloads ({@code bench/sample-root.sh}): when Lambda's
 * prices rise 5%, each of the shipped scenarios prices Lambda again and no other vendor, and comes
 * out exactly as a full ranking of the new book.
 */
class LiveRankingSampleTest {

  static final BigDecimal RISE = new BigDecimal("1.05");
  static Path root;
  static QuoteBook book;
  static QuoteBook risen;
  static CostModel model;
  static ScenarioReader reader;

  @BeforeAll
  static void readTheSampleRoot() throws Exception {
    root = SampleRootTest.build();
    try (Workspace ws = new Workspace(root)) {
      book = awayFromDayBoundaries(ws.quoteBook(null, true, false, new PrintWriter(new StringWriter())));
      model = new CostModel(ws.catalog, ws.rules);
      reader = new ScenarioReader(ws.catalog);
    }
    QuoteBook.Entry lambda = book.vendor("lambda").orElseThrow();
    List<Quote> quotes = lambda.quotes().quotes().stream().map(q -> new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(),
        q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(RISE), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    Map<String, QuoteBook.Entry> vendors = new LinkedHashMap<>(book.vendors());
    vendors.put("lambda", new QuoteBook.Entry(lambda.quotes().withQuotes(quotes, lambda.quotes().rejected()), lambda.freshness()));
    risen = new QuoteBook(vendors, book.unavailable(), book.fx(), book.spotRisk().orElse(null), book.builtAt().plusSeconds(60));
  }

  /**
   * The book at a time from which the minute to the risen book's crosses no price's whole-day age:
   * a dated plan's "N days old" moves when it does, and the plan is rightly priced again (a price
   * dated 06:13:17 once made the run that built its book at 06:12:40 fail).
   */
  static QuoteBook awayFromDayBoundaries(QuoteBook b) {
    java.util.Set<Long> boundaries = new java.util.HashSet<>(List.of(0L));  // the FX rates' age counts from midnight UTC
    b.vendors().values().forEach(e -> e.quotes().quotes().forEach(q -> {
      if (q.priceDate() != null) boundaries.add(Math.floorMod(q.priceDate().getEpochSecond(), 86_400L));
    }));
    java.time.Instant at = b.builtAt();
    while (crosses(at, boundaries)) at = at.plusSeconds(90);
    return new QuoteBook(b.vendors(), b.unavailable(), b.fx(), b.spotRisk().orElse(null), at, b.tokenPrices());
  }

  /** Whether some second of the day in {@code boundaries} falls in (at - 5 s, at + 65 s]. */
  static boolean crosses(java.time.Instant at, java.util.Set<Long> boundaries) {
    long from = Math.floorMod(at.getEpochSecond() - 5, 86_400L);
    for (long b : boundaries) {
      if (Math.floorMod(b - from, 86_400L) <= 70) return true;
    }
    return false;
  }

  static Scenario scenario(String file) {
    return reader.read(YamlFiles.load(root.resolve("config/scenarios/" + file)));
  }

  @Test
  void one_vendors_change_prices_that_vendor_only_and_equals_the_full_ranking() {
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      Scenario s = scenario(file);
      LiveRanking live = LiveRanking.of(model, s, book);
      assertEquals(book.vendors().keySet(), live.recomputed(), file + ": the first ranking prices every vendor");
      live.update(risen);
      assertEquals(Set.of("lambda"), live.recomputed(), file);
      assertEquals(Json.encode(model.rank(s, risen).toMap()), Json.encode(live.ranking().toMap()), file);
      live.update(risen);
      assertEquals(Set.of(), live.recomputed(), file + ": the same book again prices nothing");
    }
  }

  @Test
  void lambdas_plan_moves_by_its_rise_and_the_others_stay_the_same_objects() {
    Scenario open = scenario("guide-template-open.yaml");
    LiveRanking live = LiveRanking.of(model, open, book);
    Ranking before = live.ranking();
    assertTrue(live.update(risen), "Lambda has a plan here: the ranking changes");
    Ranking after = live.ranking();
    VendorPlan was = plan(before, "lambda"), now = plan(after, "lambda");
    Quote wasQuote = was.placements().get(0).quote(), nowQuote = now.placements().get(0).quote();
    assertEquals(wasQuote.key(), nowQuote.key(), "the same offer wins");
    assertEquals(wasQuote.price().amount().multiply(RISE), nowQuote.price().amount(), "Lambda's GPU price, 5% up");
    assertTrue(now.monthlyTotal().compareTo(was.monthlyTotal()) > 0, was.monthlyTotal() + " -> " + now.monthlyTotal());
    // every other vendor keeps its plan (its very standing: the plan is built again only to be read), unless Lambda was #1 (it is not)
    assertFalse(after.plans().get(0).vendor().equals("lambda"));
    for (Ranking.Standing p : after.standings()) {
      if (!p.vendor().equals("lambda")) assertTrue(p == standing(before, p.vendor()), p.vendor() + " was kept");
    }
  }

  @Test
  void a_scenario_lambda_cannot_carry_is_known_unchanged() {
    Scenario medium = scenario("team-medium.yaml");
    LiveRanking live = LiveRanking.of(model, medium, book);
    assertTrue(live.ranking().plans().stream().noneMatch(p -> p.vendor().equals("lambda")), "Lambda has no plan for team-medium");
    assertFalse(live.update(risen));
    assertEquals(Set.of("lambda"), live.recomputed());
    assertEquals(risen.builtAt(), live.ranking().quotesAt());
  }

  static Ranking.Standing standing(Ranking r, String vendor) {
    return r.standings().stream().filter(p -> p.vendor().equals(vendor)).findFirst().orElseThrow(() -> new AssertionError(vendor + " has no plan"));
  }

  static VendorPlan plan(Ranking r, String vendor) {
    return r.plans().stream().filter(p -> p.vendor().equals(vendor)).findFirst().orElseThrow(() -> new AssertionError(vendor + " has no plan"));
  }
}
