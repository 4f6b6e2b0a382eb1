package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * A plan is ranked on its data lines' cents worked out in doubles ({@link DataLines#cents}); its
 * bill, built when read, has the exact lines ({@link DataLines#of}). The two must agree to the
 * cent, or the double must step aside.
 */
class DataLinesCentsTest {

  /**
   * 0.015 CNY a GB-month for 11 GB is 0.165 exactly, 0.17 on the bill; as a double it is
   * 16.499999999999996 cents, which rounds to 0.16: a line exactly at a half cent is left to the
   * exact lines.
   */
  @Test
  void a_line_at_exactly_half_a_cent_is_left_to_the_exact_lines() {
    Scenario s = scenario(Map.of("storedGb", 11));
    VendorTerms terms = terms(ServicePrice.priced(Money.of("0.015", "CNY"), ""));
    DataLines data = new DataLines(s, ScanDifferentialTest.FX, Fixtures.RULES, v -> Optional.empty());
    assertEquals(-1, data.cents("v", terms, new ArrayList<>(), factor(s)));
    assertEquals(new BigDecimal("0.17"), data.of("v", terms).lines().get(0).perMonth().amount());
  }

  /** Just under a half cent, the double says it: 0.0149999 CNY for 11 GB is 0.1649989, 0.16 on the bill. */
  @Test
  void a_line_clear_of_half_a_cent_is_summed_from_the_double() {
    Scenario s = scenario(Map.of("storedGb", 11));
    VendorTerms terms = terms(ServicePrice.priced(Money.of("0.0149999", "CNY"), ""));
    DataLines data = new DataLines(s, ScanDifferentialTest.FX, Fixtures.RULES, v -> Optional.empty());
    assertEquals(16, data.cents("v", terms, new ArrayList<>(), factor(s)));
  }

  /**
   * On random terms and scenarios (storage, tiered and typical egress, load balancers, migrations
   * with and without fees and a source vendor, fallbacks or none, three currencies): the doubles' cents are the exact lines' sum, with the same gaps,
   * or -1; a vendor the exact lines cannot price fails the same way.
   */
  @Test
  void the_doubles_agree_with_the_exact_lines_or_step_aside() {
    Random r = new Random(20261202L);
    int summed = 0, aside = 0, unpriceable = 0;
    for (int n = 0; n < 3000; n++) {
      Scenario s = n % 2 == 0 ? ScanDifferentialTest.scenario(r) : dataScenario(r);
      String currency = new String[] {"USD", "CNY", "EUR"}[r.nextInt(3)];
      VendorTerms terms = withMigrationFees(r, ScanDifferentialTest.terms(r, currency));
      VendorTerms source = withMigrationFees(r, ScanDifferentialTest.terms(r, "USD"));
      // every third case without fallback providers: a service the vendor does not price leaves it unpriceable
      RankingRules rules = n % 3 == 0 ? RankingRules.NONE : Fixtures.RULES;
      DataLines data = new DataLines(s, ScanDifferentialTest.FX, rules, v -> v.equals("src") ? Optional.of(source) : Optional.empty());
      String where = "case " + n + ": " + s + " " + terms;
      DataLines.Result exact;
      try {
        exact = data.of("v", terms);
      } catch (DataLines.Unpriceable e) {
        DataLines.Unpriceable fast = assertThrows(DataLines.Unpriceable.class, () -> data.cents("v", terms, new ArrayList<>(), factor(s)));
        assertEquals(e.reason, fast.reason, where);
        unpriceable++;
        continue;
      }
      List<Gap> gaps = new ArrayList<>();
      long cents = data.cents("v", terms, gaps, factor(s));
      if (cents < 0) {
        aside++;
        continue;
      }
      long want = 0;
      for (LineItem l : exact.lines()) want += l.perMonth().amount().movePointRight(2).longValueExact();
      assertEquals(want, cents, where);
      assertEquals(exact.gaps(), gaps, where);
      summed++;
    }
    assertTrue(summed > 2000 && unpriceable > 100, summed + " summed, " + aside + " left to the exact lines, " + unpriceable + " unpriceable");
  }

  /** A currency's factor to the scenario's, as the scan has it. */
  private static ToDoubleFunction<String> factor(Scenario s) {
    FxRates fx = ScanDifferentialTest.FX;
    return c -> fx.rate(c, s.currency()).map(BigDecimal::doubleValue).orElse(Double.NaN);
  }

  /** A scenario of data lines alone, a migration in every other one (from "src", from "v" itself, or from a site). */
  private static Scenario dataScenario(Random r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("currency", r.nextBoolean() ? "CNY" : "USD");
    m.put("horizonMonths", new int[] {6, 12, 24}[r.nextInt(3)]);
    m.put("workloads", List.of(Map.of("kind", "fine-tune", "paramsBillions", 7, "gpuHoursPerMonth", 100)));
    m.put("storedGb", r.nextInt(5000));
    m.put("egressGbPerMonth", r.nextInt(20000));
    m.put("loadBalancers", r.nextInt(3));
    if (r.nextBoolean()) {
      Map<String, Object> migration = new LinkedHashMap<>();
      migration.put("gb", 100 + r.nextInt(5000));
      migration.put("sourceEgressPerGb", r.nextInt(1000) / 10000.0);
      String from = new String[] {"src", "v", null}[r.nextInt(3)];
      if (from != null) migration.put("fromVendor", from);
      m.put("migration", migration);
    }
    return new ScenarioReader(CATALOG).read(m);
  }

  /** {@code t} with a migration fee in and out, each stated half the time. */
  private static VendorTerms withMigrationFees(Random r, VendorTerms t) {
    ServicePrice in = r.nextBoolean() ? ServicePrice.priced(Money.of(String.valueOf(r.nextInt(500) / 10000.0), t.currency()), "")
        : ServicePrice.unknown("");
    ServicePrice out = r.nextBoolean() ? ServicePrice.priced(Money.of(String.valueOf(r.nextInt(500) / 10000.0), t.currency()), "")
        : ServicePrice.unknown("");
    return new VendorTerms(t.currency(), t.storagePerGbMonth(), t.egress(), t.egressTiers(), t.ingressPerGb(), t.loadBalancerPerMonth(),
        t.granularity(), t.discount(), t.source(), in, out, 0);
  }

  private static Scenario scenario(Map<String, Object> extra) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("currency", "CNY");
    m.put("workloads", List.of(Map.of("kind", "fine-tune", "paramsBillions", 7, "gpuHoursPerMonth", 100)));
    m.putAll(extra);
    return new ScenarioReader(CATALOG).read(m);
  }

  private static VendorTerms terms(ServicePrice storage) {
    ServicePrice none = ServicePrice.notSold("");
    return new VendorTerms("CNY", storage, none, List.of(), none, none, "hour", BigDecimal.ONE, "test");
  }
}
