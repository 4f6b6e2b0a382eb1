package dev.gpurent.cost;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the last merge of a live ranking worked out, for the next merge to reuse where its inputs
 * are the very same objects (a vendor's result is kept only while nothing it rests on changed):
 * each plan's winsAt against the same #1, and the mixed plan of the same cheapest picks against
 * the same #1. Keyed by identity, never by equality.
 */
final class MergeMemo {

  /** #1 of the last merge (without winsAt), or null when nothing was ranked. */
  final VendorPlan best;
  /** Each plan below #1 as it was ranked (with its winsAt), by the plan it was made from. */
  final Map<VendorPlan, VendorPlan> ranked;
  /** Per workload the cheapest pick and its vendor that the mixed plan was made of. */
  final Pick[] chosen;
  final String[] vendorOf;
  final Optional<MixedPlan> mixed;
  final dev.gpurent.text.Message mixedNote;

  MergeMemo(VendorPlan best, IdentityHashMap<VendorPlan, VendorPlan> ranked, Pick[] chosen, String[] vendorOf,
            Optional<MixedPlan> mixed, dev.gpurent.text.Message mixedNote) {
    this.best = best;
    this.ranked = ranked;
    this.chosen = chosen;
    this.vendorOf = vendorOf;
    this.mixed = mixed;
    this.mixedNote = mixedNote;
  }

  /** The winsAt-carrying plan made last time from {@code plan} against {@code best}, or null. */
  VendorPlan ranked(VendorPlan plan, VendorPlan best) {
    return best == this.best ? ranked.get(plan) : null;
  }

  /** Whether the mixed plan of last time stands: the same picks at the same vendors against the same #1. */
  boolean sameMixed(Pick[] chosen, String[] vendorOf, VendorPlan best) {
    if (best != this.best || chosen.length != this.chosen.length) return false;
    for (int w = 0; w < chosen.length; w++) {
      if (chosen[w] != this.chosen[w] || !java.util.Objects.equals(vendorOf[w], this.vendorOf[w])) return false;
    }
    return true;
  }
}
