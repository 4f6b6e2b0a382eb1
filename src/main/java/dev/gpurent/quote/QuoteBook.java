package dev.gpurent.quote;

import java.time.Instant;
import java.util.Collections;
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
  private final TokenPriceBook tokenPrices;

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
    this(vendors, unavailable, fx, spotRisk, builtAt, TokenPriceBook.EMPTY);
  }

  /**
   * @param tokenPrices inference APIs' per-token prices, for the "rent or call an API" comparison
   */
  public QuoteBook(Map<String, Entry> vendors, Map<String, String> unavailable, FxRates fx, SpotRisk spotRisk, Instant builtAt,
                   TokenPriceBook tokenPrices) {
    this.tokenPrices = java.util.Objects.requireNonNull(tokenPrices, "tokenPrices");
    this.spotRisk = spotRisk;
    this.vendors = Collections.unmodifiableMap(new TreeMap<>(vendors));
    this.unavailable = Collections.unmodifiableMap(new TreeMap<>(unavailable));
    this.fx = fx;
    this.builtAt = builtAt;
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

  /** The per-token prices of inference APIs read with this book (empty when none are configured). */
  public TokenPriceBook tokenPrices() {
    return tokenPrices;
  }

  public FxRates fx() {
    return fx;
  }

  public Instant builtAt() {
    return builtAt;
  }

  public int quoteCount() {
    return vendors.values().stream().mapToInt(e -> e.quotes().quotes().size()).sum();
  }
}
