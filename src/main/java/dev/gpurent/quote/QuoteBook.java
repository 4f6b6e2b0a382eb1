package dev.gpurent.quote;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable picture of every vendor's quotes at one moment, with each vendor's freshness.
 * The engine ranks a QuoteBook; a refresh builds a new one rather than changing this one.
 */
public final class QuoteBook {

  /** One vendor's quotes and how fresh they are. */
  public record Entry(VendorQuotes quotes, Freshness freshness) {}

  private final Map<String, Entry> vendors;
  private final Map<String, String> unavailable;
  private final SpotRisk spotRisk;
  private final FxRates fx;
  private final Instant builtAt;
  // Built once per book so that ranking never parses a BigDecimal or scans for an offer's modes.
  private final Map<String, Columns> columns = new HashMap<>();
  private final List<String> gpuIds = new ArrayList<>();
  private final List<String> currencies = new ArrayList<>();
  private final List<Shape> shapes = new ArrayList<>();
  private final Map<String, List<Quote>> modesByOffer = new HashMap<>();

  /**
   * What an offer is, short of its price: its card, billing mode, GPUs per instance, currency and
   * price unit. Every offer of one shape costs the same multiple of its price for a workload, so
   * the engine works that multiple out once per shape, not once per offer.
   */
  public record Shape(int gpuSlot, Billing billing, double gpuCount, int currencySlot, PriceUnit unit) {}

  /**
   * One vendor's quotes as primitive columns, index-aligned with {@link VendorQuotes#quotes()}: the
   * ranking loop reads only these and touches a Quote object when it is about to be kept.
   *
   * @param prices            each price as a double: for comparing, never for billing
   * @param unitsPerHour      one over the hours each price unit spans
   * @param gpuSlots          each quote's GPU as a slot into {@link #gpuIds()}
   * @param currencySlots     each quote's currency as a slot into {@link #currencies()}
   * @param shapes            each quote's shape as a slot into {@link #shapes()}
   * @param billings          each quote's billing mode as its ordinal
   * @param interruptionRates {@link #interruptionRate} of each quote, NaN where unknown; null when no data was read
   */
  public record Columns(double[] prices, double[] unitsPerHour, int[] gpuSlots, int[] currencySlots, int[] shapes,
                        byte[] billings, double[] interruptionRates) {}

  public QuoteBook(Map<String, Entry> vendors, FxRates fx, Instant builtAt) {
    this(vendors, Map.of(), fx, builtAt);
  }

  /**
   * @param unavailable vendors with no usable quotes at all (never fetched, or offline), with the reason
   */
  public QuoteBook(Map<String, Entry> vendors, Map<String, String> unavailable, FxRates fx, Instant builtAt) {
    this(vendors, unavailable, fx, null, builtAt);
  }

  /**
   * @param spotRisk published interruption rates of spot offers (the AWS Spot Advisor), or null
   */
  public QuoteBook(Map<String, Entry> vendors, Map<String, String> unavailable, FxRates fx, SpotRisk spotRisk, Instant builtAt) {
    this.spotRisk = spotRisk;
    this.vendors = Collections.unmodifiableMap(new TreeMap<>(vendors));
    this.unavailable = Collections.unmodifiableMap(new TreeMap<>(unavailable));
    this.fx = fx;
    this.builtAt = builtAt;
    Map<String, Integer> gpuSlot = new HashMap<>();
    Map<String, Integer> currencySlot = new HashMap<>();
    Map<Shape, Integer> shapeSlot = new HashMap<>();
    for (Entry e : this.vendors.values()) {
      List<Quote> quotes = e.quotes().quotes();
      int n = quotes.size();
      double[] values = new double[n];
      byte[] modes = new byte[n];
      double[] hours = new double[n];
      int[] gpus = new int[n];
      int[] curs = new int[n];
      int[] shapeOf = new int[n];
      double[] rates = spotRisk == null ? null : new double[n];
      for (int i = 0; i < n; i++) {
        Quote q = quotes.get(i);
        values[i] = q.price().toDouble();
        modes[i] = (byte) q.billing().ordinal();
        hours[i] = 1 / q.unit().hoursValue();
        gpus[i] = gpuSlot.computeIfAbsent(q.gpuId(), id -> { gpuIds.add(id); return gpuIds.size() - 1; });
        curs[i] = currencySlot.computeIfAbsent(q.price().currency(), c -> { currencies.add(c); return currencies.size() - 1; });
        shapeOf[i] = shapeSlot.computeIfAbsent(new Shape(gpus[i], q.billing(), q.gpuCount(), curs[i], q.unit()), k -> { shapes.add(k); return shapes.size() - 1; });
        if (rates != null) rates[i] = interruptionRate(q).orElse(Double.NaN);
        modesByOffer.computeIfAbsent(offerKey(q), k -> new ArrayList<>()).add(q);
      }
      columns.put(e.quotes().vendor(), new Columns(values, hours, gpus, curs, shapeOf, modes, rates));
    }
  }

  /** The vendor's quotes as primitive columns; null for a vendor not in the book. */
  public Columns columns(String vendor) {
    return columns.get(vendor);
  }

  /** Every offer shape in the book, by slot. */
  public List<Shape> shapes() {
    return Collections.unmodifiableList(shapes);
  }

  /** Every GPU id in the book, by slot. */
  public List<String> gpuIds() {
    return Collections.unmodifiableList(gpuIds);
  }

  /** Every currency in the book, by slot. */
  public List<String> currencies() {
    return Collections.unmodifiableList(currencies);
  }

  private static String offerKey(Quote q) {
    return q.vendor() + '|' + q.region() + '|' + q.offerId();
  }

  /** The interruption data behind spot prices, if any was read. */
  public java.util.Optional<SpotRisk> spotRisk() {
    return java.util.Optional.ofNullable(spotRisk);
  }

  /**
   * Expected reclaims of one spot instance of {@code q} per 730 running hours, from its published
   * interruption band (a monthly probability p, read as a Poisson rate -ln(1 - p)); empty when unknown.
   */
  public java.util.OptionalDouble interruptionRate(Quote q) {
    if (spotRisk == null || q.billing() != Billing.SPOT) return java.util.OptionalDouble.empty();
    return spotRisk.of(q.region(), q.offerId())
        .map(b -> java.util.OptionalDouble.of(-Math.log(1 - Math.min(b.interruptionProbability(), 0.99))))
        .orElse(java.util.OptionalDouble.empty());
  }

  /** Every billing mode the same offer (vendor, region, offer id) is sold in, including {@code q}. */
  public List<Quote> modesOf(Quote q) {
    return Collections.unmodifiableList(modesByOffer.getOrDefault(offerKey(q), List.of(q)));
  }

  /** A book of freshly fetched vendors. */
  public static QuoteBook of(Collection<VendorQuotes> quotes, FxRates fx, Instant builtAt) {
    Map<String, Entry> m = new LinkedHashMap<>();
    for (VendorQuotes q : quotes) m.put(q.vendor(), new Entry(q, Freshness.fresh()));
    return new QuoteBook(m, fx, builtAt);
  }

  /** Vendors that have no quotes in this book, with the reason, in id order. */
  public Map<String, String> unavailable() {
    return unavailable;
  }

  /** Vendors in id order. */
  public Map<String, Entry> vendors() {
    return vendors;
  }

  public Optional<Entry> vendor(String id) {
    return Optional.ofNullable(vendors.get(id));
  }

  public FxRates fx() {
    return fx;
  }

  public Instant builtAt() {
    return builtAt;
  }

  /** Every quote of every vendor that may still be ranked (fresh or stale). */
  public List<Quote> rankableQuotes() {
    return vendors.values().stream().filter(e -> e.freshness().rankable())
        .flatMap(e -> e.quotes().quotes().stream()).toList();
  }

  public int quoteCount() {
    return vendors.values().stream().mapToInt(e -> e.quotes().quotes().size()).sum();
  }
}
