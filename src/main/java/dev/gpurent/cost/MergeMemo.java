package dev.gpurent.cost;

import java.util.List;
import java.util.Optional;

/**
 * What the last merge of a live ranking worked out, for the next merge to reuse where its inputs
 * are the very same objects (a vendor's result is kept only while nothing it rests on changed):
 * the mixed plan of the same cheapest picks against the same #1, the candidates' arrays of the same
 * picks and scans, the unavailable vendors of the same reasons (the one input compared by value:
 * a vendor priced again lists its reasons in a new list), the API comparison of the same #1 and
 * token prices.
 */
final class MergeMemo {

  /** #1's draft in the last merge, or null when nothing was ranked. */
  final PlanDraft best;
  /** Per workload the cheapest pick and its vendor that the mixed plan was made of. */
  final Pick[] chosen;
  final String[] vendorOf;
  final Optional<MixedPlan> mixed;
  final dev.gpurent.text.Message mixedNote;
  /** The vendors with picks the mixed plan was looked for among (its arrays shared by the next merge while they read the same). */
  final PlanBuilder.Candidates all;
  /** Each vendor's list of reasons and the book's vendors without quotes, and the ranking's unavailable vendors made of them. */
  final List<?>[] unavailableFrom;
  final List<Ranking.Unavailable> unavailable;
  final Object tokenPrices;
  final List<ApiComparison> apis;

  MergeMemo(PlanDraft best, Pick[] chosen, String[] vendorOf, Optional<MixedPlan> mixed, dev.gpurent.text.Message mixedNote,
            PlanBuilder.Candidates all, List<?>[] unavailableFrom, List<Ranking.Unavailable> unavailable, Object tokenPrices, List<ApiComparison> apis) {
    this.best = best;
    this.chosen = chosen;
    this.vendorOf = vendorOf;
    this.mixed = mixed;
    this.mixedNote = mixedNote;
    this.all = all;
    this.unavailableFrom = unavailableFrom;
    this.unavailable = unavailable;
    this.tokenPrices = tokenPrices;
    this.apis = apis;
  }

  /** Whether the mixed plan of last time stands: the same picks at the same vendors against the same #1. */
  boolean sameMixed(Pick[] chosen, String[] vendorOf, PlanDraft best) {
    if (best != this.best || chosen.length != this.chosen.length) return false;
    for (int w = 0; w < chosen.length; w++) {
      if (chosen[w] != this.chosen[w] || !java.util.Objects.equals(vendorOf[w], this.vendorOf[w])) return false;
    }
    return true;
  }
}
