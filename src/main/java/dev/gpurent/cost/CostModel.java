package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
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
   * Every vendor's cheapest plan for {@code s}: the complete plans cheapest first, then the
   * incomplete ones cheapest first; the scenario's filters applied, the reference sheet set beside
   * the plans, vendors that cannot carry it listed with the reason.
   */
  public Ranking rank(Scenario s, QuoteBook book) {
    Pass pass = pass(s, book);
    List<VendorResult> results = new ArrayList<>(book.vendors().size());
    for (QuoteBook.Entry e : book.vendors().values()) results.add(pass.vendor(e));
    return pass.merge(results);
  }

  /** One scenario on one book, ready to price vendors one by one and rank what they gave. */
  Pass pass(Scenario s, QuoteBook book) {
    return new Pass(s, book);
  }

  RankingRules rules() {
    return rules;
  }

  /**
   * The two steps of a ranking: {@link #vendor} prices one vendor alone (the scan and its plan),
   * {@link #merge} ranks the vendors' results against each other (order, winsAt, the mixed plan).
   * A full ranking runs the first for every vendor; a live one only for the vendors that changed.
   */
  final class Pass {

    private final Scenario s;
    private final QuoteBook book;
    private final OfferScan scan;
    private final PlanBuilder builder;

    private Pass(Scenario s, QuoteBook book) {
      this.s = s;
      this.book = book;
      this.scan = new OfferScan(catalog, rules, s, book);
      this.builder = new PlanBuilder(catalog, rules, s, book, scan);
    }

    /** What vendor {@code e} of this pass's book gives for the scenario, alone. */
    VendorResult vendor(QuoteBook.Entry e) {
      String vendor = e.quotes().vendor();
      Constraints c = s.constraints();
      Map<String, Integer> excluded = new LinkedHashMap<>();
      List<Ranking.Unavailable> unavailable = new ArrayList<>(1);
      boolean asReference = e.quotes().reference() && !c.includeReference();
      if (!asReference && !c.vendors().admits(vendor)) {
        excluded.put(Ranking.EXCLUDED_VENDOR, e.quotes().quotes().size());
        return new VendorResult(e, excluded, unavailable, null, false, null, null);
      }
      if (!e.freshness().rankable()) {
        unavailable.add(new Ranking.Unavailable(vendor, Words.of("unavailable.expired", "freshness", Words.freshness(e.freshness()))));
        return new VendorResult(e, excluded, unavailable, null, false, null, null);
      }
      scan.countExclusions(e, asReference, excluded);
      Picks[] picks = new Picks[s.workloads().size()];
      List<dev.gpurent.text.Message> missing = new ArrayList<>();
      for (int w = 0; w < picks.length; w++) {
        picks[w] = scan.select(w, e);
        if (picks[w].best == null) missing.add(Words.of("unavailable.workload", "workload", s.workloads().get(w).name(), "reason", scan.whyNot(w, e)));
      }
      VendorPlan plan = null;
      if (asReference) {
        // The guide's sheet is shown beside the plans, never among them nor in the mixed plan.
        if (missing.isEmpty()) plan = builder.plan(e, picks, unavailable).orElse(null);
      } else if (!missing.isEmpty()) {
        unavailable.add(new Ranking.Unavailable(vendor, Words.list(missing)));
      } else {
        plan = builder.plan(e, picks, unavailable).orElse(null);
        if (plan != null && c.requireComplete() && !plan.complete()) {
          unavailable.add(new Ranking.Unavailable(vendor, Words.of("unavailable.incomplete", "gaps",
              plan.gaps().stream().map(g -> Words.of("unavailable.gap", "item", g.item(), "reason", g.reason())).toList())));
          plan = null;
        }
      }
      List<List<Quote>> modes = null;
      if (plan != null) {
        modes = new ArrayList<>(picks.length);
        for (Picks p : picks) modes.add(scan.index().modesOf(p.best.quote));
      }
      return new VendorResult(e, excluded, List.copyOf(unavailable), picks, asReference, plan, modes);
    }

    /** The ranking of {@code results}, one per vendor of this pass's book, in the book's vendor order. */
    Ranking merge(Iterable<VendorResult> results) {
      return merge(results, null, m -> { });
    }

    /**
     * The same, reusing from {@code memo} (the last merge of a live ranking; null for none) what
     * rests on the very same inputs, and handing what this merge worked out to {@code next}.
     */
    Ranking merge(Iterable<VendorResult> results, MergeMemo memo, java.util.function.Consumer<MergeMemo> next) {
      Map<String, Integer> excluded = new LinkedHashMap<>();
      List<VendorPlan> plans = new ArrayList<>();
      List<Ranking.Unavailable> unavailable = new ArrayList<>();
      Map<String, Picks[]> allPicks = new LinkedHashMap<>();
      Optional<VendorPlan> reference = Optional.empty();
      for (VendorResult r : results) {
        r.excluded().forEach((rule, n) -> excluded.merge(rule, n, Integer::sum));
        unavailable.addAll(r.unavailable());
        if (r.picks() == null) continue;
        if (r.reference()) {
          if (r.plan() != null) reference = Optional.of(r.plan());
          continue;
        }
        allPicks.put(r.vendor(), r.picks());
        if (r.plan() != null) plans.add(r.plan());
      }
      Constraints c = s.constraints();
      book.unavailable().forEach((vendor, reason) -> {
        if (c.vendors().admits(vendor)) unavailable.add(new Ranking.Unavailable(vendor, Words.bookReason(reason)));
      });
      unavailable.sort(Comparator.comparing(Ranking.Unavailable::vendor));
      // Complete plans first, cheapest first: #1 is the cheapest plan one can sign as it stands. The
      // incomplete ones follow in their own group, cheapest first, each with what it would take.
      plans.sort(Comparator.comparing((VendorPlan p) -> !p.complete()).thenComparing(p -> p.monthlyTotal().amount())
          .thenComparing(VendorPlan::vendor));
      VendorPlan best = plans.isEmpty() ? null : plans.get(0);
      java.util.IdentityHashMap<VendorPlan, VendorPlan> ranked = new java.util.IdentityHashMap<>();
      for (int i = 1; i < plans.size(); i++) {
        VendorPlan p = plans.get(i);
        VendorPlan withWinsAt = memo == null ? null : memo.ranked(p, best);
        if (withWinsAt == null) {
          withWinsAt = p.withWinsAt(builder.winsAt(p, allPicks.get(p.vendor()), book.vendor(p.vendor()).orElseThrow().quotes().terms(),
              plans.get(0)));
        }
        ranked.put(p, withWinsAt);
        plans.set(i, withWinsAt);
      }
      String[] vendorOf = new String[s.workloads().size()];
      Pick[] chosen = builder.cheapest(allPicks, vendorOf);
      dev.gpurent.text.Message[] mixedNote = {Words.EMPTY};
      Optional<MixedPlan> mixed;
      if (memo != null && memo.sameMixed(chosen, vendorOf, best)) {
        mixed = memo.mixed;
        mixedNote[0] = memo.mixedNote;
      } else {
        mixed = builder.mixedPlan(allPicks, plans, mixedNote);
      }
      next.accept(new MergeMemo(best, ranked, chosen, vendorOf, mixed, mixedNote[0]));
      return new Ranking(s.name(), s.currency(), s.horizonMonths(), plans, mixed, mixedNote[0], unavailable, book.builtAt(),
          reference, excluded, ApiComparison.of(s, best, book));
    }
  }

  /** A winsAt unit price is asked for to four decimals (0.0123/hour); a bill line's shows what it needs ({@link LineFigures}). */
  static final int UNIT_PRICE_DECIMALS = 4;

}

