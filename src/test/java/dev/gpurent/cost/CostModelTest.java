package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.book;
import static dev.gpurent.Fixtures.guideReference;
import static dev.gpurent.Fixtures.scenario;
import static dev.gpurent.Fixtures.sheet;
import static dev.gpurent.text.Localizer.en;
import static dev.gpurent.text.Localizer.ens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The guide's budgets (5.1, 5.2), computed end to end from the shipped scenario files. */
class CostModelTest {

  private static final CostModel MODEL = new CostModel(CATALOG, Fixtures.RULES);
  private static final VendorQuotes INFER = sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));
  private static final VendorQuotes USD = sheet(Path.of("src/test/resources/sheets/usd-cloud.yaml"));

  /** Ranks with the guide's reference sheet among the vendors, as --include-reference does: the guide's figures are its prices. */
  private static Ranking rank(Scenario s, QuoteBook book) {
    return MODEL.rank(s.withConstraints(s.constraints().withIncludeReference(true)), book);
  }

  private static Money cny(String amount) {
    return Money.of(amount, "CNY");
  }

  private static VendorPlan onlyPlan(String scenarioFile) {
    Ranking r = rank(scenario(scenarioFile), book(guideReference()));
    assertEquals(1, r.plans().size(), () -> "unavailable: " + r.unavailable());
    return r.plans().get(0);
  }

  private static Scenario withChanges(String file, Map<String, Object> top, Map<String, Object> firstWorkload) {
    @SuppressWarnings("unchecked") Map<String, Object> s = new LinkedHashMap<>((Map<String, Object>) YamlFiles.load(Path.of("config/scenarios", file)));
    s.putAll(top);
    @SuppressWarnings("unchecked") List<Object> ws = new ArrayList<>((List<Object>) s.get("workloads"));
    @SuppressWarnings("unchecked") Map<String, Object> w0 = new LinkedHashMap<>((Map<String, Object>) ws.get(0));
    w0.putAll(firstWorkload);
    ws.set(0, w0);
    s.put("workloads", ws);
    return new ScenarioReader(CATALOG).read(s);
  }

  @Test
  void prices_the_pinned_template_at_exactly_5000() {
    VendorPlan plan = onlyPlan("guide-template.yaml");
    assertEquals(cny("5000"), plan.monthlyTotal());
    assertEquals(cny("60000"), plan.bill().horizonTotal());
    List<LineItem> lines = plan.bill().lines();
    assertEquals(List.of("inference GPU", "fine-tuning GPU", "object storage", "public bandwidth", "load balancer"),
        lines.stream().map(l -> en(l.item())).toList());
    // the guide's template line by line: quantity x unit price = per month, the A100 in card-hours
    assertEquals(List.of("2", "100", "2000", "500", "1"), lines.stream().map(l -> l.quantity().toPlainString()).toList());
    assertEquals(List.of("card-month", "card-hour", "GB-month", "GB", "month"), lines.stream().map(LineItem::unit).toList());
    assertEquals(List.of(cny("1500"), cny("12"), cny("0.1"), cny("0.8"), cny("200")),
        lines.stream().map(LineItem::unitPrice).toList());
    assertEquals(List.of(cny("3000"), cny("1200"), cny("200"), cny("400"), cny("200")),
        lines.stream().map(LineItem::perMonth).toList());
    assertEquals(Billing.MONTHLY, plan.placements().get(0).billing());
    assertEquals(Billing.ON_DEMAND, plan.placements().get(1).billing());
    assertEquals("on-demand, 1 card(s) x 100 h a month", en(lines.get(1).note()));
  }

  @Test
  void reports_savings_and_break_even_of_the_template() {
    VendorPlan plan = onlyPlan("guide-template.yaml");
    // all on-demand: two 4090s at 3 x 730 h = 4380 instead of 3000 (the template runs every day of the 730-hour month)
    assertEquals(cny("1380"), plan.savingsVsOnDemand().orElseThrow());
    assertTrue(plan.savingsVsMonthly().isEmpty(), "the A100 40G is not sold monthly");
    Placement inference = plan.placements().get(0);
    assertEquals(0, inference.breakEvenHours().orElseThrow().compareTo(new java.math.BigDecimal("500")));
    assertEquals(List.of(Billing.ON_DEMAND, Billing.SPOT, Billing.MONTHLY),
        inference.modes().stream().map(Placement.ModeCost::billing).toList());
    assertEquals(cny("4380"), inference.modes().get(0).perMonth().cents());
    assertFalse(inference.modes().get(1).allowed(), "spot is not for 7x24 serving");
  }

  @Test
  void prices_the_three_team_plans_at_1800_4800_and_11500() {
    assertEquals(cny("1800"), onlyPlan("team-small.yaml").monthlyTotal());
    assertEquals(cny("4800"), onlyPlan("team-medium.yaml").monthlyTotal());
    VendorPlan large = onlyPlan("team-large.yaml");
    assertEquals(cny("11500"), large.monthlyTotal());
    Placement training = large.placements().get(1);
    assertEquals("a100-80g-sxm", training.gpu().id());
    assertEquals(2, training.cards());
    assertEquals(100, training.hoursPerMonth(), 1e-9);
    assertEquals(cny("4000"), training.perMonth().cents());
  }

  @Test
  void beats_the_guide_on_the_open_template_and_says_why() {
    VendorPlan plan = onlyPlan("guide-template-open.yaml");
    assertEquals(cny("4489.50"), plan.monthlyTotal());
    assertTrue(plan.monthlyTotal().compareTo(cny("5000")) <= 0);
    Placement inference = plan.placements().get(0);
    assertEquals("rtx-4090", inference.gpu().id());
    assertEquals(Billing.MONTHLY, inference.billing());
    Placement tuning = plan.placements().get(1);
    assertEquals("l40s", tuning.gpu().id());
    assertEquals(cny("689.50"), tuning.perMonth().cents());
    assertTrue(en(tuning.explanation()).contains("each card at 1.16x the speed of the reference NVIDIA A100 40GB SXM"),
        en(tuning.explanation()));
    assertTrue(en(tuning.explanation()).contains("On the reference card it would take 1 x NVIDIA A100 40GB SXM on-demand at 1200.00 a month (+510.50)"),
        en(tuning.explanation()));
    assertTrue(en(tuning.explanation()).contains("Next best card: 2 x NVIDIA GeForce RTX 4090 on-demand at 755.45"), en(tuning.explanation()));
  }

  @Test
  void warns_of_a_card_at_the_edge_of_its_memory() {
    VendorPlan plan = onlyPlan("guide-template.yaml");
    assertEquals("fine-tuning: needs 98% of NVIDIA A100 40GB SXM memory, at the edge (guide 2.2)", ens(plan.warnings()).get(0));
    assertTrue(ens(plan.warnings()).get(1).startsWith("prices dated: the oldest price used is of 2025-01-01, 365 days"), ens(plan.warnings()).get(1));
    assertEquals(2, ens(plan.warnings()).size(), "a reference sheet gets no thin-data warning: " + ens(plan.warnings()));
  }

  @Test
  void warns_of_lora_on_24_gb_cards_and_multi_card_pcie() {
    Scenario s = withChanges("guide-template.yaml", Map.of(), Map.of());
    List<Workload> ws = new ArrayList<>(s.workloads());
    Job tune = (Job) ws.get(1);
    ws.set(1, new Job(tune.name(), tune.kind(), java.util.Optional.of("rtx-4090"), tune.vendor(), tune.referenceGpu(),
        false, 7, TuneMethod.LORA, 0, 100, 0, 1.5));
    Scenario pinned4090 = new Scenario(s.name(), s.currency(), 12, 0.3, ws, 2000, 500, 1, 1, java.util.Optional.empty());
    VendorPlan plan = rank(pinned4090, book(guideReference())).plans().get(0);
    Placement p = plan.placements().get(1);
    assertEquals(2, p.cards());
    assertTrue(ens(plan.warnings()).contains("fine-tuning: 7B LoRA on 24 GB cards is marginal, OOM risk (guide 3.2)"), ens(plan.warnings()).toString());
    assertTrue(ens(plan.warnings()).contains(
        "fine-tuning: 2 cards over PCIe 4.0 reach 1.5x, not 2x; NVLink cards or fewer cards scale better (guide 3.3)"), ens(plan.warnings()).toString());
  }

  @Test
  void warns_when_bandwidth_costs_more_than_gpus() {
    Scenario s = withChanges("guide-template.yaml", Map.of("egressGbPerMonth", 20000), Map.of());
    VendorPlan plan = rank(s, book(guideReference())).plans().get(0);
    assertTrue(ens(plan.warnings()).contains(
        "bandwidth (16000.00 CNY/month) costs more than the GPUs: compress and cache API responses (guide 4.4)"), ens(plan.warnings()).toString());
    Scenario compressed = withChanges("guide-template.yaml", Map.of("egressGbPerMonth", 20000, "compressionRatio", 4), Map.of());
    LineItem egress = rank(compressed, book(guideReference())).plans().get(0).bill().lines().get(3);
    assertEquals("5000", egress.quantity().toPlainString());
    assertEquals("GB", egress.unit());
    assertEquals(cny("4000"), egress.perMonth());
  }

  @Test
  void allows_spot_only_for_interruptible_work_and_warns_for_7x24_serving() {
    Scenario s = withChanges("guide-template.yaml", Map.of(), Map.of("interruptible", true));
    VendorPlan plan = rank(s, book(guideReference())).plans().get(0);
    Placement inference = plan.placements().get(0);
    assertEquals(Billing.SPOT, inference.billing());
    // 2 cards x 730 h x 1.1 restart overhead x 0.8
    assertEquals(cny("1284.80"), inference.perMonth().cents());
    assertTrue(ens(plan.warnings()).contains(
        "inference: spot for 7x24 inference can be reclaimed at any time; use monthly or on-demand (guide 6.1)"), ens(plan.warnings()).toString());
  }

  @Test
  void ranks_vendors_best_first_and_lists_the_ones_that_cannot_carry_it() {
    Ranking r = rank(scenario("guide-template.yaml"), book(guideReference(), INFER, TRAIN));
    assertEquals(List.of("train-cloud", "guide-reference"), r.plans().stream().map(VendorPlan::vendor).toList());
    VendorPlan train = r.plans().get(0);
    // 2 x 4090 yearly at 15000 x 0.9 discount / 12 + A100 100 h x 10 x 0.9 + 160 + (100 x 1.0 + 400 x 0.5) + 300
    assertEquals(cny("3910"), train.monthlyTotal());
    assertEquals(Billing.YEARLY, train.placements().get(0).billing());
    assertEquals(cny("300"), train.bill().lines().get(3).perMonth(), "tiered egress");
    assertEquals(List.of("infer-cloud: fine-tuning: no offer of a100-40g-sxm"), r.unavailable().stream().map(u -> u.vendor() + ": " + en(u.reason())).toList());
  }

  @Test
  void mixes_vendors_when_each_workload_is_cheaper_elsewhere() {
    Ranking r = rank(scenario("guide-template.yaml"), book(guideReference(), INFER, TRAIN));
    MixedPlan mixed = r.mixed().orElseThrow();
    assertEquals("infer-cloud", mixed.homeVendor());
    assertEquals(List.of("infer-cloud", "train-cloud"), mixed.placements().stream().map(p -> p.quote().vendor()).toList());
    LineItem copy = mixed.bill().lines().get(mixed.bill().lines().size() - 1);
    assertEquals("data transfer", en(copy.item()));
    assertEquals(cny("83.33"), copy.perMonth());
    // 2000 + 900 + 240 + 250 + 100 + 83.33
    assertEquals(cny("3573.33"), mixed.bill().monthlyTotal());
    assertEquals(cny("336.67"), mixed.savingsVsBest());
  }

  @Test
  void pays_a_whole_yearly_package_over_a_six_month_horizon() {
    Scenario s = withChanges("guide-template.yaml", Map.of("horizonMonths", 6), Map.of());
    VendorPlan train = rank(s, book(TRAIN)).plans().get(0);
    assertEquals(Billing.YEARLY, train.placements().get(0).billing());
    assertEquals(cny("4500"), train.placements().get(0).perMonth().cents());
  }

  @Test
  void breaks_ties_by_vendor_id_and_always_ranks_the_same() {
    VendorQuotes ref = guideReference();
    VendorQuotes twin = new VendorQuotes("a-twin", "twin", ref.terms(),
        ref.quotes().stream().map(q -> new dev.gpurent.quote.Quote("a-twin", q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
            q.vcpus(), q.ramGiB(), q.billing(), q.price(), q.unit(), q.observedAt(), q.source())).toList(),
        List.of(), Fixtures.AT, "");
    Ranking r1 = rank(scenario("guide-template.yaml"), book(ref, twin));
    Ranking r2 = rank(scenario("guide-template.yaml"), book(twin, ref));
    assertEquals(List.of("a-twin", "guide-reference"), r1.plans().stream().map(VendorPlan::vendor).toList());
    assertEquals(r1.toMap(), r2.toMap());
  }

  @Test
  void converts_usd_quotes_and_shows_the_rate_and_its_date() {
    Map<String, Object> table = Map.of("base", "EUR", "asOf", "2025-05-09", "source", "ECB test",
        "rates", Map.of("USD", "1.1252", "CNY", "8.1470"));
    QuoteBook b = QuoteBook.of(List.of(USD), FxRates.fallback(table), Fixtures.AT);
    Ranking r = rank(withChanges("guide-template.yaml", Map.of(), Map.of()), b);
    assertEquals(List.of("usd-cloud: fine-tuning: no offer of a100-40g-sxm"), r.unavailable().stream().map(u -> u.vendor() + ": " + en(u.reason())).toList());
    Scenario inferenceOnly = new Scenario("usd", "CNY", 12, 0.3, List.of(scenario("guide-template.yaml").workloads().get(0)),
        0, 0, 1, 0, java.util.Optional.empty());
    VendorPlan plan = rank(inferenceOnly, b).plans().get(0);
    Placement p = plan.placements().get(0);
    assertEquals(cny("4228.45"), p.perMonth().cents(), "2 x 730 h x 0.40 USD x 8.1470/1.1252");
    assertEquals("1 USD = 7.24049 CNY (ECB test 2025-05-09)", p.fx(), "only the text is rounded; the conversion keeps every digit");
  }

  @Test
  void spreads_a_multi_card_job_over_an_eight_gpu_instance() {
    Scenario s = scenario("team-large.yaml");
    Scenario training = new Scenario("t", "USD", 12, 0.3, List.of(s.workloads().get(1)), 0, 0, 1, 0, java.util.Optional.empty());
    Placement p = rank(training, QuoteBook.of(List.of(USD), FxRates.none("USD"), Fixtures.AT)).plans().get(0).placements().get(0);
    assertEquals(1, p.instances());
    assertEquals(8, p.cards());
    // 200 card-hours on 2 NVLinked reference cards = 190 one-card hours; 8 cards run at 8 x 0.95^3
    assertEquals(190 / (8 * Math.pow(0.95, 3)), p.hoursPerMonth(), 1e-9);
  }

  @Test
  void charges_a_migration_once_spread_over_the_horizon_unless_the_data_is_already_there() {
    Map<String, Object> migration = Map.of("gb", 10000, "sourceEgressPerGb", 0.6, "fromVendor", "infer-cloud");
    Scenario s = withChanges("guide-template.yaml", Map.of("migration", migration), Map.of());
    Ranking r = rank(s, book(guideReference(), TRAIN));
    LineItem atRef = last(r.plans().stream().filter(p -> p.vendor().equals("guide-reference")).findFirst().orElseThrow());
    assertEquals("data migration", en(atRef.item()));
    assertEquals(cny("500"), atRef.perMonth(), "10000 GB x 0.6 / 12 months");
    Map<String, Object> here = Map.of("gb", 10000, "sourceEgressPerGb", 0.6, "fromVendor", "guide-reference");
    Ranking r2 = rank(withChanges("guide-template.yaml", Map.of("migration", here), Map.of()), book(guideReference()));
    assertEquals(cny("0"), last(r2.plans().get(0)).perMonth());
  }

  private static LineItem last(VendorPlan p) {
    return p.bill().lines().get(p.bill().lines().size() - 1);
  }

  @Test
  void leaves_expired_vendors_out_and_flags_stale_ones() {
    Map<String, QuoteBook.Entry> entries = new LinkedHashMap<>();
    entries.put("guide-reference", new QuoteBook.Entry(guideReference(), new Freshness(Freshness.State.STALE, Duration.ofMinutes(90))));
    entries.put("train-cloud", new QuoteBook.Entry(TRAIN, new Freshness(Freshness.State.EXPIRED, Duration.ofDays(3))));
    Ranking r = rank(scenario("guide-template.yaml"), new QuoteBook(entries, FxRates.none("CNY"), Fixtures.AT));
    assertEquals(List.of("guide-reference"), r.plans().stream().map(VendorPlan::vendor).toList());
    assertEquals("stale (90 min old)", en(r.plans().get(0).freshness()));
    assertTrue(ens(r.plans().get(0).warnings()).contains("prices are stale (90 min old): the last refresh failed"));
    assertEquals("train-cloud", r.unavailable().get(0).vendor());
    assertTrue(en(r.unavailable().get(0).reason()).startsWith("prices expired"), en(r.unavailable().get(0).reason()));
  }

  @Test
  void shows_a_tiered_egress_line_at_its_average_price_per_gb() {
    Workload tune = scenario("guide-template.yaml").workloads().get(1);
    Scenario s = new Scenario("tiered", "CNY", 12, 0.3, List.of(tune), 0, 500, 1, 0, java.util.Optional.empty());
    LineItem egress = rank(s, book(TRAIN)).plans().get(0).bill().lines().get(1);
    assertEquals("public bandwidth", en(egress.item()));
    // train-cloud: the first 100 GB at 1.0, the next 400 at 0.5: 300.00, which is 0.60 a GB on average
    assertEquals(cny("300.00"), egress.perMonth());
    assertEquals(cny("0.6000"), egress.unitPrice());
    assertEquals("tiered: 2 bands, average per GB", en(egress.note()));
  }

  @Test
  void states_how_long_a_migration_takes_and_warns_when_it_eats_the_horizon() {
    Map<String, Object> slow = Map.of("gb", 5000, "sourceEgressPerGb", 0.6);
    VendorPlan plan = rank(withChanges("guide-template.yaml", Map.of("migration", slow), Map.of()), book(guideReference())).plans().get(0);
    LineItem line = last(plan);
    assertTrue(en(line.note()).endsWith("; 5000 GB at 100 Mbit/s: 4.63 days"), en(line.note()));
    assertTrue(ens(plan.warnings()).stream().noneMatch(w -> w.startsWith("data migration:")), "4.63 days of 12 months is fine");
    Map<String, Object> slower = Map.of("gb", 5000, "sourceEgressPerGb", 0.6, "bandwidthMbps", 10);
    VendorPlan warned = rank(withChanges("guide-template.yaml", Map.of("migration", slower), Map.of()), book(guideReference())).plans().get(0);
    assertTrue(ens(warned.warnings()).contains("data migration: 5000 GB at 10 Mbit/s: 46.3 days, more than 5% of the 12-month horizon: "
        + "ask for a faster link or ship the data (guide 6.2)"), ens(warned.warnings()).toString());
  }

  @Test
  void adds_the_source_vendors_migration_fee_and_uses_its_bandwidth() {
    Map<String, Object> fromTrain = Map.of("gb", 10000, "sourceEgressPerGb", 0.6, "fromVendor", "train-cloud");
    Ranking r = rank(withChanges("guide-template.yaml", Map.of("migration", fromTrain), Map.of()), book(guideReference(), TRAIN));
    LineItem line = last(r.plans().stream().filter(p -> p.vendor().equals("guide-reference")).findFirst().orElseThrow());
    // 0.6 source egress + 0 guide ingress + train-cloud's 0.05 migration-out fee = 0.65 a GB: 6500 once, 541.67 a month
    assertEquals(cny("0.6500"), line.unitPrice());
    assertEquals(cny("541.67"), line.perMonth());
    assertTrue(en(line.note()).startsWith("one-time 6500.00 (source egress + guide-reference ingress + train-cloud migration-out fee)"),
        en(line.note()));
    assertTrue(en(line.note()).endsWith("; 10000 GB at 1000 Mbit/s: 0.93 days"), en(line.note()));
  }

  @Test
  void says_at_what_discount_a_vendor_below_the_top_would_take_it() {
    Scenario s = scenario("guide-template-open.yaml");
    QuoteBook book = book(guideReference(), INFER, TRAIN);
    Ranking r = rank(s, book);
    assertTrue(r.plans().size() >= 2, r.unavailable().toString());
    assertTrue(r.plans().get(0).winsAt().isEmpty(), "#1 needs no discount");
    for (VendorPlan p : r.plans().subList(1, r.plans().size())) {
      WinsAt w = p.winsAt().orElseThrow();
      if (w.discount().isEmpty()) continue;
      // re-ranked at that discount the vendor is #1; a ten-thousandth less discount and it is not
      assertEquals(p.vendor(), rank(s, withDiscount(book, p.vendor(), w.discount().get())).plans().get(0).vendor(), en(w.text()));
      BigDecimal more = w.discount().get().add(new BigDecimal("0.0001"));
      assertFalse(p.vendor().equals(rank(s, withDiscount(book, p.vendor(), more)).plans().get(0).vendor()), en(w.text()));
    }
    assertTrue(r.plans().stream().skip(1).anyMatch(p -> p.winsAt().orElseThrow().discount().isPresent()), "some vendor can win");
  }

  @Test
  void says_when_no_gpu_discount_can_win() {
    // 200 TB stored: infer-cloud's storage alone (0.12/GB-month) costs more than guide-reference's whole bill
    Scenario s = withChanges("team-small.yaml", Map.of("storedGb", 200000), Map.of());
    Ranking r = rank(s, book(guideReference(), INFER));
    VendorPlan second = r.plans().get(1);
    assertEquals("infer-cloud", second.vendor());
    WinsAt w = second.winsAt().orElseThrow();
    assertTrue(w.discount().isEmpty());
    assertTrue(en(w.text()).startsWith("no GPU discount can win: its other services (storage, bandwidth, load balancers, migration) alone cost 24"),
        en(w.text()));
  }

  private static QuoteBook withDiscount(QuoteBook book, String vendor, BigDecimal discount) {
    List<VendorQuotes> all = new ArrayList<>();
    for (QuoteBook.Entry e : book.vendors().values()) {
      VendorQuotes q = e.quotes();
      all.add(!q.vendor().equals(vendor) ? q : new VendorQuotes(q.vendor(), q.displayName(), q.terms().withDiscount(discount),
          q.quotes(), q.rejected(), q.fetchedAt(), q.note(), q.reference()));
    }
    return QuoteBook.of(all, book.fx(), book.builtAt());
  }
}
