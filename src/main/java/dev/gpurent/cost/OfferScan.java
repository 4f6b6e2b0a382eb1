package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorTerms;
import dev.gpurent.text.Message;
import dev.gpurent.text.Messages;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scan: one pass over each vendor's quotes per workload, over the {@link OfferIndex}'s
 * primitive columns, keeping the cheapest offers of a few kinds (overall, per mode, on one
 * card, on the reference card, on another card). Costs are compared as doubles and only the
 * winners are priced exactly. Lives as long as one ranking; not thread-safe.
 */
final class OfferScan {

  private static final Billing[] BILLINGS = Billing.values();

/**
 * The scan's running winners as quote indexes and costs in cents, one per kind of pick: no
 * objects are made while scanning, only for the winners at the end.
 */
private static final int BEST = 0, ON_DEMAND = 1, MONTHLY = 2, SINGLE_CARD = 3, ON_REFERENCE = 4, OTHER_GPU = 5;
private static final int ON_DEMAND_MODE = Billing.ON_DEMAND.ordinal(), MONTHLY_MODE = Billing.MONTHLY.ordinal();

  private final GpuCatalog catalog;
  private final Scenario s;
  private final OfferIndex index;
  private final QuoteBook book;
  private final FxRates fx;
  private final Map<String, Double> fxFactor = new HashMap<>();
  // Per workload and GPU slot (fits), per currency slot (FX factors).
  private final Fit[][] fitBySlot;
  private final boolean[][] fitKnown;
  private final double[] factorBySlot;
  /**
   * What each shape needs per workload: while one vendor is scanned for the workload, by that
   * vendor's own shapes (a live pass pricing one vendor again allocates its few dozen, not the
   * book's thousands, for each scenario); from the second vendor on, by the book's shapes, shared
   * (many vendors sell the same card in the same mode: a ranking of every vendor learns each once);
   * the book's from the first vendor on when that vendor alone holds half the book's shapes.
   */
  private final ShapeCosts[] firstVendorShapes, bookShapes;
  private final String[] firstVendor;

  /**
   * One workload's figures per shape: instances (0 = not worked out yet, -1 = cannot serve), machines
   * a copy or job spans, hours used and paid per instance, the spot overhead, what one unit of an
   * offer's price (after discount) comes to a month in the scenario's currency, and cards: a
   * winner's pick is made of them, not worked out again.
   */
  private static final class ShapeCosts {
    final int[] instances, spread, cards;
    final double[] hours, paid, overhead, perPrice;

    ShapeCosts(int shapes) {
      instances = new int[shapes];
      spread = new int[shapes];
      cards = new int[shapes];
      hours = new double[shapes];
      paid = new double[shapes];
      overhead = new double[shapes];
      perPrice = new double[shapes];
    }

    void copy(int from, ShapeCosts to, int at) {
      to.instances[at] = instances[from];
      to.spread[at] = spread[from];
      to.cards[at] = cards[from];
      to.hours[at] = hours[from];
      to.paid[at] = paid[from];
      to.overhead[at] = overhead[from];
      to.perPrice[at] = perPrice[from];
    }
  }
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
  /** Per kind, the unrounded cents an offer must stay under to tie or beat the kept one: its cents plus half; infinite while none is kept. */
  private final double[] bar = new double[6];
  /** The GPU slot of the kept best offer, while there is one. */
  private int bestSlot;
  // The scenario's filters: GPU slots its maker and compute capability rules leave out, region masks per vendor.
  private final boolean[] slotBlocked, noSlotBlocked;
  /** The catalog's card in each GPU slot (null: not in the catalog), looked up once. */
  private final Gpu[] gpuBySlot;
  private final boolean filtersQuotes;
  private final Map<String, boolean[]> regionMasks = new HashMap<>();

  OfferScan(GpuCatalog catalog, RankingRules rules, Scenario s, QuoteBook book) {
    this.catalog = catalog;
    this.s = s;
    this.book = book;
    this.index = OfferIndex.of(book);
    this.fx = book.fx();
    int n = s.workloads().size();
    int gpus = index.gpuIds().size();
    fitBySlot = new Fit[n][gpus];
    fitKnown = new boolean[n][gpus];
    firstVendorShapes = new ShapeCosts[n];
    bookShapes = new ShapeCosts[n];
    firstVendor = new String[n];
    needGB = new double[n];
    referenceGpu = new Gpu[n];
    pinSlot = new int[n];
    referenceSlot = new int[n];
    for (int w = 0; w < n; w++) {
      Workload wl = s.workloads().get(w);
      needGB[w] = Sizing.vram(wl).highGB();
      referenceGpu[w] = catalog.byId(wl.referenceGpu()).orElseThrow();
      pinSlot[w] = wl.gpu().map(g -> index.gpuIds().indexOf(g)).orElse(-1);
      referenceSlot[w] = index.gpuIds().indexOf(wl.referenceGpu());
    }
    for (Billing b : BILLINGS) {
      if (b.isCommitment()) commitmentHours[b.ordinal()] = BillingPlanner.paidHoursPerMonth(b, 0, s.horizonMonths());
    }
    Constraints c = s.constraints();
    slotBlocked = new boolean[gpus];
    noSlotBlocked = new boolean[gpus];
    gpuBySlot = new Gpu[gpus];
    for (int g = 0; g < gpus; g++) {
      Gpu gpu = gpuBySlot[g] = catalog.byId(index.gpuIds().get(g)).orElse(null);
      slotBlocked[g] = gpu != null && ((!c.gpuMakers().isEmpty() && !c.gpuMakers().contains(gpu.maker()))
          || gpu.computeCapability() < c.minComputeCapability());
    }
    filtersQuotes = !c.regions().isEmpty() || !c.gpuMakers().isEmpty() || c.minComputeCapability() > 0 || c.inStock();
    factorBySlot = new double[index.currencies().size()];
    for (int k = 0; k < factorBySlot.length; k++) factorBySlot[k] = factor(index.currencies().get(k));
  }

  /** How workload {@code w} sits on the card in GPU slot {@code slot}; null for a card not in the catalog. */
  Fit fitAt(int w, int slot) {
    if (!fitKnown[w][slot]) {
      Gpu gpu = gpuBySlot[slot];
      fitBySlot[w][slot] = gpu == null ? null : Fit.of(s.workloads().get(w), needGB[w], gpu, referenceGpu[w], s.headroom());
      fitKnown[w][slot] = true;
    }
    return fitBySlot[w][slot];
  }

  Fit fit(int w, String gpuId) {
    int slot = index.gpuIds().indexOf(gpuId);
    return slot < 0 ? null : fitAt(w, slot);
  }

  /** The shape figures {@code vendor} is scanned with for workload {@code w}: its own while it is the only one, else the book's. */
  private ShapeCosts shapeCosts(int w, String vendor, OfferIndex.Columns c) {
    if (bookShapes[w] != null) return bookShapes[w];
    if (firstVendor[w] == null && index.shapes().size() <= 2 * c.shapeIds().length) {
      // a vendor of half the book's shapes or more: the book's figures cost at most twice its own, made once
      return bookShapes[w] = new ShapeCosts(index.shapes().size());
    }
    if (firstVendor[w] == null) {
      firstVendor[w] = vendor;
      return firstVendorShapes[w] = new ShapeCosts(c.shapeIds().length);
    }
    if (firstVendor[w].equals(vendor)) return firstVendorShapes[w];
    // a second vendor: the book's figures, with what the first one learned
    ShapeCosts own = firstVendorShapes[w], book = bookShapes[w] = new ShapeCosts(index.shapes().size());
    int[] ids = index.columns(firstVendor[w]).shapeIds();
    for (int k = 0; k < ids.length; k++) own.copy(k, book, ids[k]);
    firstVendorShapes[w] = null;
    return book;
  }

  /** Works out, once per ranking, what every offer of the book's shape {@code id} needs for workload {@code w}; into {@code into}[at]. */
  void learnShape(int w, int id, ShapeCosts into, int at) {
    OfferIndex.Shape sh = index.shapes().get(id);
    if (sh.stock() == Stock.State.UNAVAILABLE || (s.constraints().inStock() && sh.stock() != Stock.State.AVAILABLE)) {
      into.instances[at] = -1;  // never picked: see skippedForStock for the ones that would have been
      return;
    }
    Pick out = learning;
    double factor = factorBySlot[sh.currencySlot()];
    double paid = usage(s.workloads().get(w), sh.billing(), sh.gpuCount(), fitAt(w, sh.gpuSlot()), Double.NaN, out);
    if (Double.isNaN(paid) || Double.isNaN(factor)) {
      into.instances[at] = -1;
      return;
    }
    into.instances[at] = out.instances;
    into.spread[at] = out.spread;
    into.hours[at] = out.hours;
    into.paid[at] = paid;
    into.overhead[at] = out.spotOverhead;
    into.cards[at] = out.instances * (int) sh.gpuCount();
    into.perPrice[at] = factor * out.instances * paid / sh.unit().hoursValue();
  }

  /** What {@link #learnShape} works a shape's usage out in before keeping its figures. */
  private final Pick learning = new Pick();

  /**
   * Counts into {@code excluded} a vendor's quotes that the scenario's region and card filters
   * leave out, by the first rule that does.
   */
  void countExclusions(QuoteBook.Entry e, boolean reference, Map<String, Integer> excluded) {
    if (reference || !filtersQuotes) return;
    Constraints c = s.constraints();
    boolean[] mask = regionMask(e);
    List<Quote> quotes = e.quotes().quotes();
    OfferIndex.Columns cols = index.columns(e.quotes().vendor());
    for (int i = 0; i < quotes.size(); i++) {
      String why = null;
      if (mask != null && mask[i]) {
        why = Ranking.EXCLUDED_REGION;
      } else {
        Gpu g = catalog.byId(index.gpuIds().get(cols.gpuSlots()[i])).orElse(null);
        if (g != null && !c.gpuMakers().isEmpty() && !c.gpuMakers().contains(g.maker())) why = Ranking.EXCLUDED_MAKER;
        else if (g != null && g.computeCapability() < c.minComputeCapability()) why = Ranking.EXCLUDED_COMPUTE_CAPABILITY;
        else if (c.inStock() && !quotes.get(i).stock().isAvailable()) why = Ranking.EXCLUDED_IN_STOCK;
      }
      if (why != null) excluded.merge(why, 1, Integer::sum);
    }
  }

  /** Per quote of the vendor, whether the region filter leaves it out; null when no region filter is set. */
  boolean[] regionMask(QuoteBook.Entry e) {
    Constraints.Filter f = s.constraints().regions();
    if (f.isEmpty() || beside(e)) return null;
    return regionMasks.computeIfAbsent(e.quotes().vendor(), v -> {
      List<Quote> quotes = e.quotes().quotes();
      boolean[] out = new boolean[quotes.size()];
      for (int i = 0; i < out.length; i++) {
        Quote q = quotes.get(i);
        out[i] = !f.admits(q.region(), q.country(), Regions.continentOf(q.country()).orElse(""));
      }
      return out;
    });
  }

  /** Units of {@code to} per unit of {@code from} as a double, NaN when no rate is known. */
  double factor(String currency) {
    if (currency.equals(s.currency())) return 1;  // the data lines ask for most of their prices in it
    Double f = fxFactor.get(currency);
    if (f == null) {
      f = factor(fx, currency, s.currency());
      fxFactor.put(currency, f);
    }
    return f;
  }

  /** Units of {@code to} per unit of {@code from} at {@code fx}, as a double; NaN when no rate is known. */
  static double factor(FxRates fx, String from, String to) {
    return fx.rate(from, to).map(BigDecimal::doubleValue).orElse(Double.NaN);
  }

  /**
   * The vendor's cheapest quotes of each kind for workload {@code w}, over primitive columns: each
   * quote's cost is its price times the FX factor times what its shape needs (worked out once per
   * shape). Each shape's quotes are read cheapest first, up to the first that cannot win. Ties in
   * cents go to fewer cards, then the billing mode order, then the offer key.
   */
  Picks select(int w, QuoteBook.Entry e) {
    Workload wl = s.workloads().get(w);
    Picks picks = new Picks();
    String vendor = e.quotes().vendor();
    if (wl.vendor().isPresent() && !wl.vendor().get().equals(vendor)) return picks;
    int pin = pinSlot[w];
    if (pin == -1 && wl.gpu().isPresent()) return picks;  // the pinned card is in no vendor's book
    int ref = referenceSlot[w];
    OfferIndex.Columns c = index.columns(vendor);
    List<Quote> quotes = e.quotes().quotes();
    double[] prices = c.prices(), unitsPerHour = c.unitsPerHour(), interruptions = c.interruptionRates();
    int[] gpuSlots = c.gpuSlots();
    byte[] modes = c.billings();
    ShapeCosts costs = shapeCosts(w, vendor, c);
    boolean own = costs != bookShapes[w];
    int[] shapes = own ? c.ownShapes() : c.shapes();
    int[] instancesOf = costs.instances;
    int[] cardsOf = costs.cards;
    double[] perPriceOf = costs.perPrice, hoursOf = costs.hours;
    double discount = e.quotes().terms().discount().doubleValue();
    double restartHours = wl.restartOverheadHours();
    int[] win = winner;
    long[] cents = winnerCents;
    java.util.Arrays.fill(win, -1);
    java.util.Arrays.fill(bar, Double.POSITIVE_INFINITY);
    // The reference sheet shown beside the plans answers the scenario as the guide would, unfiltered.
    boolean[] regionOut = regionMask(e);
    boolean[] blocked = beside(e) ? noSlotBlocked : slotBlocked;
    int[] order = c.byShape(), start = c.shapeStart(), ids = c.shapeIds();
    boolean[] rated = c.rated();
    int fits = 0;
    double[] cheapest = c.cheapest();
    int[] shapeSlots = c.shapeSlots();
    byte[] shapeModes = c.shapeBillings();
    // The bars as locals while shapes are passed over (they move only when a shape's offers are read):
    // the check below is the one most shapes get, and reading them off the fields each time cost most of it.
    double atBest = bar[BEST], atOther = bar[OTHER_GPU], atOnDemand = bar[ON_DEMAND], atMonthly = bar[MONTHLY];
    double atSingle = bar[SINGLE_CARD], atReference = bar[ON_REFERENCE];
    int bestCard = -1;
    for (int k = 0; k < ids.length; k++) {
      int from = start[k], to = start[k + 1];
      int slot = shapeSlots[k];
      if ((pin >= 0 && slot != pin) || blocked[slot]) continue;
      int shape = own ? k : ids[k];
      int instances = instancesOf[shape];
      if (instances == 0) {
        learnShape(w, ids[k], costs, shape);
        instances = instancesOf[shape];
      }
      if (instances < 0) continue;
      int mode = shapeModes[k];
      int cards = cardsOf[shape];
      // most shapes win nothing: their cheapest offer, priced as below, is passed over without reading the
      // shape when it is not under the bar of any kind it could win (as need() has it)
      if (regionOut == null && !rated[k]) {
        double need = atBest;
        if (slot != bestCard && atOther > need) need = atOther;
        if (mode == ON_DEMAND_MODE && atOnDemand > need) need = atOnDemand;
        if (mode == MONTHLY_MODE && atMonthly > need) need = atMonthly;
        if (cards == 1 && atSingle > need) need = atSingle;
        if (slot == ref && atReference > need) need = atReference;
        if (!(cheapest[k] * discount * perPriceOf[shape] * 100 < need)) {
          fits += to - from;
          continue;
        }
      }
      for (int j = from; j < to; j++) {
        int i = order[j];
        if (regionOut != null && regionOut[i]) continue;
        fits++;
        double cost;
        if (!rated[k]) {
          cost = prices[i] * discount * perPriceOf[shape];
        } else if (Double.isNaN(interruptions[i])) {
          cost = prices[i] * discount * perPriceOf[shape];
        } else {
          // a spot price with a published interruption rate: its overhead is the quote's own
          double paid = hoursOf[shape] * (1 + BillingPlanner.spotOverhead(interruptions[i], restartHours));
          cost = prices[i] * discount * factorBySlot[c.currencySlots()[i]] * instances * paid * unitsPerHour[i];
        }
        // Cents are exact only when needed: a cost at or above a kept one plus half a cent rounds
        // to more cents than it, whatever the rounding, so most offers are passed over unrounded.
        double c100 = cost * 100;
        int best = win[BEST];
        boolean sameCard = best >= 0 && slot == gpuSlots[best];
        if (!(c100 < need(slot, mode, cards, ref))) {
          if (rated[k]) continue;
          // the rest of the shape costs at least as much: none of it can win either
          fits += regionOut == null ? to - j - 1 : admitted(order, j + 1, to, regionOut);
          break;
        }
        long cc = Math.round(c100);
        if (better(i, cc, cards, mode, BEST, cardsOf, shapes, quotes, c)) {
          if (best >= 0 && !sameCard) keep(OTHER_GPU, best, cents[BEST]);
          else if (win[OTHER_GPU] >= 0 && gpuSlots[win[OTHER_GPU]] == slot) drop(OTHER_GPU);
          keep(BEST, i, cc);
          bestSlot = slot;
        } else if (!sameCard && better(i, cc, cards, mode, OTHER_GPU, cardsOf, shapes, quotes, c)) {
          keep(OTHER_GPU, i, cc);
        }
        if (mode == ON_DEMAND_MODE && better(i, cc, cards, mode, ON_DEMAND, cardsOf, shapes, quotes, c)) keep(ON_DEMAND, i, cc);
        if (mode == MONTHLY_MODE && better(i, cc, cards, mode, MONTHLY, cardsOf, shapes, quotes, c)) keep(MONTHLY, i, cc);
        if (cards == 1 && better(i, cc, cards, mode, SINGLE_CARD, cardsOf, shapes, quotes, c)) keep(SINGLE_CARD, i, cc);
        if (slot == ref && better(i, cc, cards, mode, ON_REFERENCE, cardsOf, shapes, quotes, c)) keep(ON_REFERENCE, i, cc);
      }
      atBest = bar[BEST];
      atOther = bar[OTHER_GPU];
      atOnDemand = bar[ON_DEMAND];
      atMonthly = bar[MONTHLY];
      atSingle = bar[SINGLE_CARD];
      atReference = bar[ON_REFERENCE];
      bestCard = win[BEST] >= 0 ? bestSlot : -1;
    }
    picks.fitting = fits;
    // one pick an offer: the kinds often fall on the same one (a pick is never changed once made)
    Pick best = pickOf(w, win[BEST], e, c, costs, shapes, discount);
    picks.best = best;
    picks.onDemand = win[ON_DEMAND] == win[BEST] ? best : pickOf(w, win[ON_DEMAND], e, c, costs, shapes, discount);
    picks.monthly = win[MONTHLY] == win[BEST] ? best : pickOf(w, win[MONTHLY], e, c, costs, shapes, discount);
    picks.singleCard = win[SINGLE_CARD] == win[BEST] ? best : pickOf(w, win[SINGLE_CARD], e, c, costs, shapes, discount);
    picks.onReference = win[ON_REFERENCE] == win[BEST] ? best : pickOf(w, win[ON_REFERENCE], e, c, costs, shapes, discount);
    picks.otherGpu = pickOf(w, win[OTHER_GPU], e, c, costs, shapes, discount);
    return picks;
  }

  /**
   * The kept quote at {@code i} as a pick: its shape's usage, its cost worked out as {@link #evaluate}
   * does (the same double, operation for operation); null for none.
   */
  private Pick pickOf(int w, int i, QuoteBook.Entry e, OfferIndex.Columns c, ShapeCosts costs, int[] shapes, double discount) {
    if (i < 0) return null;
    if (c.interruptionRates() != null && !Double.isNaN(c.interruptionRates()[i])) return pickOf(w, i, e, c);  // its own overhead
    int k = shapes[i];
    // the mode and GPUs from the columns: the quote itself, somewhere in a large book, is only pointed at
    Pick p = new Pick().usage(fitAt(w, c.gpuSlots()[i]), costs.instances[k], costs.spread[k], costs.hours[k], costs.overhead[k],
        BILLINGS[c.billings()[i]], index.shapes().get(c.shapes()[i]).gpuCount());
    p.cost = c.prices()[i] * discount * factorBySlot[c.currencySlots()[i]] * p.instances * costs.paid[k] * c.unitsPerHour()[i];
    p.quote = e.quotes().quotes().get(i);
    return p;
  }

  /**
   * The rare pass over the vendor's offers its source says are unavailable (the index lists them):
   * the cheapest that the scenario's filters and pins admit, that could carry workload {@code w},
   * and that costs fewer cents than {@code chosen} (any, when nothing was chosen). The offer the
   * scan would have picked but for its stock; null when there is none.
   */
  Pick skippedForStock(int w, QuoteBook.Entry e, Pick chosen) {
    String vendor = e.quotes().vendor();
    int[] out = index.unavailable(vendor);
    Workload wl = s.workloads().get(w);
    if (out.length == 0 || (wl.vendor().isPresent() && !wl.vendor().get().equals(vendor))) return null;
    OfferIndex.Columns c = index.columns(vendor);
    boolean[] regionOut = regionMask(e);
    boolean[] blocked = beside(e) ? noSlotBlocked : slotBlocked;
    double discount = e.quotes().terms().discount().doubleValue();
    Pick best = null;
    for (int i : out) {
      int slot = c.gpuSlots()[i];
      if ((wl.gpu().isPresent() && slot != pinSlot[w]) || blocked[slot] || (regionOut != null && regionOut[i])) continue;
      Quote q = e.quotes().quotes().get(i);
      Pick p = new Pick();
      double rate = c.interruptionRates() == null ? Double.NaN : c.interruptionRates()[i];
      if (!evaluate(wl, q.billing(), c.unitsPerHour()[i], q.gpuCount(), fitAt(w, slot), factorBySlot[c.currencySlots()[i]],
          c.prices()[i] * discount, rate, p)) {
        continue;
      }
      p.quote = q;
      long cents = Math.round(p.cost * 100);
      if ((chosen == null || cents < Math.round(chosen.cost * 100)) && (best == null || cents < Math.round(best.cost * 100))) best = p;
    }
    return best;
  }

  /**
   * The highest bar among the kinds an offer on GPU slot {@code slot} in mode {@code mode} of
   * {@code cards} cards could win ({@code ref}: the reference card's slot): an offer whose
   * unrounded cents are not under it wins nothing.
   */
  private double need(int slot, int mode, int cards, int ref) {
    double[] under = bar;
    double need = under[BEST];
    int best = winner[BEST];
    boolean sameCard = best >= 0 && slot == bestSlot;
    if (!sameCard && under[OTHER_GPU] > need) need = under[OTHER_GPU];
    if (mode == ON_DEMAND_MODE && under[ON_DEMAND] > need) need = under[ON_DEMAND];
    if (mode == MONTHLY_MODE && under[MONTHLY] > need) need = under[MONTHLY];
    if (cards == 1 && under[SINGLE_CARD] > need) need = under[SINGLE_CARD];
    if (slot == ref && under[ON_REFERENCE] > need) need = under[ON_REFERENCE];
    return need;
  }

  void keep(int kind, int index, long cost) {
    winner[kind] = index;
    winnerCents[kind] = cost;
    bar[kind] = cost + 0.5;
  }

  private void drop(int kind) {
    winner[kind] = -1;
    bar[kind] = Double.POSITIVE_INFINITY;
  }

  /** Whether quote {@code i} ({@code cc} cents, {@code cards} cards) beats the kept quote of {@code kind}. */
  boolean better(int i, long cc, int cards, int mode, int kind, int[] cardsOf, int[] shapes, List<Quote> quotes, OfferIndex.Columns c) {
    int j = winner[kind];
    if (j < 0) return true;
    long jc = winnerCents[kind];
    if (cc != jc) return cc < jc;
    int jCards = cardsOf[shapes[j]];
    if (cards != jCards) return cards < jCards;
    double per = index.shapes().get(c.shapes()[i]).gpuCount(), jPer = index.shapes().get(c.shapes()[j]).gpuCount();
    if (per != jPer) return per < jPer;  // the same cards in smaller machines: easier to rent and to resize
    if (mode != c.billings()[j]) return mode < c.billings()[j];
    // the same key twice: the first listed, as a scan in list order keeps it
    int byKey = quotes.get(i).key().compareTo(quotes.get(j).key());
    return byKey < 0 || (byKey == 0 && i < j);
  }

  /** How many of {@code order}[from..to) the region filter admits. */
  private static int admitted(int[] order, int from, int to, boolean[] regionOut) {
    int n = 0;
    for (int j = from; j < to; j++) if (!regionOut[order[j]]) n++;
    return n;
  }

  /** The kept quote at {@code i} as a pick, priced the same way as in the scan; null for none. */
  Pick pickOf(int w, int i, QuoteBook.Entry e, OfferIndex.Columns c) {
    if (i < 0) return null;
    Quote q = e.quotes().quotes().get(i);
    Pick p = new Pick();
    double rate = c.interruptionRates() == null ? Double.NaN : c.interruptionRates()[i];
    double discounted = c.prices()[i] * e.quotes().terms().discount().doubleValue();
    evaluate(s.workloads().get(w), q.billing(), c.unitsPerHour()[i], q.gpuCount(), fitAt(w, c.gpuSlots()[i]),
        factorBySlot[c.currencySlots()[i]], discounted, rate, p);
    p.quote = q;
    return p;
  }

  /**
   * Prices one quote for one workload into {@code out}, with the quote's price already
   * discounted and its FX factor to the scenario currency; false when it cannot serve.
   */
  boolean evaluate(Workload wl, Billing b, double unitsPerHour, double perInstance, Fit fit, double factor,
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
  double usage(Workload wl, Billing b, double perInstance, Fit fit, double interruptionRate, Pick out) {
    if (b == Billing.SPOT && !wl.interruptible()) return Double.NaN;
    if (perInstance < 1 || perInstance != Math.rint(perInstance)) return Double.NaN;
    if (fit == null || !fit.ok()) return Double.NaN;
    int per = (int) perInstance;
    int instances;
    int spread = 1;
    double hours;
    if (wl instanceof Inference inf) {
      int perCopy = fit.cardsPerCopy;
      if (per >= perCopy) {
        // Copies only add QPS: each machine holds whole copies, and machines are independent.
        instances = ceilDiv(fit.cards / perCopy, per / perCopy);
      } else if (wl.allowMultiNode()) {
        spread = ceilDiv(perCopy, per);
        double kept = Placements.NETWORK.speedup(spread) / spread;
        instances = Sizing.cardsForQps(inf.peakQps(), fit.qpsPerCopy * kept, s.headroom()) * spread;
      } else {
        return Double.NaN;  // a copy's cards must share one machine
      }
      hours = inf.hoursPerMonth();
    } else {
      // One job's cards sit in one machine unless the workload allows several; a month of work
      // that one machine cannot finish in the month's 730 hours needs more machines, which is
      // the multi-node case too.
      spread = per >= fit.cards ? 1 : ceilDiv(fit.cards, per);
      if (spread > 1 && !wl.allowMultiNode()) return Double.NaN;
      hours = Placements.jobHours(fit, per, spread);
      while (hours > BillingPlanner.HOURS_PER_MONTH + 1e-9 && wl.allowMultiNode() && spread < Placements.MAX_MACHINES) {
        spread++;
        hours = Placements.jobHours(fit, per, spread);
      }
      if (hours > BillingPlanner.HOURS_PER_MONTH + 1e-9) return Double.NaN;
      instances = spread;
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
    out.usage(fit, instances, spread, hours, overhead, b, perInstance);
    return paid;
  }


  /** Prices one quote, looked up whole, for one workload (the slow path: a placement's other modes). */
  boolean evaluate(Workload wl, Quote q, Fit fit, double factor, double price, double interruptionRate, Pick out) {
    if (!evaluate(wl, q.billing(), 1 / q.unit().hoursValue(), q.gpuCount(), fit, factor, price, interruptionRate, out)) {
      return false;
    }
    out.quote = q;
    return true;
  }


  /** Why no offer of a vendor can carry a workload: the rare path, so it may scan again. */
  Message whyNot(int w, QuoteBook.Entry e) {
    Workload wl = s.workloads().get(w);
    if (wl.vendor().isPresent()) return Words.of("why.pinnedVendor", "vendor", wl.vendor().get());
    Message filtered = filterReason(e, wl.gpu().orElse(null));
    if (filtered != null) return filtered;
    List<Quote> quotes = e.quotes().quotes();
    if (wl.gpu().isPresent()) {
      String pin = wl.gpu().get();
      List<Quote> ofPin = quotes.stream().filter(q -> q.gpuId().equals(pin)).toList();
      if (ofPin.isEmpty()) return Words.of("why.noOfferOf", "gpu", pin);
      Fit f = fit(w, pin);
      if (f != null && !f.ok()) return f.unfitReason;
      if (ofPin.stream().allMatch(q -> q.billing() == Billing.SPOT)) return Words.of("why.spotOnly", "gpu", pin);
      if (ofPin.stream().noneMatch(q -> !Double.isNaN(factor(q.price().currency())))) {
        return Words.of("why.noFx", "from", ofPin.get(0).price().currency(), "to", s.currency());
      }
      return Words.of("why.noUsableOffer", "gpu", pin);
    }
    for (Quote q : quotes) {
      Fit f = fit(w, q.gpuId());
      if (f != null && !f.ok()) return f.unfitReason;
    }
    Message machine = machineReason(w, quotes);
    if (machine != null) return machine;
    return Words.of("why.noOffer", "formula", Sizing.vram(wl).formula());
  }

  /**
   * The filter that leaves no offer (of the pinned card, when one is pinned) at a vendor that has
   * some, named with what it was given ("the region filter [mars] leaves no offer"): the rules in
   * the order {@link #countExclusions} applies them, the first after which nothing is left. Null
   * when some offer passes every filter, or when there is none to leave out.
   */
  Message filterReason(QuoteBook.Entry e, String pin) {
    if (!filtersQuotes || beside(e)) return null;
    Constraints c = s.constraints();
    boolean[] mask = regionMask(e);
    List<Quote> quotes = e.quotes().quotes();
    int total = 0, afterRegion = 0, afterMaker = 0, afterCapability = 0, afterStock = 0;
    for (int i = 0; i < quotes.size(); i++) {
      Quote q = quotes.get(i);
      if (pin != null && !q.gpuId().equals(pin)) continue;
      total++;
      if (mask != null && mask[i]) continue;
      afterRegion++;
      Gpu g = catalog.byId(q.gpuId()).orElse(null);
      if (g != null && !c.gpuMakers().isEmpty() && !c.gpuMakers().contains(g.maker())) continue;
      afterMaker++;
      if (g != null && g.computeCapability() < c.minComputeCapability()) continue;
      afterCapability++;
      if (c.inStock() && !q.stock().isAvailable()) continue;
      afterStock++;
    }
    if (total == 0 || afterStock > 0) return null;
    if (afterCapability > 0) return pin == null ? Words.of("why.filter.inStock") : Words.of("why.filter.inStock.of", "gpu", pin);
    String key = afterRegion == 0 ? "why.filter.region" : afterMaker == 0 ? "why.filter.gpuMaker" : "why.filter.computeCapability";
    Object given = afterRegion == 0 ? given(c.regions()) : afterMaker == 0 ? String.join(", ", c.gpuMakers())
        : Messages.number(c.minComputeCapability());
    return pin == null ? Words.of(key, "filter", given) : Words.of(key + ".of", "filter", given, "gpu", pin);
  }

  /** A filter's names as given: "mars", or "not RU, CN" for names left out. */
  private static String given(Constraints.Filter f) {
    String only = String.join(", ", f.only()), not = f.exclude().isEmpty() ? "" : "not " + String.join(", ", f.exclude());
    return only.isEmpty() ? not : not.isEmpty() ? only : only + "; " + not;
  }

  /**
   * Why the vendor's machines are too small for a workload's cards that must work together, or
   * its month of work; null when that is not why.
   */
  Message machineReason(int w, List<Quote> quotes) {
    Workload wl = s.workloads().get(w);
    if (wl.allowMultiNode()) return null;
    for (Quote q : quotes) {
      Fit f = fit(w, q.gpuId());
      if (f == null || !f.ok() || q.gpuCount() < 1) continue;
      int per = (int) q.gpuCount();
      int need = wl instanceof Inference ? f.cardsPerCopy : f.cards;
      if (per < need) {
        int largest = (int) quotes.stream().filter(o -> o.gpuId().equals(q.gpuId())).mapToDouble(Quote::gpuCount).max().orElse(per);
        return Words.of(wl instanceof Inference ? "why.machine.copy" : "why.machine.job", "need", need, "gpu", q.gpuId(),
            "largest", largest);
      }
      if (wl instanceof Job && Placements.jobHours(f, per, 1) > BillingPlanner.HOURS_PER_MONTH) {
        return Words.of("why.machine.hours", "hours", Placements.jobHours(f, per, 1), "offer", q.offerId());
      }
    }
    return null;
  }

  Money unitPrice(Quote q, VendorTerms terms) {
    return fx.convert(q.price(), s.currency()).money().times(terms.discount());
  }

  Money exactCost(Pick p, VendorTerms terms) {
    return BillingPlanner.monthlyCost(unitPrice(p.quote, terms), p.quote.unit(), p.quote.billing(), p.instances, p.hours,
        s.horizonMonths(), p.spotOverhead);
  }

  /** Whether {@code e} is the reference sheet set beside the plans rather than ranked among them. */
  private boolean beside(QuoteBook.Entry e) {
    return e.quotes().reference() && !s.constraints().includeReference();
  }

  OfferIndex index() {
    return index;
  }

  FxRates fx() {
    return fx;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }
}
