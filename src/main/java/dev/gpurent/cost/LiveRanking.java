package dev.gpurent.cost;

import dev.gpurent.quote.QuoteBook;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One live scenario's ranking, kept between books so that a new book prices again only the
 * vendors that changed: per vendor the {@link VendorResult} (scan picks, plan or reason) of the
 * book it was made from. {@link #update} gives exactly the ranking {@link CostModel#rank} would
 * give on the new book; the differential test {@code LiveRankingDifferentialTest} holds the two
 * together.
 *
 * <p>A vendor is priced again when its quotes, terms or freshness changed, when its plan's
 * "prices dated" verdict moves with the book's time, and every vendor is when FX or spot rates
 * changed or the scenario's migration source did (every plan's migration line reads its terms).
 * The vendors are then ranked against each other again (order, winsAt, mixed plan), unless none of
 * them moved; what rests on unchanged plans (their winsAt against the same #1, the mixed plan of the
 * same picks) is reused, so that an update can tell, without encoding anything, that the ranking
 * reads as before. Not thread-safe: one update at a time.
 */
public final class LiveRanking {

  private final CostModel model;
  private final Scenario scenario;
  private QuoteBook book;
  private Map<String, VendorResult> results;
  private Ranking ranking;
  private MergeMemo memo;
  private Set<String> recomputed;

  private LiveRanking(CostModel model, Scenario scenario) {
    this.model = model;
    this.scenario = scenario;
  }

  /** The scenario ranked in full on {@code book}, kept for updates. */
  public static LiveRanking of(CostModel model, Scenario scenario, QuoteBook book) {
    LiveRanking live = new LiveRanking(model, scenario);
    CostModel.Pass pass = model.livePass(scenario, book);
    live.results = new LinkedHashMap<>();
    for (QuoteBook.Entry e : book.vendors().values()) live.results.put(e.quotes().vendor(), pass.vendor(e));
    live.recomputed = Set.copyOf(live.results.keySet());
    live.ranking = pass.merge(live.results.values(), null, m -> live.memo = m);
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
      recomputed = Set.of();
      return false;
    }
    BookChange change = BookChange.between(book, next);
    boolean all = change.bookWide()
        || scenario.migration().flatMap(Migration::fromVendor).map(change.vendors()::contains).orElse(false);
    CostModel.Pass pass = model.livePass(scenario, next);
    // Most updates keep every result (the vendor that changed gives the same one): the map is copied only when one moved.
    VendorResult[] made = new VendorResult[next.vendors().size()];
    Set<String> again = null;
    boolean same = !change.unavailable() && sameOrder(next.vendors().keySet(), results.keySet());
    int i = 0;
    for (QuoteBook.Entry e : next.vendors().values()) {
      String v = e.quotes().vendor();
      VendorResult old = results.get(v);
      VendorResult r = old;
      if (old == null || all || change.vendors().contains(v) || datedMoves(old.plan(), book.builtAt(), next.builtAt())
          || fxAgeMoves(old.plan(), next.fx().asOf(), book.builtAt(), next.builtAt())) {
        r = pass.vendor(e);
        if (again == null) again = new LinkedHashSet<>();
        again.add(v);
        // Priced again to the same effect (its changed offers won nowhere here): the kept result stands.
        if (old != null && !all && r.sameAs(old)) r = old;
      }
      same &= r == old;
      made[i++] = r;
    }
    Map<String, VendorResult> out = results;
    if (!same) {
      out = new LinkedHashMap<>();
      for (VendorResult r : made) out.put(r.vendor(), r);
    }
    results = out;
    recomputed = again == null ? Set.of() : again;
    book = next;
    Ranking was = ranking;
    if (same) {
      ranking = new Ranking(was.scenario(), was.currency(), was.horizonMonths(), was.plans(), was.mixed(), was.mixedNote(),
          was.unavailable(), next.builtAt(), was.reference(), was.excluded(), was.skipped(), was.apis());
      return false;
    }
    ranking = pass.merge(out.values(), memo, m -> memo = m);
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

  /** Whether two rankings hold the very same plans (by identity) and equal lists: then they read the same. */
  private static boolean sameParts(Ranking a, Ranking b) {
    if (a.plans().size() != b.plans().size() || a.reference().orElse(null) != b.reference().orElse(null)
        || a.mixed().orElse(null) != b.mixed().orElse(null) || !a.mixedNote().equals(b.mixedNote())
        || !a.unavailable().equals(b.unavailable()) || !a.excluded().equals(b.excluded()) || !a.skipped().equals(b.skipped())) {
      return false;
    }
    for (int i = 0; i < a.plans().size(); i++) {
      if (a.plans().get(i) != b.plans().get(i)) return false;
    }
    return true;
  }

  /**
   * Whether moving from {@code from} to {@code to} may change a ranking that shows plans of
   * {@code shown} (vendor ids) only: a vendor with a plan there changed, or something every plan
   * reads did (FX, spot rates, the vendors without quotes). Vendors without a plan in a ranking
   * rarely give it one on a price change: a pass uses this only to rank first what will most likely
   * change, {@link #update} is exact either way.
   */
  public static boolean mayMove(QuoteBook from, QuoteBook to, Set<String> shown) {
    if (from == to) return false;
    if (from == null) return true;
    BookChange change = BookChange.between(from, to);
    if (change.bookWide() || change.unavailable()) return true;
    for (String v : change.vendors()) {
      if (shown.contains(v)) return true;
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
    return results.get(v);
  }

  /** The vendors the last update (or the first ranking) priced, in the book's order. */
  public Set<String> recomputed() {
    return recomputed;
  }

  /**
   * Whether a kept plan would read differently at the book time {@code after}: its "prices dated"
   * verdict, or the days it counts, moves (the rule of {@code PlanBuilder}: older than maxPriceAge).
   */
  private boolean datedMoves(VendorPlan plan, Instant before, Instant after) {
    if (plan == null || plan.priceDate() == null) return false;
    Duration max = model.rules().maxPriceAge();
    boolean dated = after != null && Duration.between(plan.priceDate(), after).compareTo(max) > 0;
    if (dated != plan.dated()) return true;
    return dated && Duration.between(plan.priceDate(), before).toDays() != Duration.between(plan.priceDate(), after).toDays();
  }

  /** The same for the FX rates' age, on a plan with a converted line (the rule of {@code PlanBuilder.fxAge}). */
  private boolean fxAgeMoves(VendorPlan plan, java.time.LocalDate fxAsOf, Instant before, Instant after) {
    if (plan == null || fxAsOf == null || before == null || after == null) return false;
    if (plan.bill().lines().stream().allMatch(l -> l.fx().isEmpty())) return false;
    Instant asOf = fxAsOf.atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
    Duration max = model.rules().maxPriceAge();
    Duration was = Duration.between(asOf, before), now = Duration.between(asOf, after);
    boolean dated = now.compareTo(max) > 0;
    return dated != was.compareTo(max) > 0 || dated && was.toDays() != now.toDays();
  }
}
