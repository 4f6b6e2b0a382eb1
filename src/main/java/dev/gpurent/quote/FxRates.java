package dev.gpurent.quote;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Exchange rates against one base currency (EUR for the ECB feed), as of one date, from one
 * source. Every conversion reports the rate it used and that date. Immutable.
 */
public final class FxRates {

  private static final MathContext MC = MathContext.DECIMAL64;

  private final String base;
  private final Map<String, BigDecimal> perBase;
  private final LocalDate asOf;
  private final String source;

  /**
   * @param base    the currency every rate is quoted against
   * @param perBase units of each currency per one unit of {@code base}
   */
  public FxRates(String base, Map<String, BigDecimal> perBase, LocalDate asOf, String source) {
    this.base = base.toUpperCase(Locale.ROOT);
    Map<String, BigDecimal> m = new HashMap<>();
    perBase.forEach((k, v) -> {
      if (v.signum() <= 0) throw new IllegalArgumentException("FX rate for " + k + " must be > 0");
      m.put(k.toUpperCase(Locale.ROOT), v);
    });
    m.put(this.base, BigDecimal.ONE);
    this.perBase = Map.copyOf(m);
    this.asOf = asOf;
    this.source = source;
  }

  /**
   * The fallback table from config ({@code fx.fallback}: base, asOf, source, rates), used when no
   * FX feed is reachable; its source says so on every conversion.
   */
  /** Whether {@code other} states the same rates (base, each rate, date and source): a re-read that found nothing new. */
  public boolean sameRates(FxRates other) {
    return other != null && base.equals(other.base) && perBase.equals(other.perBase) && java.util.Objects.equals(asOf, other.asOf)
        && java.util.Objects.equals(source, other.source);
  }

  public static FxRates fallback(Map<String, Object> table) {
    String base = String.valueOf(table.getOrDefault("base", "EUR"));
    Object rates = table.get("rates");
    if (!(rates instanceof Map<?, ?> m)) throw new IllegalArgumentException("fx.fallback.rates: expected a map of currency: rate");
    Map<String, BigDecimal> perBase = new HashMap<>();
    m.forEach((k, v) -> perBase.put(String.valueOf(k), new BigDecimal(String.valueOf(v))));
    Object asOf = table.get("asOf");
    return new FxRates(base, perBase, asOf == null ? null : LocalDate.parse(asOf.toString()),
        String.valueOf(table.getOrDefault("source", "fallback table")));
  }

  /** Rates that only know one currency: every same-currency conversion works, nothing else. */
  public static FxRates none(String currency) {
    return new FxRates(currency, Map.of(), null, "none");
  }

  public LocalDate asOf() {
    return asOf;
  }

  public String source() {
    return source;
  }

  public String base() {
    return base;
  }

  public Set<String> currencies() {
    return perBase.keySet();
  }

  /** Units of {@code to} per one unit of {@code from}, if both are known. */
  public Optional<BigDecimal> rate(String from, String to) {
    if (from.equalsIgnoreCase(to)) return Optional.of(BigDecimal.ONE);
    BigDecimal f = perBase.get(from.toUpperCase(Locale.ROOT));
    BigDecimal t = perBase.get(to.toUpperCase(Locale.ROOT));
    if (f == null || t == null) return Optional.empty();
    return Optional.of(t.divide(f, MC));
  }

  /** The conversion of {@code money} into {@code to}, or a failure naming the missing currency. */
  public Conversion convert(Money money, String to) {
    if (money.currency().equals(to)) return new Conversion(money, BigDecimal.ONE, null, "");
    BigDecimal r = rate(money.currency(), to).orElseThrow(() -> new IllegalArgumentException(
        "no FX rate from " + money.currency() + " to " + to + " in " + source));
    return new Conversion(new Money(money.amount().multiply(r, MC), to), r, money.currency().equalsIgnoreCase(to) ? null : asOf,
        money.currency().equalsIgnoreCase(to) ? "" : source);
  }

  /**
   * A converted amount with the rate and the rate's date, so a bill can show them.
   * Same-currency conversions have rate 1 and no date.
   */
  public record Conversion(Money money, BigDecimal rate, LocalDate asOf, String source) {
    public boolean isIdentity() {
      return asOf == null && rate.compareTo(BigDecimal.ONE) == 0;
    }

    /**
     * "1 USD = 7.24049 CNY (ECB euro reference rates 2025-05-09)": the rate as a person reads it, to
     * 6 significant digits (the conversion itself keeps every digit).
     */
    public String text(String from) {
      String shown = rate.round(new java.math.MathContext(6, java.math.RoundingMode.HALF_UP)).stripTrailingZeros().toPlainString();
      boolean dated = asOf == null || source.contains(asOf.toString());  // the day said once
      return "1 " + from + " = " + shown + " " + money.currency() + " (" + source + (dated ? "" : " " + asOf) + ")";
    }
  }
}
