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
  private final Map<String, double[]> interruptionRates = new HashMap<>();
  private final FxRates fx;
  private final Instant builtAt;
  // Built once per book so that ranking never parses a BigDecimal or scans for an offer's modes.
  private final Map<String, double[]> priceValues = new HashMap<>();
  private final Map<String, byte[]> billings = new HashMap<>();
  private final Map<String, double[]> unitHours = new HashMap<>();
  private final Map<String, double[]> gpuCounts = new HashMap<>();
  private final Map<String, int[]> gpuSlots = new HashMap<>();
  private final Map<String, int[]> currencySlots = new HashMap<>();
  private final List<String> gpuIds = new ArrayList<>();
  private final List<String> currencies = new ArrayList<>();
  private final Map<String, List<Quote>> modesByOffer = new HashMap<>();

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
    for (Entry e : this.vendors.values()) {
      List<Quote> quotes = e.quotes().quotes();
      double[] values = new double[quotes.size()];
      byte[] modes = new byte[quotes.size()];
      double[] hours = new double[quotes.size()];
      double[] counts = new double[quotes.size()];
      int[] gpus = new int[quotes.size()];
      int[] curs = new int[quotes.size()];
      for (int i = 0; i < values.length; i++) {
        Quote q = quotes.get(i);
        values[i] = q.price().toDouble();
        modes[i] = (byte) q.billing().ordinal();
        hours[i] = 1 / q.unit().hoursValue();
        counts[i] = q.gpuCount();
        gpus[i] = gpuSlot.computeIfAbsent(q.gpuId(), id -> { gpuIds.add(id); return gpuIds.size() - 1; });
        curs[i] = currencySlot.computeIfAbsent(q.price().currency(), c -> { currencies.add(c); return currencies.size() - 1; });
        modesByOffer.computeIfAbsent(offerKey(q), k -> new ArrayList<>()).add(q);
      }
      priceValues.put(e.quotes().vendor(), values);
      billings.put(e.quotes().vendor(), modes);
      unitHours.put(e.quotes().vendor(), hours);
      gpuCounts.put(e.quotes().vendor(), counts);
      if (spotRisk != null) {
        double[] rates = new double[quotes.size()];
        for (int i = 0; i < rates.length; i++) rates[i] = interruptionRate(quotes.get(i)).orElse(Double.NaN);
        interruptionRates.put(e.quotes().vendor(), rates);
      }
      gpuSlots.put(e.quotes().vendor(), gpus);
      currencySlots.put(e.quotes().vendor(), curs);
    }
  }

  /**
   * Each quote's GPU as a small integer, index-aligned with the vendor's quotes; {@link #gpuIds()}
   * maps it back. Lets the engine keep per-card work in arrays instead of hash maps.
   */
  public int[] gpuSlots(String vendor) {
    return gpuSlots.get(vendor);
  }

  /** Each quote's billing mode as its ordinal, index-aligned with the vendor's quotes. */
  public byte[] billingOrdinals(String vendor) {
    return billings.get(vendor);
  }

  /** One over the hours each quote's price unit spans (units per hour), index-aligned with the vendor's quotes. */
  public double[] unitsPerHour(String vendor) {
    return unitHours.get(vendor);
  }

  /** GPUs in each quote's offer, index-aligned with the vendor's quotes. */
  public double[] gpuCounts(String vendor) {
    return gpuCounts.get(vendor);
  }

  /** Every GPU id in the book, by slot. */
  public List<String> gpuIds() {
    return Collections.unmodifiableList(gpuIds);
  }

  /** Each quote's currency as a slot into {@link #currencies()}. */
  public int[] currencySlots(String vendor) {
    return currencySlots.get(vendor);
  }

  /** Every currency in the book, by slot. */
  public List<String> currencies() {
    return Collections.unmodifiableList(currencies);
  }

  private static String offerKey(Quote q) {
    return q.vendor() + '|' + q.region() + '|' + q.offerId();
  }

  /** The vendor's prices as doubles, index-aligned with its quotes: for comparing, never for billing. */
  public double[] priceValues(String vendor) {
    return priceValues.get(vendor);
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

  /** {@link #interruptionRate} of each of the vendor's quotes, NaN where unknown; null when no data was read. */
  public double[] interruptionRates(String vendor) {
    return interruptionRates.get(vendor);
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
