package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A vendor's plan known by what ranks it: whether it is complete (its gaps) and its monthly total
 * to the cent, the same total its bill adds up to, with what a live ranking asks of a plan it
 * keeps (its prices' date, whether they are dated, whether a line is converted). The plan itself
 * (placements, exact bill lines, warnings) is built when it is read, from the picks it holds: a
 * ranking orders every vendor's plan, a reader sees a few. A one-off ranking's draft is built by
 * its own pass and keeps the plan; a live ranking's is built by whichever pass renders it, on the
 * book of the day, and kept only when asked to (the reference), so that a live scenario holds
 * numbers, not bills. Thread-safe: a ranking may be read from any thread.
 */
final class PlanDraft {

  /**
   * Equal gap lists, one copy: a vendor's gaps rest on its terms and the rules alone, so every live
   * scenario priced there holds the same few (bounded: entries past it are made again, never wrong).
   */
  private static final com.github.benmanes.caffeine.cache.Cache<List<Gap>, List<Gap>> GAPS =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(10_000).build();

  private final String vendor;
  private final Money monthlyTotal;
  private final List<Gap> gaps;
  private final Instant priceDate;
  private final boolean dated;
  private final boolean converted;
  private final QuoteBook.Entry entry;
  private final Picks[] picks;
  /** The GPU half shared by the plans of the same scan (null: made for this plan alone). */
  private final AtomicReference<PlanBuilder.GpuPart> gpu;
  /** The one-off pass's builder, dropped once the plan is built; null for a live draft. */
  private PlanBuilder origin;
  private VendorPlan plan;
  /** What alerts and summaries read of it, made once: a live ranking gives the same one while it keeps the plan. */
  private final Ranking.Standing standing;

  PlanDraft(String vendor, Money monthlyTotal, List<Gap> gaps, Instant priceDate, boolean dated, boolean converted,
            QuoteBook.Entry entry, Picks[] picks, AtomicReference<PlanBuilder.GpuPart> gpu, PlanBuilder origin) {
    this.vendor = vendor;
    this.monthlyTotal = monthlyTotal;
    this.gaps = gaps.isEmpty() ? List.of() : GAPS.get(List.copyOf(gaps), g -> g);
    this.priceDate = priceDate;
    this.dated = dated;
    this.converted = converted;
    this.entry = entry;
    this.picks = picks;
    this.gpu = gpu;
    this.origin = origin;
    this.standing = new Ranking.Standing(vendor, monthlyTotal, this.gaps.isEmpty(), dated);
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

  /** The oldest price date of its winning offers (null when none states one). */
  Instant priceDate() {
    return priceDate;
  }

  /** Whether its prices are older than the rules allow, at the book's time it was made on. */
  boolean dated() {
    return dated;
  }

  /** Whether some line may be converted from another currency (its FX rates' age may then be warned of). */
  boolean converted() {
    return converted;
  }

  QuoteBook.Entry entry() {
    return entry;
  }

  Picks[] picks() {
    return picks;
  }

  AtomicReference<PlanBuilder.GpuPart> gpu() {
    return gpu;
  }

  Ranking.Standing standing() {
    return standing;
  }

  /** The plan in full, built by its one-off pass once and kept; a live draft's is built by {@link #plan(Supplier, boolean)}. */
  VendorPlan plan() {
    return plan(() -> origin, true);
  }

  /**
   * The plan in full, unless it is kept already built by {@code by}'s builder (its own pass's for
   * a one-off draft, asked for only then), and kept when {@code keep}.
   */
  synchronized VendorPlan plan(Supplier<PlanBuilder> by, boolean keep) {
    if (plan != null) return plan;
    PlanBuilder b = origin != null ? origin : by.get();
    VendorPlan p = b.vendorPlan(entry, picks, gpu);
    // The order was decided on the draft's total: a bill that adds up otherwise is a bug, never a ranking.
    if (p.monthlyTotal().compareTo(monthlyTotal) != 0) {
      throw new IllegalStateException(vendor + ": plan totals " + p.monthlyTotal() + ", ranked at " + monthlyTotal);
    }
    if (keep || origin != null) {
      plan = p;
      origin = null;
    }
    return p;
  }
}
