package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.util.List;
import java.util.function.Supplier;

/**
 * A vendor's plan known by what ranks it: whether it is complete (its gaps) and its monthly total
 * to the cent, the same total its bill adds up to. The plan itself (placements, exact bill lines,
 * warnings) is built on first read: a ranking orders every vendor's plan, a reader sees a few.
 * Thread-safe: a ranking may be read from any thread.
 */
final class PlanDraft {

  private final String vendor;
  private final Money monthlyTotal;
  /** The draft's gaps, then the built plan's equal ones: a live ranking keeps both, so it holds one list. */
  private volatile List<Gap> gaps;
  private Supplier<VendorPlan> source;
  private VendorPlan plan;

  PlanDraft(String vendor, Money monthlyTotal, List<Gap> gaps, Supplier<VendorPlan> source) {
    this.vendor = vendor;
    this.monthlyTotal = monthlyTotal;
    this.gaps = List.copyOf(gaps);
    this.source = source;
  }

  String vendor() {
    return vendor;
  }

  Money monthlyTotal() {
    return monthlyTotal;
  }

  List<Gap> gaps() {
    return gaps;
  }

  boolean complete() {
    return gaps.isEmpty();
  }

  /** The plan in full, built once (dropping what it was built from). */
  synchronized VendorPlan plan() {
    if (plan == null) {
      VendorPlan p = source.get();
      // The order was decided on the draft's total: a bill that adds up otherwise is a bug, never a ranking.
      if (p.monthlyTotal().compareTo(monthlyTotal) != 0) {
        throw new IllegalStateException(vendor + ": plan totals " + p.monthlyTotal() + ", ranked at " + monthlyTotal);
      }
      if (p.gaps().equals(gaps)) gaps = p.gaps();
      plan = p;
      source = null;
    }
    return plan;
  }
}
