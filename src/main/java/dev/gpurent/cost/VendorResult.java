package dev.gpurent.cost;

import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the engine made of one vendor for one scenario on one book, before the vendors are ranked
 * against each other: the quotes the scenario's filters left out, the scan's picks, the plan or
 * why there is none. Immutable once made; a live ranking keeps one per vendor between books.
 *
 * @param entry       the vendor's quotes it was made from
 * @param excluded    quotes left out at this vendor, by rule, in the order the rules were met
 * @param unavailable why the vendor cannot carry the scenario (none, or one line)
 * @param picks       per workload the scan's winners; null when the vendor was not scanned (left
 *                    out by the scenario, or its prices past the hard age limit)
 * @param reference   the reference sheet, set beside the plans rather than ranked among them
 * @param draft       the vendor's plan (the reference plan when {@code reference}) as ranked, built
 *                    in full on first read ({@link #plan}), or null
 * @param modes       per workload, every billing mode of its winning offer (what the plan's
 *                    explanation compares), or null without a plan
 * @param skipped     offers its source says are unavailable that would have been picked here (wouldLead not yet known)
 * @param scanned     the live scenarios' shared scan it was made from (what a mixed plan of it reuses); null for a one-off ranking
 */
record VendorResult(QuoteBook.Entry entry, Map<String, Integer> excluded, List<Ranking.Unavailable> unavailable,
                    Picks[] picks, boolean reference, PlanDraft draft, List<List<Quote>> modes, List<Skipped> skipped,
                    ScanMemo.Scanned scanned) {

  /** A result with nothing skipped for want of stock. */
  VendorResult(QuoteBook.Entry entry, Map<String, Integer> excluded, List<Ranking.Unavailable> unavailable, Picks[] picks,
               boolean reference, PlanDraft draft, List<List<Quote>> modes) {
    this(entry, excluded, unavailable, picks, reference, draft, modes, List.of(), null);
  }

  String vendor() {
    return entry.quotes().vendor();
  }

  /**
   * Whether this result, made again on a new book, carries exactly what {@code old} did: the same
   * vendor terms and labels, the same winners priced the same, the same modes of each winning
   * offer, the same reasons and counts, a plan of the same total, gaps and dates. A plan is made of
   * its picks, its terms and the scenario's data, so with those the same it reads the same: then
   * {@code old} can stand for it, so that a ranking none of whose vendors moved is known unchanged.
   * After a change every plan reads ({@code bookWide}: FX or spot rates), a plan with a converted
   * line is never the same (its lines show the rate).
   */
  boolean sameAs(VendorResult old, boolean bookWide) {
    QuoteBook.Entry a = entry, b = old.entry;
    if (reference != old.reference || !a.quotes().terms().equals(b.quotes().terms())
        || !a.quotes().displayName().equals(b.quotes().displayName()) || !a.quotes().note().equals(b.quotes().note())
        || a.freshness().state() != b.freshness().state() || !a.freshness().toString().equals(b.freshness().toString())
        || !excluded.equals(old.excluded) || !unavailable.equals(old.unavailable) || !Objects.equals(modes, old.modes)
        || !skipped.equals(old.skipped)) {
      return false;
    }
    if ((picks == null) != (old.picks == null) || (draft == null) != (old.draft == null)) return false;
    if (picks != null) {
      for (int w = 0; w < picks.length; w++) {
        if (!same(picks[w], old.picks[w])) return false;
      }
    }
    // without a plan its picks may still be placed in the mixed plan, whose lines show the rate
    if (draft == null) return !(bookWide && picks != null);
    PlanDraft d = draft, o = old.draft;
    return d.monthlyTotal().equals(o.monthlyTotal()) && d.gaps().equals(o.gaps()) && d.dated() == o.dated()
        && Objects.equals(d.priceDate(), o.priceDate()) && d.converted() == o.converted() && !(bookWide && d.converted());
  }

  private static boolean same(Picks a, Picks b) {
    return a.fitting == b.fitting && same(a.best, b.best) && same(a.onDemand, b.onDemand) && same(a.monthly, b.monthly)
        && same(a.singleCard, b.singleCard) && same(a.onReference, b.onReference) && same(a.otherGpu, b.otherGpu);
  }

  private static boolean same(Pick a, Pick b) {
    if (a == null || b == null) return a == b;
    return a.quote.equals(b.quote) && a.fit.gpu.id().equals(b.fit.gpu.id()) && a.instances == b.instances
        && Double.compare(a.hours, b.hours) == 0 && Double.compare(a.cost, b.cost) == 0
        && Double.compare(a.spotOverhead, b.spotOverhead) == 0 && a.billing == b.billing
        && Double.compare(a.gpusPerInstance, b.gpusPerInstance) == 0 && a.spread == b.spread;
  }
}
