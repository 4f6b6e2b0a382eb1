package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.RULES;
import static dev.gpurent.Fixtures.book;
import static dev.gpurent.Fixtures.guideReference;
import static dev.gpurent.Fixtures.sheet;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.quote.QuoteBook;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random scenarios, in range and far out of it (0, 5e-324, 1e12, 1e308, negatives): reading one
 * either refuses it (a 400, naming fields) or gives a ranking in which no plan has 0 cards or a
 * total at or below zero; nothing else is ever thrown (which the service would answer 500).
 */
class RandomScenarioProperties {

  private static final QuoteBook BOOK = book(guideReference(), sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml")),
      sheet(Path.of("src/test/resources/sheets/train-cloud.yaml")));
  private static final CostModel MODEL = new CostModel(CATALOG, RULES);
  private static final List<String> CARDS = CATALOG.all().stream().map(Gpu::id).limit(40).toList();

  @Property(tries = 400)
  void a_random_scenario_is_refused_or_ranked_with_cards_and_a_positive_total(@ForAll("scenarios") Map<String, Object> raw) {
    Scenario s;
    try {
      s = new ScenarioReader(CATALOG).read(raw);
    } catch (InvalidInputException refused) {
      assertTrue(!refused.problems().isEmpty());
      net.jqwik.api.statistics.Statistics.collect("refused");
      return;
    }
    Ranking r = MODEL.rank(s, BOOK);
    net.jqwik.api.statistics.Statistics.collect(r.plans().isEmpty() ? "ranked, no plan" : "ranked with plans");
    for (VendorPlan p : r.plans()) {
      assertTrue(p.monthlyTotal().amount().compareTo(BigDecimal.ZERO) > 0, () -> p.vendor() + " total " + p.monthlyTotal() + " for " + raw);
      for (Placement pl : p.placements()) {
        assertTrue(pl.cards() > 0 && pl.instances() > 0, () -> p.vendor() + ": " + pl.cards() + " cards for " + raw);
        assertTrue(pl.perMonth().amount().compareTo(BigDecimal.ZERO) > 0, () -> p.vendor() + ": " + pl.perMonth() + " for " + raw);
      }
    }
    r.mixed().ifPresent(m -> assertTrue(m.bill().monthlyTotal().amount().compareTo(BigDecimal.ZERO) > 0, () -> "mixed for " + raw));
    r.toMap();  // the answer as encoded: explanations and every mode, computed on first read
  }

  @Property(tries = 400)
  void a_fit_that_is_ok_has_cards_within_the_limit(@ForAll("inference") Map<String, Object> workload,
                                                  @ForAll("card") String card) {
    Scenario s;
    try {
      s = new ScenarioReader(CATALOG).read(Map.of("workloads", List.of(workload)));
    } catch (InvalidInputException refused) {
      return;
    }
    Workload w = s.workloads().get(0);
    Fit f = Fit.of(w, CATALOG.byId(card).orElseThrow(), CATALOG.byId(w.referenceGpu()).orElseThrow(), s.headroom());
    if (f.ok()) assertTrue(f.cards() >= 1 && f.cards() <= Sizing.MAX_CARDS && f.cardsPerCopy() >= 1, () -> f.cards() + " for " + workload);
  }

  /** Figures from ordinary to absurd. */
  private static Arbitrary<Object> figure() {
    return Arbitraries.oneOf(
        Arbitraries.doubles().between(0.01, 1000).map(d -> (Object) d),
        Arbitraries.doubles().between(-3, 15).map(e -> (Object) Math.pow(10, e)),
        Arbitraries.of(0.0, -1.0, 5e-324, 1e-12, 1e9, 1e12, 1e15, 1e16, 1e308, -1e308, 2147483647.0, 4294967296.0),
        Arbitraries.of("7", "NaN", "1e400", "abc"));
  }

  @Provide
  Arbitrary<String> card() {
    return Arbitraries.of(CARDS);
  }

  @Provide
  Arbitrary<Map<String, Object>> inference() {
    return Combinators.combine(figure(), figure(), figure(), figure(), Arbitraries.of(CARDS), Arbitraries.of("memory", "compute"))
        .as((params, qps, seconds, concurrent, ref, bound) -> {
          Map<String, Object> w = new LinkedHashMap<>();
          w.put("kind", "inference");
          w.put("paramsBillions", params);
          w.put("peakQps", qps);
          w.put("secondsPerRequest", seconds);
          w.put("concurrentPerCard", concurrent);
          w.put("referenceGpu", ref);
          w.put("bound", bound);
          return w;
        });
  }

  private Arbitrary<Map<String, Object>> job() {
    return Combinators.combine(Arbitraries.of("fine-tune", "training", "batch"), figure(), figure(), figure(),
            Arbitraries.of(0, 1, 2, 8, 1024), Arbitraries.of(true, false))
        .as((kind, params, hours, memory, cards, interruptible) -> {
          Map<String, Object> w = new LinkedHashMap<>();
          w.put("kind", kind);
          w.put("paramsBillions", params);
          w.put("gpuHoursPerMonth", hours);
          if (kind.equals("batch")) w.put("memoryGB", memory);
          w.put("cards", cards);
          w.put("interruptible", interruptible);
          return w;
        });
  }

  @Provide
  Arbitrary<Map<String, Object>> scenarios() {
    Arbitrary<List<Map<String, Object>>> workloads = Arbitraries.oneOf(inference(), job()).list().ofMinSize(1).ofMaxSize(4);
    return Combinators.combine(workloads, figure(), figure(), figure(), Arbitraries.of(1, 3, 12, 36, 120), Arbitraries.of(0.0, 0.3, 2.0))
        .as((ws, stored, egress, compression, horizon, headroom) -> {
          Map<String, Object> s = new LinkedHashMap<>();
          s.put("currency", "CNY");
          s.put("horizonMonths", horizon);
          s.put("headroom", headroom);
          s.put("workloads", new ArrayList<>(ws));
          s.put("storedGb", stored);
          s.put("egressGbPerMonth", egress);
          s.put("compressionRatio", compression);
          return s;
        });
  }
}
