package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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

  public Ranking rank(Scenario scenario, QuoteBook book) {
    return new Run(scenario, book).rank();
  }

  /** The cheapest offer found so far for one workload, with the usage it was priced at. */
  private static final class Pick {
    Quote quote;
    Fit fit;
    int instances;
    double hours;
    double cost;
    /** Extra share of hours paid for spot interruptions (0 for other modes). */
    double spotOverhead;
    /** The quote's GPU slot in the book, and the billing mode it was priced in. */
    int slot;
    Billing billing;
    double gpusPerInstance;

    Pick set(Quote q, Fit f, int instances, double hours, double cost, double spotOverhead) {
      this.quote = q;
      if (q != null) {
        this.billing = q.billing();
        this.gpusPerInstance = q.gpuCount();
      }
      this.fit = f;
      this.instances = instances;
      this.hours = hours;
      this.cost = cost;
      this.spotOverhead = spotOverhead;
      return this;
    }

    int cards() {
      return instances * (int) gpusPerInstance;
    }
  }

  private static final Billing[] BILLINGS = Billing.values();

  /** Per-vendor, per-workload winners: overall, on-demand only, monthly only, and on one card. */
  private static final class Picks {
    Pick best, onDemand, monthly, singleCard;
    /** The cheapest offer on a different card than {@link #best}: the "next best card". */
    Pick otherGpu;
    /** The cheapest offer on the card the workload was measured on. */
    Pick onReference;
  }

  /**
   * The scan's running winners as quote indexes and costs in cents, one per kind of pick: no
   * objects are made while scanning, only for the winners at the end.
   */
  private static final int BEST = 0, ON_DEMAND = 1, MONTHLY = 2, SINGLE_CARD = 3, ON_REFERENCE = 4, OTHER_GPU = 5;
  private static final int ON_DEMAND_MODE = Billing.ON_DEMAND.ordinal(), MONTHLY_MODE = Billing.MONTHLY.ordinal();

  /** One ranking: caches that live as long as one call. */
  private final class Run {
    private final Scenario s;
    private final QuoteBook book;
    private final FxRates fx;
    private final Map<String, Double> fxFactor = new HashMap<>();
    private final DataLines data;
    // Per workload and GPU slot (fits), per currency slot (FX factors), per workload and offer
    // shape (instances; 0 = not worked out yet, -1 = cannot serve; hours used and paid per instance).
    private final Fit[][] fitBySlot;
    private final boolean[][] fitKnown;
    private final double[] factorBySlot;
    private final int[][] shapeInstances;
    private final double[][] shapeHours;
    /** What one unit of an offer's price (after discount) comes to a month in the scenario's currency. */
    private final double[][] shapePerPrice;
    private final int[][] shapeCards;
    /** Per workload: memory need (high end, GB), reference card, and the GPU slots of its pin and reference (-1: none). */
    private final double[] needGB;
    private final Gpu[] referenceGpu;
    private final int[] pinSlot;
    private final int[] referenceSlot;
    /** Hours a month each commitment mode pays for, over this scenario's horizon, by billing ordinal. */
    private final double[] commitmentHours = new double[BILLINGS.length];
    // The scan's state (see BEST...): reused for every vendor and workload.
    private final int[] winner = new int[6];
    private final long[] winnerCents = new long[6];

    Run(Scenario s, QuoteBook book) {
      this.s = s;
      this.book = book;
      this.fx = book.fx();
      int n = s.workloads().size();
      int gpus = book.gpuIds().size();
      int shapes = book.shapes().size();
      fitBySlot = new Fit[n][gpus];
      fitKnown = new boolean[n][gpus];
      shapeInstances = new int[n][shapes];
      shapeHours = new double[n][shapes];
      shapePerPrice = new double[n][shapes];
      shapeCards = new int[n][shapes];
      needGB = new double[n];
      referenceGpu = new Gpu[n];
      pinSlot = new int[n];
      referenceSlot = new int[n];
      for (int w = 0; w < n; w++) {
        Workload wl = s.workloads().get(w);
        needGB[w] = Sizing.vram(wl).highGB();
        referenceGpu[w] = catalog.byId(wl.referenceGpu()).orElseThrow();
        pinSlot[w] = wl.gpu().map(g -> book.gpuIds().indexOf(g)).orElse(-1);
        referenceSlot[w] = book.gpuIds().indexOf(wl.referenceGpu());
      }
      data = new DataLines(s, fx, rules);
      for (Billing b : BILLINGS) {
        if (b.isCommitment()) commitmentHours[b.ordinal()] = BillingPlanner.paidHoursPerMonth(b, 0, s.horizonMonths());
      }
      factorBySlot = new double[book.currencies().size()];
      for (int c = 0; c < factorBySlot.length; c++) factorBySlot[c] = factor(book.currencies().get(c));
    }

    /** How workload {@code w} sits on the card in GPU slot {@code slot}; null for a card not in the catalog. */
    private Fit fitAt(int w, int slot) {
      if (!fitKnown[w][slot]) {
        Optional<Gpu> gpu = catalog.byId(book.gpuIds().get(slot));
        fitBySlot[w][slot] = gpu.map(g -> Fit.of(s.workloads().get(w), needGB[w], g, referenceGpu[w], s.headroom())).orElse(null);
        fitKnown[w][slot] = true;
      }
      return fitBySlot[w][slot];
    }

    private Fit fit(int w, String gpuId) {
      int slot = book.gpuIds().indexOf(gpuId);
      return slot < 0 ? null : fitAt(w, slot);
    }

    /** Works out, once per ranking, what every offer of {@code shape} needs for workload {@code w} and costs per unit of price. */
    private void learnShape(int w, int shape) {
      QuoteBook.Shape sh = book.shapes().get(shape);
      Pick out = new Pick();
      double factor = factorBySlot[sh.currencySlot()];
      double paid = usage(s.workloads().get(w), sh.billing(), sh.gpuCount(), fitAt(w, sh.gpuSlot()), Double.NaN, out);
      if (Double.isNaN(paid) || Double.isNaN(factor)) {
        shapeInstances[w][shape] = -1;
        return;
      }
      shapeInstances[w][shape] = out.instances;
      shapeHours[w][shape] = out.hours;
      shapeCards[w][shape] = out.instances * (int) sh.gpuCount();
      shapePerPrice[w][shape] = factor * out.instances * paid / sh.unit().hoursValue();
    }

    Ranking rank() {
      List<VendorPlan> plans = new ArrayList<>();
      List<Ranking.Unavailable> unavailable = new ArrayList<>();
      Map<String, Picks[]> allPicks = new LinkedHashMap<>();
      for (QuoteBook.Entry e : book.vendors().values()) {
        String vendor = e.quotes().vendor();
        if (!e.freshness().rankable()) {
          unavailable.add(new Ranking.Unavailable(vendor, "prices " + e.freshness() + ": past the hard age limit, not ranked"));
          continue;
        }
        Picks[] picks = new Picks[s.workloads().size()];
        List<String> missing = new ArrayList<>();
        for (int w = 0; w < picks.length; w++) {
          picks[w] = select(w, e);
          if (picks[w].best == null) missing.add(s.workloads().get(w).name() + ": " + whyNot(w, e));
        }
        allPicks.put(vendor, picks);
        if (!missing.isEmpty()) {
          unavailable.add(new Ranking.Unavailable(vendor, String.join("; ", missing)));
          continue;
        }
        try {
          plans.add(vendorPlan(e, picks));
        } catch (IllegalArgumentException | DataLines.Unpriceable noPrice) {
          unavailable.add(new Ranking.Unavailable(vendor, noPrice.getMessage()));
        }
      }
      book.unavailable().forEach((vendor, reason) -> unavailable.add(new Ranking.Unavailable(vendor, reason)));
      unavailable.sort(Comparator.comparing(Ranking.Unavailable::vendor));
      plans.sort(Comparator.comparing((VendorPlan p) -> p.monthlyTotal().amount()).thenComparing(VendorPlan::vendor));
      Optional<MixedPlan> mixed = mixedPlan(allPicks, plans);
      return new Ranking(s.name(), s.currency(), s.horizonMonths(), plans, mixed, unavailable, book.builtAt());
    }

    /** Units of {@code to} per unit of {@code from} as a double, NaN when no rate is known. */
    private double factor(String currency) {
      Double f = fxFactor.get(currency);
      if (f == null) {
        f = fx.rate(currency, s.currency()).map(BigDecimal::doubleValue).orElse(Double.NaN);
        fxFactor.put(currency, f);
      }
      return f;
    }

    /**
     * One pass over a vendor's quotes for workload {@code w}, over primitive columns: each quote's
     * cost is its price times the FX factor times what its shape needs (worked out once per shape).
     * Ties in cents go to fewer cards, then the billing mode order, then the offer key.
     */
    private Picks select(int w, QuoteBook.Entry e) {
      Workload wl = s.workloads().get(w);
      Picks picks = new Picks();
      String vendor = e.quotes().vendor();
      if (wl.vendor().isPresent() && !wl.vendor().get().equals(vendor)) return picks;
      int pin = pinSlot[w];
      if (pin == -1 && wl.gpu().isPresent()) return picks;  // the pinned card is in no vendor's book
      int ref = referenceSlot[w];
      QuoteBook.Columns c = book.columns(vendor);
      List<Quote> quotes = e.quotes().quotes();
      double[] prices = c.prices(), unitsPerHour = c.unitsPerHour(), interruptions = c.interruptionRates();
      int[] gpuSlots = c.gpuSlots(), shapes = c.shapes();
      byte[] modes = c.billings();
      int[] instancesOf = shapeInstances[w];
      int[] cardsOf = shapeCards[w];
      double[] perPriceOf = shapePerPrice[w], hoursOf = shapeHours[w];
      double discount = e.quotes().terms().discount().doubleValue();
      double restartHours = wl.restartOverheadHours();
      int[] win = winner;
      long[] cents = winnerCents;
      java.util.Arrays.fill(win, -1);
      for (int i = 0; i < prices.length; i++) {
        int slot = gpuSlots[i];
        if (pin >= 0 && slot != pin) continue;
        int shape = shapes[i];
        int instances = instancesOf[shape];
        if (instances == 0) {
          learnShape(w, shape);
          instances = instancesOf[shape];
        }
        if (instances < 0) continue;
        double cost;
        if (interruptions == null || Double.isNaN(interruptions[i])) {
          cost = prices[i] * discount * perPriceOf[shape];
        } else {
          // a spot price with a published interruption rate: its overhead is the quote's own
          double paid = hoursOf[shape] * (1 + BillingPlanner.spotOverhead(interruptions[i], restartHours));
          cost = prices[i] * discount * factorBySlot[c.currencySlots()[i]] * instances * paid * unitsPerHour[i];
        }
        // Cents are exact only when needed: a cost at or above a kept one plus half a cent rounds
        // to more cents than it, whatever the rounding, so most offers are passed over unrounded.
        double c100 = cost * 100;
        int mode = modes[i];
        int cards = cardsOf[shape];
        int best = win[BEST];
        boolean sameCard = best >= 0 && slot == gpuSlots[best];
        if (!mayBeat(c100, BEST) && (sameCard || !mayBeat(c100, OTHER_GPU))
            && (mode != ON_DEMAND_MODE || !mayBeat(c100, ON_DEMAND)) && (mode != MONTHLY_MODE || !mayBeat(c100, MONTHLY))
            && (cards != 1 || !mayBeat(c100, SINGLE_CARD)) && (slot != ref || !mayBeat(c100, ON_REFERENCE))) {
          continue;
        }
        long cc = Math.round(c100);
        if (better(i, cc, cards, mode, BEST, w, quotes, c)) {
          if (best >= 0 && !sameCard) keep(OTHER_GPU, best, cents[BEST]);
          else if (win[OTHER_GPU] >= 0 && gpuSlots[win[OTHER_GPU]] == slot) win[OTHER_GPU] = -1;
          keep(BEST, i, cc);
        } else if (!sameCard && better(i, cc, cards, mode, OTHER_GPU, w, quotes, c)) {
          keep(OTHER_GPU, i, cc);
        }
        if (mode == ON_DEMAND_MODE && better(i, cc, cards, mode, ON_DEMAND, w, quotes, c)) keep(ON_DEMAND, i, cc);
        if (mode == MONTHLY_MODE && better(i, cc, cards, mode, MONTHLY, w, quotes, c)) keep(MONTHLY, i, cc);
        if (cards == 1 && better(i, cc, cards, mode, SINGLE_CARD, w, quotes, c)) keep(SINGLE_CARD, i, cc);
        if (slot == ref && better(i, cc, cards, mode, ON_REFERENCE, w, quotes, c)) keep(ON_REFERENCE, i, cc);
      }
      picks.best = pickOf(w, win[BEST], e, c);
      picks.onDemand = pickOf(w, win[ON_DEMAND], e, c);
      picks.monthly = pickOf(w, win[MONTHLY], e, c);
      picks.singleCard = pickOf(w, win[SINGLE_CARD], e, c);
      picks.onReference = pickOf(w, win[ON_REFERENCE], e, c);
      picks.otherGpu = pickOf(w, win[OTHER_GPU], e, c);
      return picks;
    }

    /** False only when {@code c100} (a cost in cents, unrounded) certainly rounds to more than the kept quote of {@code kind}. */
    private boolean mayBeat(double c100, int kind) {
      return winner[kind] < 0 || c100 < winnerCents[kind] + 0.5;
    }

    private void keep(int kind, int index, long cost) {
      winner[kind] = index;
      winnerCents[kind] = cost;
    }

    /** Whether quote {@code i} ({@code cc} cents, {@code cards} cards) beats the kept quote of {@code kind}. */
    private boolean better(int i, long cc, int cards, int mode, int kind, int w, List<Quote> quotes, QuoteBook.Columns c) {
      int j = winner[kind];
      if (j < 0) return true;
      long jc = winnerCents[kind];
      if (cc != jc) return cc < jc;
      int jCards = shapeCards[w][c.shapes()[j]];
      if (cards != jCards) return cards < jCards;
      if (mode != c.billings()[j]) return mode < c.billings()[j];
      return quotes.get(i).key().compareTo(quotes.get(j).key()) < 0;
    }

    /** The kept quote at {@code i} as a pick, priced the same way as in the scan; null for none. */
    private Pick pickOf(int w, int i, QuoteBook.Entry e, QuoteBook.Columns c) {
      if (i < 0) return null;
      Quote q = e.quotes().quotes().get(i);
      Pick p = new Pick();
      double rate = c.interruptionRates() == null ? Double.NaN : c.interruptionRates()[i];
      double discounted = c.prices()[i] * e.quotes().terms().discount().doubleValue();
      evaluate(s.workloads().get(w), q.billing(), c.unitsPerHour()[i], q.gpuCount(), fitAt(w, c.gpuSlots()[i]),
          factorBySlot[c.currencySlots()[i]], discounted, rate, p);
      p.quote = q;
      p.slot = c.gpuSlots()[i];
      return p;
    }

    /**
     * Prices one quote for one workload into {@code out}, with the quote's price already
     * discounted and its FX factor to the scenario currency; false when it cannot serve.
     */
    private boolean evaluate(Workload wl, Billing b, double unitsPerHour, double perInstance, Fit fit, double factor,
                             double price, double interruptionRate, Pick out) {
      if (Double.isNaN(factor)) return false;
      double paid = usage(wl, b, perInstance, fit, interruptionRate, out);
      if (Double.isNaN(paid)) return false;
      out.cost = price * factor * out.instances * paid * unitsPerHour;
      return true;
    }

    /**
     * What an offer of {@code perInstance} GPUs in mode {@code b} needs for one workload: fills
     * instances, hours used a month and the spot overhead into {@code out}, and returns the hours
     * paid a month per instance; NaN when it cannot serve.
     */
    private double usage(Workload wl, Billing b, double perInstance, Fit fit, double interruptionRate, Pick out) {
      if (b == Billing.SPOT && !wl.interruptible()) return Double.NaN;
      if (perInstance < 1 || perInstance != Math.rint(perInstance)) return Double.NaN;
      if (fit == null || !fit.ok()) return Double.NaN;
      int per = (int) perInstance;
      int instances = per == 1 ? fit.cards : (fit.cards + per - 1) / per;
      double hours;
      if (wl instanceof Inference inf) {
        hours = inf.hoursPerMonth();
      } else {
        hours = fit.wallHours(instances * per);
        if (b.isCommitment() && hours > BillingPlanner.HOURS_PER_MONTH) {
          // More work than one set of committed cards can do in a month: rent more sets in parallel.
          int sets = (int) Math.ceil(hours / BillingPlanner.HOURS_PER_MONTH);
          instances *= sets;
          hours /= sets;
        }
      }
      double overhead = 0;
      double paid;
      if (b.isCommitment()) {
        paid = commitmentHours[b.ordinal()];
      } else if (b == Billing.SPOT) {
        overhead = Double.isNaN(interruptionRate) ? BillingPlanner.SPOT_RESTART_OVERHEAD
            : BillingPlanner.spotOverhead(interruptionRate, wl.restartOverheadHours());
        paid = hours * (1 + overhead);
      } else {
        paid = hours;
      }
      out.fit = fit;
      out.instances = instances;
      out.hours = hours;
      out.spotOverhead = overhead;
      out.billing = b;
      out.gpusPerInstance = perInstance;
      return paid;
    }


    /** Prices one quote, looked up whole, for one workload (the slow path: a placement's other modes). */
    private boolean evaluate(Workload wl, Quote q, Fit fit, double factor, double price, double interruptionRate, Pick out) {
      if (!evaluate(wl, q.billing(), 1 / q.unit().hoursValue(), q.gpuCount(), fit, factor, price, interruptionRate, out)) {
        return false;
      }
      out.quote = q;
      return true;
    }


    /** Why no offer of a vendor can carry a workload: the rare path, so it may scan again. */
    private String whyNot(int w, QuoteBook.Entry e) {
      Workload wl = s.workloads().get(w);
      if (wl.vendor().isPresent()) return "pinned to vendor " + wl.vendor().get();
      List<Quote> quotes = e.quotes().quotes();
      if (wl.gpu().isPresent()) {
        String pin = wl.gpu().get();
        List<Quote> ofPin = quotes.stream().filter(q -> q.gpuId().equals(pin)).toList();
        if (ofPin.isEmpty()) return "no offer of " + pin;
        Fit f = fit(w, pin);
        if (f != null && !f.ok()) return f.unfitReason;
        if (ofPin.stream().allMatch(q -> q.billing() == Billing.SPOT)) return pin + " is sold only as spot and the work must not be interrupted";
        if (ofPin.stream().noneMatch(q -> !Double.isNaN(factor(q.price().currency())))) {
          return "no FX rate from " + ofPin.get(0).price().currency() + " to " + s.currency();
        }
        return "no usable offer of " + pin;
      }
      for (Quote q : quotes) {
        Fit f = fit(w, q.gpuId());
        if (f != null && !f.ok()) return f.unfitReason;
      }
      return "no offer can carry it (" + Sizing.vram(wl).formula() + ")";
    }

    private VendorPlan vendorPlan(QuoteBook.Entry e, Picks[] picks) {
      VendorTerms terms = e.quotes().terms();
      String vendor = e.quotes().vendor();
      List<Placement> placements = new ArrayList<>();
      List<LineItem> lines = new ArrayList<>();
      List<String> warnings = new ArrayList<>();
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
        else onDemandTotal = onDemandTotal.plus(picks[w].onDemand.quote == p.quote() ? cost : exactCost(picks[w].onDemand, terms).cents());
        if (picks[w].monthly == null) allMonthly = false;
        else monthlyTotal = monthlyTotal.plus(picks[w].monthly.quote == p.quote() ? cost : exactCost(picks[w].monthly, terms).cents());
      }
      DataLines.Result data = this.data.of(vendor, terms);
      lines.addAll(data.lines());
      data.lines().stream().filter(l -> l.item().equals(DataLines.EGRESS_ITEM)).findFirst().ifPresent(egress -> {
        if (egress.perMonth().compareTo(placementsTotal(placements)) > 0) {
          warnings.add("bandwidth (" + egress.perMonth() + "/month) costs more than the GPUs: compress and cache API responses (guide 4.4)");
        }
      });
      if (e.freshness().state() != dev.gpurent.quote.Freshness.State.FRESH) {
        warnings.add("prices are " + e.freshness() + ": the last refresh failed");
      }
      Bill bill = Bill.of(lines, s.currency(), s.horizonMonths());
      return new VendorPlan(vendor, e.quotes().displayName(), bill, placements,
          allOnDemand ? Optional.of(onDemandTotal.minus(gpuTotal)) : Optional.empty(),
          allMonthly ? Optional.of(monthlyTotal.minus(gpuTotal)) : Optional.empty(),
          warnings, e.freshness().toString(), e.quotes().note(), data.gaps());
    }

    private Money placementsTotal(List<Placement> placements) {
      Money t = Money.zero(s.currency());
      for (Placement p : placements) t = t.plus(p.perMonth().cents());
      return t;
    }

    private Money unitPrice(Quote q, VendorTerms terms) {
      return fx.convert(q.price(), s.currency()).money().times(terms.discount());
    }

    private Money exactCost(Pick p, VendorTerms terms) {
      return BillingPlanner.monthlyCost(unitPrice(p.quote, terms), p.quote.unit(), p.quote.billing(), p.instances, p.hours,
          s.horizonMonths(), p.spotOverhead);
    }

    private Placement placement(int w, Pick p, Picks alternatives, VendorTerms terms) {
      Workload wl = s.workloads().get(w);
      Quote q = p.quote;
      FxRates.Conversion conv = fx.convert(q.price(), s.currency());
      Money unit = conv.money().times(terms.discount());
      Money perMonth = BillingPlanner.monthlyCost(unit, q.unit(), q.billing(), p.instances, p.hours, s.horizonMonths(),
          p.spotOverhead);
      String fxText = conv.isIdentity() ? "" : fxText(q.price().currency(), s.currency(), conv);
      // Every mode's cost and the explanation are built on first read: most rankings are compared,
      // not read line by line, and this is most of the cost of a plan.
      return new Placement(wl, q, p.fit.gpu, p.instances, p.cards(), p.hours, unit, perMonth, warnings(wl, p), fxText,
          spotNote(wl, p), () -> details(wl, p, alternatives, terms));
    }

    private Placement.Details details(Workload wl, Pick p, Picks alternatives, VendorTerms terms) {
      List<Placement.ModeCost> modes = new ArrayList<>();
      Money hourly = null, monthly = null;
      for (Quote m : book.modesOf(p.quote)) {
        Money mUnit = unitPrice(m, terms);
        boolean allowed = m.billing() != Billing.SPOT || wl.interruptible();
        Pick priced = new Pick();
        double rate = book.interruptionRate(m).orElse(Double.NaN);
        if (!evaluate(wl, m, p.fit, 1, 0, rate, priced)) priced.set(m, p.fit, p.instances, p.hours, 0, 0);
        Money cost = BillingPlanner.monthlyCost(mUnit, m.unit(), m.billing(), priced.instances, priced.hours, s.horizonMonths(),
            priced.spotOverhead);
        modes.add(new Placement.ModeCost(m.billing(), cost, allowed));
        if (m.billing() == Billing.ON_DEMAND) hourly = mUnit.times(PriceUnit.HOUR.hours()).dividedBy(m.unit().hours());
        if (m.billing() == Billing.MONTHLY) monthly = mUnit.times(PriceUnit.MONTH.hours()).dividedBy(m.unit().hours());
      }
      modes.sort(Comparator.comparing(Placement.ModeCost::billing));
      Optional<BigDecimal> breakEven = hourly != null && monthly != null && hourly.isPositive()
          ? Optional.of(BillingPlanner.breakEvenHours(hourly, monthly)) : Optional.empty();
      return new Placement.Details(modes, breakEven, explain(wl, p, modes, breakEven, alternatives, terms));
    }


    /** How a spot line's interruption overhead was priced, for its note; "" for other modes. */
    private String spotNote(Workload wl, Pick p) {
      if (p.quote.billing() != Billing.SPOT) return "";
      java.util.OptionalDouble rate = book.interruptionRate(p.quote);
      if (rate.isEmpty()) {
        return "+ " + pct(BillingPlanner.SPOT_RESTART_OVERHEAD) + " for interruptions (no published interruption rate)";
      }
      dev.gpurent.quote.SpotRisk risk = book.spotRisk().orElseThrow();
      String band = risk.of(p.quote.region(), p.quote.offerId()).map(b -> b.label()).orElse("?");
      double expected = rate.getAsDouble() * p.hours / BillingPlanner.HOURS_PER_MONTH;
      return "interruption band " + band + " (AWS Spot Advisor): " + Sizing.fmt(expected) + " expected interruptions a month x "
          + Sizing.fmt(wl.restartOverheadHours()) + " h restart overhead";
    }


    private String explain(Workload wl, Pick p, List<Placement.ModeCost> modes, Optional<BigDecimal> breakEven,
                           Picks alternatives, VendorTerms terms) {
      Fit f = p.fit;
      Gpu gpu = f.gpu;
      StringBuilder sb = new StringBuilder();
      Sizing.VramNeed need = Sizing.vram(wl);
      sb.append(p.cards()).append(" x ").append(gpu.name()).append(": ");
      if (wl instanceof Inference inf) {
        int copies = f.cards / f.cardsPerCopy;
        sb.append(copies).append(copies == 1 ? " copy" : " copies").append(" of the model");
        if (f.cardsPerCopy > 1) sb.append(" on ").append(f.cardsPerCopy).append(" cards each");
        sb.append(copies == 1 ? " serves " : " serve ").append(Sizing.fmt(inf.peakQps())).append(" QPS at ").append(Sizing.fmt(f.qpsPerCopy))
            .append(" QPS each with ").append(pct(s.headroom())).append(" headroom; ");
      } else {
        sb.append(Sizing.fmt(((Job) wl).gpuHoursPerMonth())).append(" reference card-hours take ")
            .append(Sizing.fmt(p.hours)).append(" h a month on ").append(p.cards()).append(p.cards() == 1 ? " card" : " cards");
        if (p.cards() > 1) {
          sb.append(" (").append(Sizing.fmt(gpu.interconnect().speedup(p.cards()))).append("x over ")
              .append(gpu.interconnect().label()).append(")");
        }
        if (!gpu.id().equals(wl.referenceGpu())) {
          sb.append(", each card at ").append(Sizing.fmt(f.relativeSpeedPerCard)).append("x the speed of the reference ")
              .append(catalog.byId(wl.referenceGpu()).map(Gpu::name).orElse(wl.referenceGpu()));
        }
        sb.append("; ");
      }
      sb.append(need.formula()).append(" uses ").append(pct(f.memoryShare)).append(" of ")
          .append(f.cardsPerCopy == 1 ? "the card's" : f.cardsPerCopy + " cards'").append(" memory. ");
      sb.append(p.quote.billing().wire()).append(" is cheapest for this use:");
      for (Placement.ModeCost m : modes) {
        sb.append(' ').append(m.billing().wire()).append(' ')
            .append(m.allowed() ? m.perMonth().cents().plain() : "not allowed (the work must not be interrupted)").append(',');
      }
      sb.setLength(sb.length() - 1);
      breakEven.ifPresent(b -> sb.append("; monthly beats on-demand above ").append(b.stripTrailingZeros().toPlainString())
          .append(" h a month per card"));
      sb.append('.');
      if (alternatives == null) return sb.toString();
      Pick single = alternatives.singleCard;
      if (wl instanceof Job && single != null && p.cards() > 1 && single.quote != p.quote) {
        sb.append(" One-card alternative: ").append(single.fit.gpu.name()).append(' ').append(single.quote.billing().wire())
            .append(" at ").append(exactCost(single, terms).cents().plain()).append(" a month.");
      }
      Pick ref = alternatives.onReference;
      if (ref != null && !ref.quote.gpuId().equals(p.quote.gpuId())) {
        Money refCost = exactCost(ref, terms).cents();
        sb.append(" On the reference card it would take ").append(ref.cards()).append(" x ").append(ref.fit.gpu.name())
            .append(' ').append(ref.quote.billing().wire()).append(" at ").append(refCost.plain()).append(" a month (+")
            .append(refCost.minus(exactCost(p, terms).cents()).plain()).append(").");
      }
      Pick next = alternatives.otherGpu;
      if (next != null && next != ref) {
        Money nextCost = exactCost(next, terms).cents();
        sb.append(" Next best card: ").append(next.cards()).append(" x ").append(next.fit.gpu.name()).append(' ')
            .append(next.quote.billing().wire()).append(" at ").append(nextCost.plain()).append(" a month (+")
            .append(nextCost.minus(exactCost(p, terms).cents()).plain()).append(").");
      }
      return sb.toString();
    }

    private List<String> warnings(Workload wl, Pick p) {
      List<String> out = new ArrayList<>();
      Gpu gpu = p.fit.gpu;
      if (wl instanceof Inference inf && p.quote.billing() == Billing.SPOT && inf.hoursPerDay() >= 20) {
        out.add(wl.name() + ": spot for 7x24 inference can be reclaimed at any time; use monthly or on-demand (guide 6.1)");
      }
      if (wl instanceof Job j && j.method() == TuneMethod.LORA && j.paramsBillions() > 0 && gpu.memoryGiB() <= 24) {
        out.add(wl.name() + ": " + Sizing.fmt(j.paramsBillions()) + "B LoRA on " + Sizing.fmt(gpu.memoryGiB())
            + " GB cards is marginal, OOM risk (guide 3.2)");
      }
      if (wl instanceof Job && p.cards() > 1 && gpu.interconnect().isPcie()) {
        out.add(wl.name() + ": " + p.cards() + " cards over " + gpu.interconnect().label() + " reach "
            + Sizing.fmt(gpu.interconnect().speedup(p.cards())) + "x, not " + p.cards() + "x; NVLink cards or fewer cards scale better (guide 3.3)");
      }
      if (p.fit.memoryShare > Sizing.MEMORY_EDGE) {
        out.add(wl.name() + ": needs " + pct(p.fit.memoryShare) + " of " + gpu.name() + " memory, at the edge (guide 2.2)");
      }
      return out;
    }

    private LineItem gpuLine(Placement p) {
      Quote q = p.quote();
      String spec = p.gpu().name() + " (" + q.offerId() + (q.region().isEmpty() ? "" : ", " + q.region()) + ")"
          + (q.upstream().isEmpty() ? "" : " via " + q.vendor() + " (" + q.upstream() + ")");
      String note = p.billing().wire();
      if (p.workload() instanceof Job || !p.billing().isCommitment()) {
        note += ", about " + Sizing.fmt(p.hoursPerMonth()) + " h a month";
      }
      if (p.billing() == Billing.SPOT) note += "; " + p.spotNote();
      if (q.gpuCount() > 1) note += "; " + p.instances() + " x " + Sizing.fmt(q.gpuCount()) + "-GPU instance";
      return new LineItem(p.workload().kind().item(), spec, Integer.toString(q.gpuCount() > 1 ? p.instances() : p.cards()),
          p.unitPrice().round(UNIT_PRICE_DECIMALS), q.unit().wire(), p.perMonth().cents(), note, q.source(), p.fx());
    }

    private Optional<MixedPlan> mixedPlan(Map<String, Picks[]> allPicks, List<VendorPlan> plans) {
      int n = s.workloads().size();
      if (n < 2) return Optional.empty();
      String[] vendorOf = new String[n];
      Pick[] chosen = new Pick[n];
      for (Map.Entry<String, Picks[]> e : allPicks.entrySet()) {
        for (int w = 0; w < n; w++) {
          Pick p = e.getValue()[w].best;
          if (p != null && (chosen[w] == null || Math.round(p.cost * 100) < Math.round(chosen[w].cost * 100))) {
            chosen[w] = p;
            vendorOf[w] = e.getKey();
          }
        }
      }
      for (Pick p : chosen) if (p == null) return Optional.empty();
      if (java.util.Arrays.stream(vendorOf).distinct().count() == 1) return Optional.empty();
      int home = 0;
      for (int w = 1; w < n; w++) {
        boolean inf = s.workloads().get(w) instanceof Inference, homeInf = s.workloads().get(home) instanceof Inference;
        if ((inf && !homeInf) || (inf == homeInf && chosen[w].cost > chosen[home].cost)) home = w;
      }
      String homeVendor = vendorOf[home];
      VendorTerms homeTerms = book.vendor(homeVendor).orElseThrow().quotes().terms();
      List<Placement> placements = new ArrayList<>();
      List<LineItem> lines = new ArrayList<>();
      List<Gap> gaps = new ArrayList<>();
      try {
        for (int w = 0; w < n; w++) {
          VendorTerms t = book.vendor(vendorOf[w]).orElseThrow().quotes().terms();
          Placement p = placement(w, chosen[w], null, t);
          placements.add(p);
          lines.add(gpuLine(p));
        }
        DataLines.Result homeData = data.of(homeVendor, homeTerms);
        lines.addAll(homeData.lines());
        gaps.addAll(homeData.gaps());
        if (s.storedGb() > 0) {
          for (String v : java.util.Arrays.stream(vendorOf).distinct().filter(v -> !v.equals(homeVendor)).toList()) {
            lines.add(data.transfer(homeVendor, homeTerms, v, gaps));
          }
        }
      } catch (IllegalArgumentException | DataLines.Unpriceable noPrice) {
        return Optional.empty();
      }
      Bill bill = Bill.of(lines, s.currency(), s.horizonMonths());
      Money best = plans.isEmpty() ? bill.monthlyTotal() : plans.get(0).monthlyTotal();
      return Optional.of(new MixedPlan(homeVendor, bill, placements, best.minus(bill.monthlyTotal()), gaps));
    }
  }

  /** Unit prices are shown to four decimals (0.0123/hour); per-month figures are exact, then rounded to the cent. */
  static final int UNIT_PRICE_DECIMALS = 4;

  /** "1 USD = 7.24 CNY (ECB 2025-05-09)". */
  static String fxText(String from, String to, FxRates.Conversion conv) {
    return "1 " + from + " = " + conv.rate().stripTrailingZeros().toPlainString() + " " + to
        + " (" + conv.source() + (conv.asOf() == null ? "" : " " + conv.asOf()) + ")";
  }

  static String pct(double share) {
    return Math.round(share * 100) + "%";
  }

}
