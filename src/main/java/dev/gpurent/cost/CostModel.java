package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorTerms;
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
  private final ScanMemo scans = new ScanMemo();

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
    return new Pass(s, book, null, null);
  }

  /**
   * The same for a live scenario: a vendor's scan is shared with the other live scenarios that
   * scan alike on the same entry ({@link ScanMemo}), so that they keep one copy of it and a price
   * change scans each kind of scenario once. One-off rankings scan alone: they would fill the memo
   * with what no one keeps. {@code part} is the scenario's key there, worked out once per live scenario.
   */
  Pass livePass(Scenario s, QuoteBook book, ScanMemo.Part part) {
    return new Pass(s, book, scans, part);
  }

  RankingRules rules() {
    return rules;
  }

  private record BookUnavailable(QuoteBook book, List<Ranking.Unavailable> vendors) {}

  /** The last book's vendors without quotes, as every ranking on it lists them: made once, shared by the live scenarios. */
  private volatile BookUnavailable lastUnavailable;

  private List<Ranking.Unavailable> bookUnavailable(QuoteBook book) {
    BookUnavailable last = lastUnavailable;
    if (last != null && last.book() == book) return last.vendors();
    List<Ranking.Unavailable> out = new ArrayList<>();
    book.unavailable().forEach((vendor, reason) -> out.add(new Ranking.Unavailable(vendor, Words.bookReason(reason))));
    // the last book's list when it reads the same: a live merge then knows its unavailable vendors by identity
    List<Ranking.Unavailable> vendors = last != null && last.vendors().equals(out) ? last.vendors() : List.copyOf(out);
    lastUnavailable = new BookUnavailable(book, vendors);
    return vendors;
  }

  /**
   * The two steps of a ranking: {@link #vendor} prices one vendor alone (the scan and its plan),
   * {@link #merge} ranks the vendors' results against each other (order, winsAt, the mixed plan).
   * A full ranking runs the first for every vendor; a live one only for the vendors that changed.
   */
  final class Pass {

    private final Scenario s;
    private final QuoteBook book;
    /** Made on first use: a live update whose vendors all come from the shared scans needs neither. */
    private OfferScan scan;
    private PlanBuilder builder;
    /** The live scenarios' shared scans (null: scan alone), and this scenario's key there. */
    private final ScanMemo sharedScans;
    private final ScanMemo.Part scannedPart;

    private Pass(Scenario s, QuoteBook book, ScanMemo memo, ScanMemo.Part part) {
      this.s = s;
      this.book = book;
      this.sharedScans = memo;
      this.scannedPart = part;
    }

    private OfferScan scanner() {
      if (scan == null) scan = new OfferScan(catalog, rules, s, book);
      return scan;
    }

    private PlanBuilder builder() {
      if (builder == null) builder = new PlanBuilder(catalog, rules, s, book, this::scanner);
      return builder;
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
      ScanMemo.Scanned scanned = sharedScans == null ? scan(e, asReference)
          : sharedScans.get(book, e, scannedPart, () -> scan(e, asReference));
      Picks[] picks = scanned.picks();
      if (scanned.missing() != null && !asReference) unavailable.add(scanned.missing());
      boolean carried = scanned.missing() == null;
      // a vendor that cannot carry a workload gives every scenario that scans alike the very same result
      if (!carried && sharedScans != null && !scanned.anySold()) {
        VendorResult kept = scanned.uncarried().get();
        if (kept != null) return kept;
      }
      List<Skipped> skipped = scanned.anySold() ? skipped(e, picks, scanned.sold()) : List.of();
      PlanDraft plan = null;
      boolean ownPass = sharedScans == null;
      if (asReference) {
        // The guide's sheet is shown beside the plans, never among them nor in the mixed plan.
        if (carried) plan = builder().plan(e, picks, scanned.gpu(), ownPass, unavailable).orElse(null);
      } else if (carried) {
        plan = builder().plan(e, picks, scanned.gpu(), ownPass, unavailable).orElse(null);
        if (plan != null && c.requireComplete() && !plan.complete()) {
          unavailable.add(new Ranking.Unavailable(vendor, Words.of("unavailable.incomplete", "gaps",
              plan.gaps().stream().map(g -> Words.of("unavailable.gap", "item", g.item(), "reason", g.reason())).toList())));
          plan = null;
        }
      }
      VendorResult result = new VendorResult(e, scanned.excluded(), List.copyOf(unavailable), picks, asReference, plan,
          plan == null ? null : scanned.modes(), List.copyOf(skipped), sharedScans == null ? null : scanned);
      if (!carried && sharedScans != null && !scanned.anySold() && !scanned.uncarried().compareAndSet(null, result)) {
        return scanned.uncarried().get();
      }
      return result;
    }

    /** What scanning {@code e} gives this scenario's workloads (shared through the memo by the live scenarios that scan alike). */
    private ScanMemo.Scanned scan(QuoteBook.Entry e, boolean asReference) {
      Map<String, Integer> excluded = new LinkedHashMap<>();
      scanner().countExclusions(e, asReference, excluded);
      Picks[] picks = new Picks[s.workloads().size()];
      List<dev.gpurent.text.Message> missing = new ArrayList<>();
      Pick[] sold = new Pick[picks.length];
      boolean anySold = false;
      for (int w = 0; w < picks.length; w++) {
        picks[w] = scanner().select(w, e);
        sold[w] = asReference ? null : scanner().skippedForStock(w, e, picks[w].best);
        anySold |= sold[w] != null;
        if (picks[w].best == null) {
          dev.gpurent.text.Message why = sold[w] == null ? scanner().whyNot(w, e)
              : Words.of("why.soldOut", "offer", sold[w].quote.offerId(), "reason", Words.stock(sold[w].quote.stock()));
          missing.add(Words.of("unavailable.workload", "workload", s.workloads().get(w).name(), "reason", why));
        }
      }
      List<List<Quote>> modes = null;
      if (missing.isEmpty()) {
        modes = new ArrayList<>(picks.length);
        for (Picks p : picks) modes.add(scanner().index().modesOf(p.best.quote));
      }
      Ranking.Unavailable none = missing.isEmpty() ? null : new Ranking.Unavailable(e.quotes().vendor(), Words.list(missing));
      // what is made once for the scenarios that share the scan; a one-off ranking's scan is its own
      boolean shared = sharedScans != null;
      return new ScanMemo.Scanned(java.util.Collections.unmodifiableMap(excluded), picks, sold, anySold, none, modes,
          shared ? new java.util.concurrent.atomic.AtomicReference<>() : null,
          shared ? new java.util.concurrent.atomic.AtomicReferenceArray<>(picks.length) : null,
          shared ? new java.util.concurrent.atomic.AtomicReference<>() : null);
    }

    /**
     * The offers the scan left out for want of stock ({@code sold}, per workload; null where none
     * would have been picked), each with what it and the pick it displaced cost a month, and the
     * vendor's whole plan as it would have been with them: that plan is built (rare: only a vendor
     * with such offers), so "would have led" compares real bills.
     */
    private List<Skipped> skipped(QuoteBook.Entry e, Picks[] picks, Pick[] sold) {
      VendorTerms terms = e.quotes().terms();
      Picks[] whatIf = new Picks[picks.length];
      for (int w = 0; w < picks.length; w++) {
        whatIf[w] = picks[w];
        if (sold[w] == null) continue;
        Picks p = whatIf[w] = new Picks();
        p.best = sold[w];
        p.onDemand = picks[w].onDemand;
        p.monthly = picks[w].monthly;
        p.singleCard = picks[w].singleCard;
        p.onReference = picks[w].onReference;
        p.otherGpu = picks[w].otherGpu;
        p.fitting = picks[w].fitting;
      }
      boolean carried = java.util.Arrays.stream(whatIf).allMatch(p -> p.best != null);
      Optional<VendorPlan> with = carried ? builder().plan(e, whatIf, new ArrayList<>()).map(PlanDraft::plan) : Optional.empty();
      List<Skipped> out = new ArrayList<>();
      for (int w = 0; w < picks.length; w++) {
        if (sold[w] == null) continue;
        Pick chosen = picks[w].best;
        out.add(new Skipped(s.workloads().get(w).name(), sold[w].quote, scanner().exactCost(sold[w], terms).cents(),
            Optional.ofNullable(chosen).map(p -> scanner().exactCost(p, terms).cents()), with.map(VendorPlan::monthlyTotal),
            with.map(VendorPlan::complete).orElse(false), false));
      }
      return out;
    }

    /** Rent or call an API, against #1's GPUs (its placements: the GPU half of its plan, shared by the plans of its scan). */
    private List<ApiComparison> apis(List<PlanDraft> drafts) {
      if (book.tokenPrices().quotes().isEmpty()) return List.of();
      if (drafts.isEmpty()) return ApiComparison.of(s, null, List.of(), book);
      PlanDraft best = drafts.get(0);
      return ApiComparison.of(s, best.vendor(), builder().gpuPart(best.entry(), best.picks(), best.gpu()).placements(), book);
    }

    /**
     * Whether the vendor's plan with {@code k} (and any other offer skipped there) would have been #1:
     * complete and cheaper than #1 or #1 not complete, or incomplete and cheaper than an incomplete #1.
     */
    private static boolean wouldLead(Skipped k, List<PlanDraft> plans) {
      if (k.planWith().isEmpty()) return false;
      if (plans.isEmpty()) return true;
      PlanDraft best = plans.get(0);
      boolean cheaper = k.planWith().get().amount().compareTo(best.monthlyTotal().amount()) < 0;
      return k.planWithComplete() ? !best.complete() || cheaper : !best.complete() && cheaper;
    }

    /**
     * The ranking of {@code results}, one per vendor of this pass's book, in the book's vendor order;
     * each plan (its exact bill and winsAt) built when the ranking's reader first asks for it, and kept.
     */
    Ranking merge(List<VendorResult> results) {
      return merge(results, null, null);
    }

    /**
     * The same for a live ranking ({@code next} not null): its plans are built whenever they are
     * read and never kept (a live scenario holds its drafts, not bills), by a builder
     * of this pass's book made when first needed; its mixed plan is worked out now, reused from
     * {@code memo} (the last merge; null for none) when it rests on the very same picks and #1, and
     * what this merge worked out is handed to {@code next}.
     */
    Ranking merge(List<VendorResult> results, MergeMemo memo, java.util.function.Consumer<MergeMemo> next) {
      Map<String, Integer> excluded = Map.of();
      List<PlanDraft> drafts = new ArrayList<>(results.size());
      List<Ranking.Unavailable> unavailable;
      List<Skipped> skipped = new ArrayList<>(0);
      // The candidates' arrays and the vendors' reasons are the last merge's while they hold the same
      // (a live update mostly moves one vendor's draft, not its picks nor its reasons): copied on the first difference.
      PlanBuilder.Candidates was = memo == null || memo.all.vendors().length != results.size() ? null : memo.all;
      String[] vendors = was != null ? was.vendors() : new String[results.size()];
      Picks[][] picks = was != null ? was.picks() : new Picks[results.size()][];
      ScanMemo.Scanned[] scans = was != null ? was.scans() : new ScanMemo.Scanned[results.size()];
      boolean sharedCandidates = was != null;
      int candidates = 0;
      Optional<VendorPlan> reference = Optional.empty();
      // the vendors' reasons, by list (by value: a vendor priced again on a new book lists the same reasons in a new list)
      List<?>[] unavailableFrom = memo != null && memo.unavailableFrom.length == results.size() + 1 ? memo.unavailableFrom
          : new List<?>[results.size() + 1];
      boolean sharedReasons = memo != null && unavailableFrom == memo.unavailableFrom;
      int from = 0;
      for (VendorResult r : results) {
        List<?> reasons = r.unavailable();
        if (unavailableFrom[from] != reasons && !(sharedReasons && reasons.equals(unavailableFrom[from]))) {
          if (sharedReasons) unavailableFrom = unavailableFrom.clone();
          sharedReasons = false;
          unavailableFrom[from] = reasons;
        }
        from++;
        if (!r.excluded().isEmpty()) {
          if (excluded.isEmpty()) excluded = new LinkedHashMap<>();
          Map<String, Integer> into = excluded;
          r.excluded().forEach((rule, n) -> into.merge(rule, n, Integer::sum));
        }
        // most results skip nothing and list no reason: addAll would copy each empty list
        if (!r.skipped().isEmpty()) skipped.addAll(r.skipped());
        if (r.picks() == null) continue;
        if (r.reference()) {
          // a live ranking keeps the reference's plan (one a scenario): its total is shown beside #1's
          if (r.draft() != null) reference = Optional.of(r.draft().plan(this::builder, true));
          continue;
        }
        if (picks[candidates] != r.picks() || scans[candidates] != r.scanned() || !r.vendor().equals(vendors[candidates])) {
          if (sharedCandidates) {
            vendors = vendors.clone();
            picks = picks.clone();
            scans = scans.clone();
            sharedCandidates = false;
          }
          vendors[candidates] = r.vendor();
          picks[candidates] = r.picks();
          scans[candidates] = r.scanned();
        }
        candidates++;
        if (r.draft() != null) drafts.add(r.draft());
      }
      PlanBuilder.Candidates all = sharedCandidates && candidates == was.size() ? was
          : new PlanBuilder.Candidates(vendors, picks, scans, candidates);
      Constraints c = s.constraints();
      List<Ranking.Unavailable> ofBook = bookUnavailable(book);
      if (unavailableFrom[from] != ofBook && !(sharedReasons && ofBook.equals(unavailableFrom[from]))) {
        if (sharedReasons) unavailableFrom = unavailableFrom.clone();
        sharedReasons = false;
        unavailableFrom[from] = ofBook;
      }
      if (sharedReasons) {
        unavailable = memo.unavailable;
      } else {
        unavailable = new ArrayList<>();
        for (VendorResult r : results) {
          if (!r.unavailable().isEmpty()) unavailable.addAll(r.unavailable());
        }
        for (Ranking.Unavailable u : ofBook) {
          if (c.vendors().admits(u.vendor())) unavailable.add(u);
        }
        unavailable.sort(UNAVAILABLE_ORDER);
      }
      // Complete plans first, cheapest first: #1 is the cheapest plan one can sign as it stands. The
      // incomplete ones follow in their own group, cheapest first, each with what it would take.
      drafts.sort(DRAFT_ORDER);
      skipped.replaceAll(k -> k.withLead(wouldLead(k, drafts)));
      skipped.sort(SKIPPED_ORDER);
      boolean live = next != null;
      // Plan i as ranked: #1 as it is, any other with what it would take to be #1.
      // this pass's builder, when it made one, is the scenario's on this book: the first render reuses it
      Renderer renderer = live ? new Renderer(s, book, builder) : null;
      java.util.function.Supplier<PlanBuilder> by = live ? renderer : this::builder;
      java.util.function.IntFunction<VendorPlan> rankedPlan = i -> {
        PlanDraft d = drafts.get(i);
        VendorPlan p = d.plan(by, false);
        if (i == 0) return p;
        return p.withWinsAt(by.get().winsAt(p, d.picks(), d.entry().quotes().terms(), drafts.get(0).standing()));
      };
      List<VendorPlan> plans = new RankedPlans(drafts, rankedPlan, renderer);
      if (!live) {
        // a one-off ranking: its mixed plan is built when its reader first asks for it, as its plans are
        PlanBuilder b = builder();
        Ranking.Mix later = Ranking.Mix.later(() -> {
          dev.gpurent.text.Message[] note = {Words.EMPTY};
          return Ranking.Mix.of(b.mixedPlan(all, drafts, note), note[0]);
        });
        return new Ranking(s.name(), s.currency(), s.horizonMonths(), plans, later, unavailable, book.builtAt(), reference, excluded,
            skipped, apis(drafts));
      }
      PlanDraft best = drafts.isEmpty() ? null : drafts.get(0);
      String[] vendorOf = new String[s.workloads().size()];
      Pick[] chosen = PlanBuilder.cheapest(all, vendorOf);
      dev.gpurent.text.Message[] mixedNote = {Words.EMPTY};
      Optional<MixedPlan> mixed;
      if (memo != null && memo.sameMixed(chosen, vendorOf, best)) {
        mixed = memo.mixed;
        mixedNote[0] = memo.mixedNote;
      } else {
        mixed = builder().mixedPlan(all, drafts, mixedNote);
      }
      // the API comparison rests on #1's picks and the token prices alone
      List<ApiComparison> apis = memo != null && memo.best == best && memo.tokenPrices == book.tokenPrices() ? memo.apis : apis(drafts);
      Ranking ranking = new Ranking(s.name(), s.currency(), s.horizonMonths(), plans, mixed, mixedNote[0], unavailable, book.builtAt(),
          reference, excluded, skipped, apis);
      next.accept(new MergeMemo(best, chosen, vendorOf, mixed, mixedNote[0], all, unavailableFrom, ranking.unavailable(), book.tokenPrices(),
          ranking.apis()));
      return ranking;
    }
  }

  /**
   * Builds a live ranking's plans when they are read, on the book the ranking was made on (moved to
   * the next book when a live update keeps every plan, which then reads the same there), with a
   * builder of that book for the scenario: the pass's that ranked it, else one made when needed.
   * The builder is held weakly: a reader's renders in one fan-out share it, and a live scenario
   * holds the scenario and the book (both shared), never a builder's scan state, between changes.
   * Thread-safe.
   */
  final class Renderer implements java.util.function.Supplier<PlanBuilder> {
    private final Scenario s;
    private QuoteBook book;
    private java.lang.ref.WeakReference<PlanBuilder> builder;

    Renderer(Scenario s, QuoteBook book, PlanBuilder made) {
      this.s = s;
      this.book = book;
      this.builder = made == null ? null : new java.lang.ref.WeakReference<>(made);
    }

    @Override
    public synchronized PlanBuilder get() {
      PlanBuilder b = builder == null ? null : builder.get();
      if (b == null) {
        QuoteBook on = book;
        b = new PlanBuilder(catalog, rules, s, on, () -> new OfferScan(catalog, rules, s, on));
        builder = new java.lang.ref.WeakReference<>(b);
      }
      return b;
    }

    /** Renders on {@code next} from now on: its index is the one every live pass uses (an old book's would be built again). */
    synchronized void rebase(QuoteBook next) {
      if (next != book) {
        book = next;
        builder = null;
      }
    }
  }

  // The orders of a ranking's lists, made once: every live scenario's merge sorts them.
  private static final Comparator<PlanDraft> DRAFT_ORDER = Comparator.comparing((PlanDraft p) -> !p.complete())
      .thenComparing(p -> p.monthlyTotal().amount()).thenComparing(PlanDraft::vendor);
  private static final Comparator<Skipped> SKIPPED_ORDER = Comparator.comparing((Skipped k) -> !k.wouldLead())
      .thenComparing(k -> k.perMonth().amount()).thenComparing(k -> k.quote().key());
  private static final Comparator<Ranking.Unavailable> UNAVAILABLE_ORDER = Comparator.comparing(Ranking.Unavailable::vendor);

  /** A winsAt unit price is asked for to four decimals (0.0123/hour); a bill line's shows what it needs ({@link LineFigures}). */
  static final int UNIT_PRICE_DECIMALS = 4;

}

