package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.book;
import static dev.gpurent.Fixtures.guideReference;
import static dev.gpurent.Fixtures.scenario;
import static dev.gpurent.Fixtures.sheet;
import static dev.gpurent.text.Localizer.en;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.quote.VendorTerms;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plan is complete only when every line is at the vendor's own stated price; #1 is the cheapest
 * complete plan, and a cheaper incomplete one is told what its missing services may cost.
 */
class CompletenessTest {

  private static final CostModel MODEL = new CostModel(CATALOG, Fixtures.RULES);
  private static final VendorQuotes INFER = sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));

  private static Ranking rank(Scenario s, dev.gpurent.quote.QuoteBook book) {
    return MODEL.rank(s.withConstraints(s.constraints().withIncludeReference(true)), book);
  }

  /** train-cloud with its storage price (0.08 a GB-month) marked as a typical figure. */
  private static VendorQuotes trainWithTypicalStorage() {
    return Fixtures.withTypicalStorage(TRAIN);
  }

  @Test
  void the_shipped_vendor_files_mark_their_typical_figures() {
    for (String vendor : List.of("vast", "vast-api")) {
      VendorTerms t = VendorDefinition.load(Path.of("adapters", vendor + ".yaml")).terms();
      assertTrue(t.storagePerGbMonth().typical() && t.egress().typical() && t.ingressPerGb().typical(), vendor);
      assertEquals(new Money(new java.math.BigDecimal("0.15"), "USD"), t.storagePerGbMonth().price());
    }
    assertTrue(VendorDefinition.load(Path.of("adapters/crusoe.yaml")).terms().storagePerGbMonth().typical());
    VendorTerms koyeb = VendorDefinition.load(Path.of("adapters/koyeb.yaml")).terms();
    assertTrue(koyeb.storagePerGbMonth().typical() && koyeb.egress().typical());
    assertFalse(VendorDefinition.load(Path.of("adapters/verda.yaml")).terms().storagePerGbMonth().typical(),
        "verda states its own block storage price");
    // the mark survives the JSON the last-good cache and the cluster carry
    VendorTerms vast = VendorDefinition.load(Path.of("adapters/vast.yaml")).terms();
    assertEquals(vast, QuoteJson.terms(QuoteJson.toJson(vast)));
  }

  @Test
  void a_typical_figure_makes_the_plan_incomplete_and_ranks_it_after_the_complete_ones() {
    Ranking r = rank(scenario("guide-template.yaml"), book(guideReference(), trainWithTypicalStorage()));
    assertEquals(List.of("guide-reference", "train-cloud"), r.plans().stream().map(VendorPlan::vendor).toList());
    VendorPlan train = r.plans().get(1);
    assertFalse(train.complete());
    assertEquals(Money.of("3910", "CNY"), train.monthlyTotal(), "cheaper than #1 (5000.00), but not signable as it stands");
    LineItem storage = train.bill().lines().get(2);
    assertEquals("object storage", en(storage.item()));
    assertEquals(LineItem.PricedBy.TYPICAL, storage.pricedBy());
    assertEquals("a typical figure at train-cloud, not a price it states (0.08 CNY)", en(storage.note()));
    assertEquals(List.of("typical"), train.gaps().stream().map(g -> g.pricedBy().wire()).toList());
    // 3750.00 besides storage; 2000 GB may cost up to 1250.00, a tie with #1 that guide-reference wins by id:
    // the factor 7.8124 on 0.08 (0.624992, shown rounded down), 1249.98 a month
    WinsAt w = train.winsAt().orElseThrow();
    assertEquals(1, w.services().size());
    WinsAt.ServiceCap cap = w.services().get(0);
    assertEquals("objectStorage", cap.service());
    assertEquals(Money.of("0.6249", "CNY"), cap.atMost());
    assertEquals("beats #1 guide-reference if its object storage costs at most 0.6249/GB-month: ask for a quote", en(w.text()));
  }

  @Test
  void the_mixed_plan_names_the_vendor_of_each_line() {
    Ranking r = rank(scenario("guide-template.yaml"), book(guideReference(), INFER, TRAIN));
    MixedPlan mixed = r.mixed().orElseThrow();
    assertEquals(List.of("infer-cloud", "train-cloud", "infer-cloud", "infer-cloud", "infer-cloud", "infer-cloud"),
        mixed.lineVendors());
    @SuppressWarnings("unchecked") List<Map<String, Object>> lines =
        (List<Map<String, Object>>) ((Map<String, Object>) mixed.toMap().get("bill")).get("lines");
    assertEquals(mixed.lineVendors(), lines.stream().map(l -> l.get("vendor")).toList());
  }

  @Test
  void no_mix_note_speaks_of_the_ranking_shown() {
    Ranking alone = rank(scenario("guide-template.yaml"), book(guideReference(), TRAIN));
    assertEquals("no mix of vendors beats #1 train-cloud: every workload is cheapest there already", en(alone.mixedNote()));
    Ranking lower = rank(scenario("guide-template.yaml"), book(guideReference(), trainWithTypicalStorage()));
    assertEquals("no mix of vendors beats #1 guide-reference: every workload's GPUs are cheapest at train-cloud, so a mix would "
        + "be its own plan, and it stands lower", en(lower.mixedNote()));
  }

  @Test
  void two_vendors_of_one_display_name_are_told_apart_by_their_ids() {
    VendorQuotes twin = new VendorQuotes("train-twin", TRAIN.displayName(), TRAIN.terms(),
        TRAIN.quotes().stream().map(q -> new dev.gpurent.quote.Quote("train-twin", q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
            q.vcpus(), q.ramGiB(), q.billing(), q.price(), q.unit(), q.observedAt(), q.source())).toList(),
        List.of(), Fixtures.AT, "");
    Ranking r = rank(scenario("guide-template.yaml"), book(guideReference(), TRAIN, twin));
    Map<String, String> names = new java.util.TreeMap<>();
    r.plans().forEach(p -> names.put(p.vendor(), p.displayName()));
    assertEquals(TRAIN.displayName() + " (train-cloud)", names.get("train-cloud"));
    assertEquals(TRAIN.displayName() + " (train-twin)", names.get("train-twin"));
    assertEquals(guideReference().displayName(), names.get("guide-reference"), "a name no other vendor carries stays as it is");
  }
}
