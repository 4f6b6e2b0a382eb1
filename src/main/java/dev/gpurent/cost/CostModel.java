package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pure cost engine: prices a {@link Scenario} at every vendor of a {@link QuoteBook} and
 * ranks the vendors by their whole monthly bill. The same inputs always give the same ranking.
 *
 * <p>For speed, offers are compared with double arithmetic on pre-parsed prices (one pass over
 * each vendor's quotes per workload); only the winning offers are priced exactly, in
 * {@link Money}, for the bill.
 */
public final class CostModel {

  private final GpuCatalog catalog;
  private final RankingRules rules;

  /** An engine with no fallback providers: a vendor that lacks a needed service is not ranked. */
  public CostModel(GpuCatalog catalog) {
    this(catalog, RankingRules.NONE);
  }

  public CostModel(GpuCatalog catalog, RankingRules rules) {
    this.catalog = catalog;
    this.rules = rules;
  }

  /**
   * Every vendor's cheapest plan for {@code s}, best first: the scenario's filters applied, the
   * reference sheet set beside the plans, vendors that cannot carry it listed with the reason.
   */
  public Ranking rank(Scenario s, QuoteBook book) {
    OfferScan scan = new OfferScan(catalog, rules, s, book);
    PlanBuilder builder = new PlanBuilder(catalog, rules, s, book, scan);
    Map<String, Integer> excluded = scan.excluded();
    List<VendorPlan> plans = new ArrayList<>();
    List<Ranking.Unavailable> unavailable = new ArrayList<>();
    Map<String, Picks[]> allPicks = new LinkedHashMap<>();
    Optional<VendorPlan> reference = Optional.empty();
    Constraints c = s.constraints();
    for (QuoteBook.Entry e : book.vendors().values()) {
      String vendor = e.quotes().vendor();
      boolean asReference = e.quotes().reference() && !c.includeReference();
      if (!asReference && !c.vendors().admits(vendor)) {
        excluded.merge(Ranking.EXCLUDED_VENDOR, e.quotes().quotes().size(), Integer::sum);
        continue;
      }
      if (!e.freshness().rankable()) {
        unavailable.add(new Ranking.Unavailable(vendor, Words.of("unavailable.expired", "freshness", Words.freshness(e.freshness()))));
        continue;
      }
      scan.countExclusions(e, asReference);
      Picks[] picks = new Picks[s.workloads().size()];
      List<dev.gpurent.text.Message> missing = new ArrayList<>();
      for (int w = 0; w < picks.length; w++) {
        picks[w] = scan.select(w, e);
        if (picks[w].best == null) missing.add(Words.of("unavailable.workload", "workload", s.workloads().get(w).name(), "reason", scan.whyNot(w, e)));
      }
      if (asReference) {
        // The guide's sheet is shown beside the plans, never among them nor in the mixed plan.
        if (missing.isEmpty()) reference = builder.plan(e, picks, unavailable);
        continue;
      }
      allPicks.put(vendor, picks);
      if (!missing.isEmpty()) {
        unavailable.add(new Ranking.Unavailable(vendor, Words.list(missing)));
        continue;
      }
      builder.plan(e, picks, unavailable).ifPresent(p -> {
        if (c.requireComplete() && !p.complete()) {
          unavailable.add(new Ranking.Unavailable(vendor, Words.of("unavailable.incomplete", "gaps",
              p.gaps().stream().map(g -> Words.of("unavailable.gap", "item", g.item(), "reason", g.reason())).toList())));
        } else {
          plans.add(p);
        }
      });
    }
    book.unavailable().forEach((vendor, reason) -> {
      if (c.vendors().admits(vendor)) unavailable.add(new Ranking.Unavailable(vendor, Words.bookReason(reason)));
    });
    unavailable.sort(Comparator.comparing(Ranking.Unavailable::vendor));
    plans.sort(Comparator.comparing((VendorPlan p) -> p.monthlyTotal().amount()).thenComparing(VendorPlan::vendor));
    for (int i = 1; i < plans.size(); i++) {
      VendorPlan p = plans.get(i);
      plans.set(i, p.withWinsAt(builder.winsAt(p, allPicks.get(p.vendor()), book.vendor(p.vendor()).orElseThrow().quotes().terms(),
          plans.get(0))));
    }
    dev.gpurent.text.Message[] mixedNote = {Words.EMPTY};
    Optional<MixedPlan> mixed = builder.mixedPlan(allPicks, plans, mixedNote);
    return new Ranking(s.name(), s.currency(), s.horizonMonths(), plans, mixed, mixedNote[0], unavailable, book.builtAt(),
        reference, excluded);
  }


  /** Unit prices are shown to four decimals (0.0123/hour); per-month figures are exact, then rounded to the cent. */
  static final int UNIT_PRICE_DECIMALS = 4;




}

