package dev.gpurent.cost;

import dev.gpurent.quote.QuoteBook;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One live scenario's ranking, kept between books so that a new book prices again only the
 * vendors that changed: per vendor the {@link VendorResult} (scan picks, plan draft or reason) of
 * the book it was made from. What it keeps is numbers, not bills: each plan's draft (its total,
 * gaps and dates), the picks shared with the scenarios that scan alike, and the mixed plan; a plan's
 * bill and winsAt are built when a reader renders it ({@link CostModel.Renderer}). {@link #update}
 * gives exactly the ranking {@link CostModel#rank} would give on the new book; the differential
 * test {@code LiveRankingDifferentialTest} holds the two together.
 *
 * <p>A vendor is priced again when its quotes, terms or freshness changed, when its plan's
 * "prices dated" verdict or days move with the book's time, and every vendor is when FX or spot
 * rates changed or the scenario's migration source did (every plan's migration line reads its
 * terms). A vendor priced again to the same effect keeps its result (and so its standing, by
 * identity). The vendors are then ranked against each other again (order, mixed plan), unless none
 * of them moved; the mixed plan of the same picks against the same #1 is reused, so that an update
 * can tell, without building or encoding anything, that the ranking reads as before. Not
 * thread-safe: one update at a time.
 */
public final class LiveRanking {

  private final CostModel model;
  private final Scenario scenario;
  /** Its key in the live scenarios' shared scans. */
  private final ScanMemo.Part scannedPart;
  private QuoteBook book;
  /** Per vendor of {@link #book}, in its order, the result it gave (an array: a live scenario keeps 37 of them, not a map). */
  private VendorResult[] results;
  private Ranking ranking;
  private MergeMemo memo;
  /** The vendors the last update priced (null: none). */
  private List<String> recomputed;

  private LiveRanking(CostModel model, Scenario scenario) {
    this.model = model;
    this.scenario = scenario;
    this.scannedPart = ScanMemo.part(scenario);
  }

  /** The scenario ranked in full on {@code book}, kept for updates. */
  public static LiveRanking of(CostModel model, Scenario scenario, QuoteBook book) {
    LiveRanking live = new LiveRanking(model, scenario);
    CostModel.Pass pass = model.livePass(scenario, book, live.scannedPart);
    live.results = new VendorResult[book.vendors().size()];
    int i = 0;
    for (QuoteBook.Entry e : book.vendors().values()) live.results[i++] = pass.vendor(e);
    live.recomputed = List.copyOf(book.vendors().keySet());
    live.ranking = pass.merge(java.util.Arrays.asList(live.results), null, m -> live.memo = m);
    live.book = book;
    return live;
  }

  /**
   * Moves the ranking to {@code next}, pricing again only the vendors that changed.
   *
   * @return false when the ranking is the same as before but for its quotes' time, true when it
   *         may differ (a caller compares what it shows)
   */
  public boolean update(QuoteBook next) {
    if (next == book) {
      recomputed = null;
      return false;
    }
    BookChange change = BookChange.between(book, next);
    boolean migrationMoved = scenario.migration().flatMap(Migration::fromVendor).map(change.vendors()::contains).orElse(false);
    boolean all = change.bookWide() || migrationMoved;
    CostModel.Pass pass = model.livePass(scenario, next, scannedPart);
    // Most updates keep every result (the vendor that changed gives the same one): a new array only when one moved.
    List<String> again = null;
    boolean sameVendors = sameOrder(next.vendors().keySet(), book.vendors().keySet());
    VendorResult[] made = sameVendors ? null : new VendorResult[next.vendors().size()];
    Map<String, VendorResult> byVendor = null;
    if (!sameVendors) {
      byVendor = new java.util.HashMap<>();
      for (VendorResult r : results) byVendor.put(r.vendor(), r);
    }
    boolean same = !change.unavailable() && sameVendors;
    int i = 0;
    for (QuoteBook.Entry e : next.vendors().values()) {
      String v = e.quotes().vendor();
      VendorResult old = sameVendors ? results[i] : byVendor.get(v);
      VendorResult r = old;
      // a plan that warns of its prices' or FX rates' age in days reads otherwise when the days move
      boolean aged = old != null && (datedMoves(old.draft(), book.builtAt(), next.builtAt())
          || fxAgeMoves(old.draft(), next.fx().asOf(), book.builtAt(), next.builtAt()));
      if (old == null || all || aged || change.vendors().contains(v)) {
        r = pass.vendor(e);
        if (again == null) again = new java.util.ArrayList<>(2);
        again.add(v);
        // Priced again to the same effect (its changed offers won nowhere here): the kept result stands.
        if (old != null && !migrationMoved && !aged && r.sameAs(old, change.bookWide())) r = old;
      }
      same &= r == old;
      if (made == null && r != old) {
        made = new VendorResult[next.vendors().size()];
        System.arraycopy(results, 0, made, 0, i);
      }
      if (made != null) made[i] = r;
      i++;
    }
    if (made != null) results = made;
    recomputed = again;
    book = next;
    Ranking was = ranking;
    if (same) {
      if (was.plans() instanceof RankedPlans kept) kept.rebase(next);
      ranking = new Ranking(was.scenario(), was.currency(), was.horizonMonths(), was.plans(), was.mix(), was.unavailable(),
          next.builtAt(), was.reference(), was.excluded(), was.skipped(), was.apis());
      return false;
    }
    ranking = pass.merge(java.util.Arrays.asList(results), memo, m -> memo = m);
    return !sameParts(was, ranking);
  }

  /** Whether two key sets hold the same vendors in the same order (a merge reads them in the book's order). */
  private static boolean sameOrder(Set<String> a, Set<String> b) {
    if (a.size() != b.size()) return false;
    java.util.Iterator<String> i = b.iterator();
    for (String v : a) {
      if (!v.equals(i.next())) return false;
    }
    return true;
  }

  /** Whether two rankings hold the very same plans (by their standings' identity) and equal lists: then they read the same. */
  private static boolean sameParts(Ranking a, Ranking b) {
    if (a.plans().size() != b.plans().size() || a.reference().orElse(null) != b.reference().orElse(null)
        || a.mix() != b.mix() && (a.mixed().orElse(null) != b.mixed().orElse(null) || !a.mixedNote().equals(b.mixedNote()))
        || !a.unavailable().equals(b.unavailable()) || !a.excluded().equals(b.excluded()) || !a.skipped().equals(b.skipped())
        || !a.apis().equals(b.apis())) {
      return false;
    }
    for (int i = 0; i < a.plans().size(); i++) {
      if (a.standing(i) != b.standing(i)) return false;
    }
    return true;
  }

  /**
   * Whether moving from {@code from} to {@code to} may change a ranking that shows plans of
   * the vendors {@code shown} holds only: a vendor with a plan there changed, or something every plan
   * reads did (FX, spot rates, the vendors without quotes). Vendors without a plan in a ranking
   * rarely give it one on a price change: a pass uses this only to rank first what will most likely
   * change, {@link #update} is exact either way.
   */
  public static boolean mayMove(QuoteBook from, QuoteBook to, java.util.function.Predicate<String> shown) {
    if (from == to) return false;
    if (from == null) return true;
    BookChange change = BookChange.between(from, to);
    if (change.bookWide() || change.unavailable()) return true;
    for (String v : change.vendors()) {
      if (shown.test(v)) return true;
    }
    return false;
  }

  /** The ranking on the last book. */
  public Ranking ranking() {
    return ranking;
  }

  /** The book the ranking was made from. */
  public QuoteBook book() {
    return book;
  }

  /** Vendor {@code v}'s result as the ranking holds it (tests). */
  VendorResult result(String v) {
    for (VendorResult r : results) {
      if (r.vendor().equals(v)) return r;
    }
    return null;
  }

  /** The vendors the last update (or the first ranking) priced, in the book's order. */
  public Set<String> recomputed() {
    return recomputed == null ? Set.of() : new LinkedHashSet<>(recomputed);
  }

  /** How many vendors the last update (or the first ranking) priced. */
  public int recomputedCount() {
    return recomputed == null ? 0 : recomputed.size();
  }

  /**
   * Whether a kept plan would read differently at the book time {@code after}: its "prices dated"
   * verdict, or the days it counts, moves (the rule of {@code PlanBuilder}: older than maxPriceAge).
   */
  private boolean datedMoves(PlanDraft plan, Instant before, Instant after) {
    if (plan == null || plan.priceDate() == null) return false;
    Duration max = model.rules().maxPriceAge();
    boolean dated = after != null && olderThan(plan.priceDate(), after, max);
    if (dated != plan.dated()) return true;
    return dated && days(plan.priceDate(), before) != days(plan.priceDate(), after);
  }

  /** The same for the FX rates' age, on a plan with a converted line (the rule of {@code PlanBuilder.fxAge}). */
  private boolean fxAgeMoves(PlanDraft plan, java.time.LocalDate fxAsOf, Instant before, Instant after) {
    if (plan == null || !plan.converted() || fxAsOf == null || before == null || after == null) return false;
    Instant asOf = fxAsOf.atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
    Duration max = model.rules().maxPriceAge();
    boolean dated = olderThan(asOf, after, max);
    return dated != olderThan(asOf, before, max) || dated && days(asOf, before) != days(asOf, after);
  }

  // Duration.between(from, to).compareTo(max) > 0 and .toDays(), without a Duration: every live
  // scenario asks this of every plan it keeps at every change.

  static boolean olderThan(Instant from, Instant to, Duration max) {
    long secs = to.getEpochSecond() - from.getEpochSecond();
    int nanos = to.getNano() - from.getNano();
    if (nanos < 0) {
      secs--;
      nanos += 1_000_000_000;
    }
    return secs > max.getSeconds() || secs == max.getSeconds() && nanos > max.getNano();
  }

  static long days(Instant from, Instant to) {
    long secs = to.getEpochSecond() - from.getEpochSecond();
    if (to.getNano() < from.getNano()) secs--;
    // Duration.toDays: its seconds (floored, nanos kept positive) over a day, truncated toward zero
    return secs / 86_400;
  }
}
