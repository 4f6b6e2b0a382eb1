package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorTerms;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns the scan's winners into what a buyer reads: placements, bill lines (GPUs here, the rest
 * through {@link DataLines}), a vendor's plan with its warnings, and the mixed plan.
 */
final class PlanBuilder {

  private final Scenario s;
  private final QuoteBook book;
  private final FxRates fx;
  private final RankingRules rules;
  private final GpuCatalog catalog;
  /**
   * The scan, its explanations and winsAt search, made when first needed: a live pass makes a
   * builder for each scenario whose plan moved, and its draft needs only the data lines and the
   * FX factors; the scan's per-card arrays are for the renderer's exact bill.
   */
  private final java.util.function.Supplier<OfferScan> scanOf;
  private OfferScan scan;
  private Explanations words;
  private WinsAtSearch winsAtSearch;
  private final DataLines data;
  /** FX factors to the scenario's currency a draft asked for before any scan was made. */
  private Map<String, Double> factors;

  PlanBuilder(GpuCatalog catalog, RankingRules rules, Scenario s, QuoteBook book, OfferScan scan) {
    this(catalog, rules, s, book, () -> scan);
  }

  PlanBuilder(GpuCatalog catalog, RankingRules rules, Scenario s, QuoteBook book, java.util.function.Supplier<OfferScan> scan) {
    this.s = s;
    this.book = book;
    this.fx = book.fx();
    this.rules = rules;
    this.catalog = catalog;
    this.scanOf = scan;
    this.data = new DataLines(s, fx, rules, v -> book.vendor(v).map(e -> e.quotes().terms()));
  }

  private OfferScan scan() {
    if (scan == null) scan = scanOf.get();
    return scan;
  }

  private Explanations words() {
    if (words == null) words = new Explanations(catalog, s, book, scan());
    return words;
  }

  private WinsAtSearch winsAtSearch() {
    if (winsAtSearch == null) winsAtSearch = new WinsAtSearch(s, fx, rules, scan(), data);
    return winsAtSearch;
  }

  /** Units of the scenario's currency per unit of {@code currency} as a double (NaN: no rate): the scan's when there is one. */
  private double factor(String currency) {
    if (scan != null || currency.equals(s.currency())) return scan().factor(currency);
    if (factors == null) factors = new java.util.HashMap<>(4);
    return factors.computeIfAbsent(currency, c -> OfferScan.factor(fx, c, s.currency()));
  }

  /** The display names that more than one of {@code book}'s vendors carry (worked out once per book: every live scenario's pass asks). */
  static java.util.Set<String> sharedNames(QuoteBook book) {
    SharedNames last = lastNames;
    if (last != null && last.book() == book) return last.names();
    java.util.Set<String> seen = new java.util.HashSet<>(), shared = new java.util.HashSet<>();
    for (QuoteBook.Entry e : book.vendors().values()) {
      if (!seen.add(e.quotes().displayName())) shared.add(e.quotes().displayName());
    }
    lastNames = new SharedNames(book, java.util.Set.copyOf(shared));
    return lastNames.names();
  }

  private record SharedNames(QuoteBook book, java.util.Set<String> names) {}

  /** The last book's shared names: the passes of one book's live update all ask for the same. */
  private static volatile SharedNames lastNames;

  /** The vendor's display name, with its id when another vendor of the book has the same name: "Acme GPU (acme-2)". */
  String label(QuoteBook.Entry e) {
    String name = e.quotes().displayName();
    return sharedNames(book).contains(name) ? name + " (" + e.quotes().vendor() + ")" : name;
  }

  /**
   * The vendor's plan as a draft: its total to the cent, the data lines' as they round
   * ({@link DataLines#cents}) and its GPUs' ({@link #cents}), and its gaps; the plan itself, its
   * exact lines first, is built when it is read. Empty, with the reason into {@code unavailable},
   * when a needed service has no price.
   */
  Optional<PlanDraft> plan(QuoteBook.Entry e, Picks[] picks, List<Ranking.Unavailable> unavailable) {
    return plan(e, picks, null, true, unavailable);
  }

  /**
   * The same, its GPU half made once in {@code shared} for every plan of the same picks (null: made
   * for this plan alone); {@code ownPass} for a one-off ranking, whose plans this builder builds,
   * else (a live ranking) the draft holds none of this pass and is built by the one that renders it.
   */
  Optional<PlanDraft> plan(QuoteBook.Entry e, Picks[] picks, AtomicReference<GpuPart> shared, boolean ownPass,
                           List<Ranking.Unavailable> unavailable) {
    VendorTerms terms = e.quotes().terms();
    String vendor = e.quotes().vendor();
    try {
      List<Gap> gaps = new ArrayList<>(0);
      boolean[] converted = {false};
      long cents = data.cents(vendor, terms, gaps, c -> {
        if (!c.equals(s.currency())) converted[0] = true;
        return factor(c);
      });
      if (cents < 0) {
        // a line too near a half cent for a double, or no FX rate: the exact lines say it (or throw why not)
        DataLines.Result exact = data.of(vendor, terms);
        gaps = exact.gaps();
        cents = 0;
        converted[0] = false;
        for (LineItem l : exact.lines()) {
          cents += l.perMonth().amount().movePointRight(2).longValueExact();
          converted[0] |= !l.fx().isEmpty();
        }
      }
      java.time.Instant priceDate = null;
      for (Picks p : picks) {
        cents += cents(p.best, terms);
        converted[0] |= !p.best.quote.price().currency().equals(s.currency());
        java.time.Instant d = p.best.quote.priceDate();
        if (d != null && (priceDate == null || d.isBefore(priceDate))) priceDate = d;
      }
      return Optional.of(new PlanDraft(vendor, new Money(BigDecimal.valueOf(cents, 2), s.currency()), gaps, priceDate,
          dated(priceDate), converted[0], e, picks, shared, ownPass ? this : null));
    } catch (IllegalArgumentException | DataLines.Unpriceable noPrice) {
      unavailable.add(new Ranking.Unavailable(e.quotes().vendor(), reasonOf(noPrice)));
      return Optional.empty();
    }
  }

  /** Whether prices of {@code priceDate} are older than the rules allow at this book's time (the plan's "prices dated"). */
  private boolean dated(java.time.Instant priceDate) {
    return priceDate != null && book.builtAt() != null
        && java.time.Duration.between(priceDate, book.builtAt()).compareTo(rules.maxPriceAge()) > 0;
  }

  /**
   * A pick's monthly cost in cents, as its exact price rounds (half up): read off the scan's double
   * when that is far enough from a half cent that no rounding error can move it (a double's error
   * here is about 1e-15 of the cost, the margin 1e-9), else priced exactly.
   */
  long cents(Pick p, VendorTerms terms) {
    double c100 = p.cost * 100;
    if (c100 >= 0 && c100 < 1e12 && Math.abs(c100 - Math.floor(c100) - 0.5) > 1e-9 * Math.max(1, c100)) {
      return Math.round(c100);
    }
    return scan().exactCost(p, terms).cents().amount().movePointRight(2).longValueExact();
  }

  /**
   * The GPU half of a vendor's plan: each workload's placement and bill line, their warnings, what
   * the GPUs cost a month and the savings against on-demand and monthly (empty when a workload is
   * not sold so here). It rests on the picks, the vendor's terms and the scenario's scanned part
   * alone, so live scenarios that share a scan share it ({@link ScanMemo.Scanned#gpu}).
   */
  record GpuPart(List<Placement> placements, List<LineItem> lines, List<Message> warnings, Money total,
                 Optional<Money> savingsVsOnDemand, Optional<Money> savingsVsMonthly) {}

  GpuPart gpuPart(QuoteBook.Entry e, Picks[] picks) {
    VendorTerms terms = e.quotes().terms();
    List<Placement> placements = new ArrayList<>(picks.length);
    List<LineItem> lines = new ArrayList<>(picks.length);
    List<Message> warnings = new ArrayList<>();
    Money gpuTotal = Money.zero(s.currency());
    Money onDemandTotal = Money.zero(s.currency());
    Money monthlyTotal = Money.zero(s.currency());
    boolean allOnDemand = true, allMonthly = true;
    for (int w = 0; w < picks.length; w++) {
      Placement p = placement(w, picks[w].best, picks[w], terms);
      placements.add(p);
      lines.add(gpuLine(p));
      warnings.addAll(p.warnings());
      Money cost = p.perMonth().cents();
      gpuTotal = gpuTotal.plus(cost);
      if (picks[w].onDemand == null) allOnDemand = false;
      else onDemandTotal = onDemandTotal.plus(picks[w].onDemand.quote == p.quote() ? cost : scan().exactCost(picks[w].onDemand, terms).cents());
      if (picks[w].monthly == null) allMonthly = false;
      else monthlyTotal = monthlyTotal.plus(picks[w].monthly.quote == p.quote() ? cost : scan().exactCost(picks[w].monthly, terms).cents());
    }
    return new GpuPart(List.copyOf(placements), List.copyOf(lines), List.copyOf(warnings), gpuTotal,
        allOnDemand ? Optional.of(onDemandTotal.minus(gpuTotal)) : Optional.empty(),
        allMonthly ? Optional.of(monthlyTotal.minus(gpuTotal)) : Optional.empty());
  }

  /** The GPU half kept in {@code shared}, made there if it is not yet (twice by a race at worst: the same part, one kept). */
  GpuPart gpuPart(QuoteBook.Entry e, Picks[] picks, AtomicReference<GpuPart> shared) {
    if (shared == null) return gpuPart(e, picks);
    GpuPart gpu = shared.get();
    if (gpu == null && !shared.compareAndSet(null, gpu = gpuPart(e, picks))) gpu = shared.get();
    return gpu;
  }

  /** The vendor's plan in full from its picks (the GPU half from {@code shared} when it is made there). */
  VendorPlan vendorPlan(QuoteBook.Entry e, Picks[] picks, AtomicReference<GpuPart> shared) {
    return vendorPlan(e, picks, data.of(e.quotes().vendor(), e.quotes().terms()), shared);
  }

  private VendorPlan vendorPlan(QuoteBook.Entry e, Picks[] picks, DataLines.Result data, AtomicReference<GpuPart> shared) {
    String vendor = e.quotes().vendor();
    GpuPart gpu = gpuPart(e, picks, shared);
    List<Placement> placements = gpu.placements();
    List<LineItem> lines = new ArrayList<>(gpu.lines().size() + data.lines().size());
    lines.addAll(gpu.lines());
    List<Message> warnings = new ArrayList<>(gpu.warnings());
    warnings.addAll(data.warnings());
    lines.addAll(data.lines());
    data.lines().stream().filter(l -> l.item().equals(DataLines.EGRESS_ITEM)).findFirst().ifPresent(egress -> {
      if (egress.perMonth().compareTo(gpu.total()) > 0) {
        warnings.add(Words.of("warn.bandwidth", "cost", egress.perMonth()));
      }
    });
    if (e.freshness().state() != dev.gpurent.quote.Freshness.State.FRESH) {
      warnings.add(Words.of("warn.stale", "freshness", Words.freshness(e.freshness())));
    }
    java.time.Instant priceDate = null;
    boolean undated = false;
    for (Placement p : placements) {
      java.time.Instant d = p.quote().priceDate();
      undated |= d == null;
      if (d != null && (priceDate == null || d.isBefore(priceDate))) priceDate = d;
    }
    boolean dated = dated(priceDate);
    if (dated) {
      warnings.add(Words.of("warn.dated", "date", priceDate.toString().substring(0, 10),
          "days", java.time.Duration.between(priceDate, book.builtAt()).toDays(), "max", rules.maxPriceAge().toDays()));
    }
    if (undated) warnings.add(Words.of("warn.undated", "vendor", vendor));
    fxAge(lines).ifPresent(warnings::add);
    for (int w = 0; w < picks.length && !e.quotes().reference(); w++) {
      if (picks[w].fitting < rules.minOffers()) {
        warnings.add(Words.of(picks[w].fitting == 1 ? "warn.thin.one" : "warn.thin.many", "workload", s.workloads().get(w).name(),
            "offers", picks[w].fitting, "vendor", vendor, "min", rules.minOffers()));
      }
    }
    Bill bill = Bill.of(lines, s.currency(), s.horizonMonths());
    return new VendorPlan(vendor, label(e), bill, placements, gpu.savingsVsOnDemand(), gpu.savingsVsMonthly(), warnings, Words.freshness(e.freshness(), undated), Words.vendorNote(e.quotes().note()), data.gaps(), priceDate, dated,
        Optional.empty());
  }

  /**
   * The warning a bill gets when a line was converted at FX rates older than the allowed price
   * age ({@code quotes.maxPriceAge}, against the book's time) or of no stated date: a 2022 rate
   * converts a 2026 price by a rate that has moved since.
   */
  Optional<Message> fxAge(List<LineItem> lines) {
    if (lines.stream().allMatch(l -> l.fx().isEmpty())) return Optional.empty();
    if (fx.asOf() == null) return Optional.of(Words.of("warn.fxUndated"));
    if (book.builtAt() == null) return Optional.empty();
    java.time.Instant asOf = fx.asOf().atStartOfDay(java.time.ZoneOffset.UTC).toInstant();
    java.time.Duration age = java.time.Duration.between(asOf, book.builtAt());
    if (age.compareTo(rules.maxPriceAge()) <= 0) return Optional.empty();
    return Optional.of(Words.of("warn.fxDated", "date", fx.asOf().toString(), "days", age.toDays(),
        "max", rules.maxPriceAge().toDays()));
  }

  Money placementsTotal(List<Placement> placements) {
    return placementsTotal(placements, s.currency());
  }

  static Money placementsTotal(List<Placement> placements, String currency) {
    Money t = Money.zero(currency);
    for (Placement p : placements) t = t.plus(p.perMonth().cents());
    return t;
  }

  Placement placement(int w, Pick p, Picks alternatives, VendorTerms terms) {
    Workload wl = s.workloads().get(w);
    Quote q = p.quote;
    FxRates.Conversion conv = fx.convert(q.price(), s.currency());
    Money unit = conv.money().times(terms.discount());
    BigDecimal units = BillingPlanner.exactUnits(q.unit(), q.billing(), p.instances, p.hours, s.horizonMonths(), p.spotOverhead);
    Money perMonth = unit.times(units);
    String fxText = conv.isIdentity() ? "" : conv.text(q.price().currency());
    // Every mode's cost and the explanation are built on first read: most rankings are compared,
    // not read line by line, and this is most of the cost of a plan.
    return new Placement(wl, q, p.fit.gpu, p.instances, p.cards(), p.hours, unit, units, perMonth, words().warnings(wl, p), fxText,
        words().spotNote(wl, p), () -> details(wl, p, alternatives, terms));
  }

  Placement.Details details(Workload wl, Pick p, Picks alternatives, VendorTerms terms) {
    List<Placement.ModeCost> modes = new ArrayList<>();
    Money hourly = null, monthly = null;
    for (Quote m : scan().index().modesOf(p.quote)) {
      Money mUnit = scan().unitPrice(m, terms);
      boolean allowed = m.billing() != Billing.SPOT || wl.interruptible();
      Pick priced = new Pick();
      double rate = book.interruptionRate(m).orElse(Double.NaN);
      if (!scan().evaluate(wl, m, p.fit, 1, 0, rate, priced)) priced.set(m, p.fit, p.instances, p.hours, 0, 0);
      Money cost = BillingPlanner.monthlyCost(mUnit, m.unit(), m.billing(), priced.instances, priced.hours, s.horizonMonths(),
          priced.spotOverhead);
      modes.add(new Placement.ModeCost(m.billing(), cost, allowed));
      if (m.billing() == Billing.ON_DEMAND) hourly = mUnit.times(PriceUnit.HOUR.hours()).dividedBy(m.unit().hours());
      if (m.billing() == Billing.MONTHLY) monthly = mUnit.times(PriceUnit.MONTH.hours()).dividedBy(m.unit().hours());
    }
    modes.sort(Comparator.comparing(Placement.ModeCost::billing));
    Optional<BigDecimal> breakEven = hourly != null && monthly != null && hourly.isPositive()
        ? Optional.of(BillingPlanner.breakEvenHours(hourly, monthly)) : Optional.empty();
    return new Placement.Details(modes, breakEven, words().explain(wl, p, modes, breakEven, alternatives, terms));
  }


  LineItem gpuLine(Placement p) {
    Quote q = p.quote();
    String offer = p.gpu().name() + " (" + q.offerId() + (q.region().isEmpty() ? "" : ", " + q.region()) + ")";
    Message spec = q.upstream().isEmpty() ? Words.of("spec.gpu", "offer", offer)
        : Words.of("spec.gpu.resold", "offer", offer, "vendor", q.vendor(), "upstream", q.upstream());
    // Billed by the card, whatever the offer's own unit (an instance-hour, a year): card-hours for an
    // hourly price, card-months otherwise, so that quantity x unit price reads the same in every output.
    BigDecimal perUnit = BigDecimal.valueOf(q.gpuCount()).multiply(q.unit() == PriceUnit.YEAR ? TWELVE : BigDecimal.ONE);
    // The units the placement was priced by (a free offer's line counts its instances).
    BigDecimal units = p.unitPrice().isPositive() ? p.units() : BigDecimal.valueOf(p.instances());
    BigDecimal quantity = units.multiply(perUnit);
    Money unitPrice = new Money(divide(p.unitPrice().amount(), perUnit), p.unitPrice().currency());
    boolean hourly = q.unit() == PriceUnit.HOUR;
    List<Message> note = new ArrayList<>();
    if (hourly) {
      double hours = p.cards() > 0 ? quantity.doubleValue() / p.cards() : 0;
      note.add(Words.of(Math.abs(hours - Math.rint(hours)) < 1e-6 ? "note.gpu.hours" : "note.gpu.hoursAbout",
          "mode", Words.billing(p.billing()), "cards", p.cards(), "hours", hours));
    } else {
      note.add(Words.billing(p.billing()));
    }
    if (p.billing() == Billing.SPOT) note.add(Words.of("note.part", "text", p.spotNote()));
    if (q.gpuCount() > 1) note.add(Words.of("note.instances", "instances", p.instances(), "gpus", q.gpuCount()));
    Money upfront = upfront(p);
    if (upfront != null) {
      note.add(Words.of("note.upfront", "amount", upfront.cents(), "term", Words.billing(p.billing()),
          "terms", termsOver(p.billing()), "months", s.horizonMonths()));
    }
    return new LineItem(Words.item(p.workload().kind()), spec, quantity, unitPrice, hourly ? "card-hour" : "card-month",
        p.perMonth().cents(), Words.seq(note), q.source(), p.fx(), LineItem.PricedBy.VENDOR, upfront == null ? null : upfront.cents());
  }

  private static final BigDecimal TWELVE = BigDecimal.valueOf(12);

  /**
   * Exact where the quotient ends (a price per 8 GPUs), else to 34 digits, which still rounds to the
   * line's cent. The quotient ends when {@code by}'s digits have no prime factor but 2 and 5, which
   * is checked first rather than learnt from a thrown exception (a year's price is divided by 12).
   */
  private static BigDecimal divide(BigDecimal amount, BigDecimal by) {
    BigDecimal d = by.stripTrailingZeros();
    if (d.signum() > 0 && d.precision() < 18) {
      long n = d.unscaledValue().longValue();
      while (n % 2 == 0) n /= 2;
      while (n % 5 == 0) n /= 5;
      return n == 1 ? amount.divide(by) : amount.divide(by, java.math.MathContext.DECIMAL128);
    }
    try {
      return amount.divide(by);
    } catch (ArithmeticException endless) {
      return amount.divide(by, java.math.MathContext.DECIMAL128);
    }
  }

  /**
   * What a placement's all- or partial-upfront term asks when each term starts, for all its
   * instances, in the scenario currency after the vendor's discount; null when the term asks none.
   */
  private Money upfront(Placement p) {
    Quote q = p.quote();
    if (q.upfront() == null || !q.upfront().isPositive()) return null;
    BigDecimal discount = book.vendor(q.vendor()).map(e -> e.quotes().terms().discount()).orElse(BigDecimal.ONE);
    return fx.convert(q.upfront(), s.currency()).money().times(discount).times(p.instances());
  }

  /** How many terms of {@code mode} the horizon pays for: a term longer than it is paid in full. */
  private int termsOver(Billing mode) {
    int term = Math.max(1, mode.commitmentMonths());
    return (s.horizonMonths() + term - 1) / term;
  }

  /**
   * Each workload at its cheapest vendor, when that beats the best single vendor; otherwise
   * empty, with {@code note[0]} saying why.
   */
  /**
   * Every vendor with picks, in the book's order: its picks and, in a live ranking, its shared scan
   * (null entries in a one-off one). Arrays rather than maps: a live update merges many scenarios.
   */
  record Candidates(String[] vendors, Picks[][] picks, ScanMemo.Scanned[] scans, int size) {

    ScanMemo.Scanned scanned(String vendor) {
      for (int i = 0; i < size; i++) {
        if (vendors[i].equals(vendor)) return scans[i];
      }
      return null;
    }
  }

  Optional<MixedPlan> mixedPlan(Candidates all, List<PlanDraft> plans, Message[] note) {
    int n = s.workloads().size();
    if (n < 2) {
      note[0] = Words.of("mixed.oneWorkload");
      return Optional.empty();
    }
    String[] vendorOf = new String[n];
    Pick[] chosen = cheapest(all, vendorOf);
    for (int w = 0; w < n; w++) {
      if (chosen[w] == null) {
        note[0] = Words.of("mixed.noVendor", "workload", s.workloads().get(w).name());
        return Optional.empty();
      }
    }
    if (java.util.Arrays.stream(vendorOf).distinct().count() == 1) {
      note[0] = sameVendorNote(vendorOf[0], plans);
      return Optional.empty();
    }
    int home = 0;
    for (int w = 1; w < n; w++) {
      boolean inf = s.workloads().get(w) instanceof Inference, homeInf = s.workloads().get(home) instanceof Inference;
      if ((inf && !homeInf) || (inf == homeInf && chosen[w].cost > chosen[home].cost)) home = w;
    }
    String homeVendor = vendorOf[home];
    VendorTerms homeTerms = book.vendor(homeVendor).orElseThrow().quotes().terms();
    List<Placement> placements = new ArrayList<>();
    List<LineItem> lines = new ArrayList<>();
    List<String> lineVendors = new ArrayList<>();
    List<Gap> gaps = new ArrayList<>();
    try {
      for (int w = 0; w < n; w++) {
        VendorTerms t = book.vendor(vendorOf[w]).orElseThrow().quotes().terms();
        Placement p = mixedPlacement(w, chosen[w], t, all.scanned(vendorOf[w]));
        placements.add(p);
        lines.add(gpuLine(p));
        lineVendors.add(vendorOf[w]);
      }
      DataLines.Result homeData = data.of(homeVendor, homeTerms);
      lines.addAll(homeData.lines());
      gaps.addAll(homeData.gaps());
      if (s.storedGb() > 0) {
        for (String v : java.util.Arrays.stream(vendorOf).distinct().filter(v -> !v.equals(homeVendor)).toList()) {
          lines.add(data.transfer(homeVendor, homeTerms, v, gaps));
        }
      }
      // Storage, bandwidth, load balancers, migration and the copies out are all bought at the home vendor.
      while (lineVendors.size() < lines.size()) lineVendors.add(homeVendor);
    } catch (IllegalArgumentException | DataLines.Unpriceable noPrice) {
      note[0] = Words.of("mixed.unpriced", "reason", reasonOf(noPrice));
      return Optional.empty();
    }
    if (s.constraints().requireComplete() && !gaps.isEmpty()) {
      note[0] = Words.of("mixed.incomplete", "item", gaps.get(0).item());
      return Optional.empty();
    }
    Bill bill = Bill.of(lines, s.currency(), s.horizonMonths());
    if (!plans.isEmpty() && bill.monthlyTotal().compareTo(plans.get(0).monthlyTotal()) >= 0) {
      Money copies = Money.zero(s.currency());
      for (LineItem l : lines) if (l.item().equals(DataLines.TRANSFER_ITEM)) copies = copies.plus(l.perMonth());
      note[0] = copies.isPositive()
          ? Words.of("mixed.costsMore.copies", "mixed", bill.monthlyTotal().plain(), "best", plans.get(0).monthlyTotal().plain(),
              "vendor", plans.get(0).vendor(), "copies", copies.plain())
          : Words.of("mixed.costsMore", "mixed", bill.monthlyTotal().plain(), "best", plans.get(0).monthlyTotal().plain(),
              "vendor", plans.get(0).vendor());
      return Optional.empty();
    }
    Money best = plans.isEmpty() ? bill.monthlyTotal() : plans.get(0).monthlyTotal();
    return Optional.of(new MixedPlan(homeVendor, bill, lineVendors, placements, best.minus(bill.monthlyTotal()), gaps));
  }

  /**
   * Why there is no mix when every workload's GPUs are cheapest at one vendor, in terms of the ranking
   * shown: that vendor is #1, or it stands lower (its whole bill costs more, or it is not complete).
   */
  private static Message sameVendorNote(String vendor, List<PlanDraft> plans) {
    if (plans.isEmpty()) return Words.of("mixed.sameVendor.unranked", "vendor", vendor);
    String first = plans.get(0).vendor();
    if (first.equals(vendor)) return Words.of("mixed.sameVendor", "vendor", vendor);
    // No rank number: a live ranking keeps this note while #1 and the picks stand, though other plans may move.
    return plans.stream().anyMatch(p -> p.vendor().equals(vendor))
        ? Words.of("mixed.sameVendor.lower", "vendor", vendor, "best", first)
        : Words.of("mixed.sameVendor.unranked", "vendor", vendor);
  }

  /** Per workload the cheapest vendor's best pick (null where none), its vendor into {@code vendorOf}; ties to the first. */
  /** Workload {@code w}'s winner {@code p} as a mixed plan places it, made once in its shared scan (null: for this plan alone). */
  private Placement mixedPlacement(int w, Pick p, VendorTerms terms, ScanMemo.Scanned scanned) {
    if (scanned == null) return placement(w, p, null, terms);
    Placement made = scanned.mixed().get(w);
    if (made == null && !scanned.mixed().compareAndSet(w, null, made = placement(w, p, null, terms))) made = scanned.mixed().get(w);
    return made;
  }

  static Pick[] cheapest(Candidates all, String[] vendorOf) {
    Pick[] chosen = new Pick[vendorOf.length];
    for (int i = 0; i < all.size(); i++) {
      for (int w = 0; w < chosen.length; w++) {
        Pick p = all.picks()[i][w].best;
        if (p != null && (chosen[w] == null || Math.round(p.cost * 100) < Math.round(chosen[w].cost * 100))) {
          chosen[w] = p;
          vendorOf[w] = all.vendors()[i];
        }
      }
    }
    return chosen;
  }

  /** What it would take {@code plan} to take #1 from {@code best} ({@link WinsAtSearch}). */
  WinsAt winsAt(VendorPlan plan, Picks[] picks, VendorTerms terms, Ranking.Standing best) {
    return winsAtSearch().winsAt(plan, picks, terms, best);
  }

  /** The reason a vendor cannot be priced: the engine's own words, or a lower layer's message (an FX rate missing) as it is. */
  // FxRates.convert's failure, the one lower-layer message that reaches a ranking.
  private static final java.util.regex.Pattern NO_FX = java.util.regex.Pattern.compile("no FX rate from (\\w+) to (\\w+) in (.*)");

  static Message reasonOf(RuntimeException noPrice) {
    if (noPrice instanceof DataLines.Unpriceable u) return u.reason;
    java.util.regex.Matcher fx = NO_FX.matcher(String.valueOf(noPrice.getMessage()));
    if (fx.matches()) return Words.of("why.noFx.in", "from", fx.group(1), "to", fx.group(2), "source", fx.group(3));
    return Words.of("reason.text", "text", noPrice.getMessage());
  }
}
