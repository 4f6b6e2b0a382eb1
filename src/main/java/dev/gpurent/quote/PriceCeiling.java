package dev.gpurent.quote;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Optional;

/**
 * The highest price per unit that can be a price at all, whatever the market: above it a figure
 * is a parsing error or a hostile payload (1e308 USD an hour), and it is refused with the figure
 * rather than ranked. Set in US dollars per unit, two orders of magnitude or more above the
 * dearest real price: the dearest GPU-hour of the sample book is about 15 USD (an H200 on demand);
 * per GB-month of storage or GB moved, and per month of a load balancer, see {@link #aboveService}.
 *
 * <p>A price in a currency the rates convert is compared in US dollars; one the rates do not know
 * is compared against the ceiling times {@link #MOST_UNITS_PER_USD}, the most units of any money
 * a US dollar buys (the Iranian rial, about 42,000 officially), so no real price is refused for
 * its currency.
 */
public final class PriceCeiling {

  /** The most a GPU-hour can cost, USD. */
  public static final BigDecimal GPU_HOUR_USD = new BigDecimal("1000");
  /** Units of the weakest money per US dollar, rounded up: the ceiling for a currency the rates do not know. */
  public static final BigDecimal MOST_UNITS_PER_USD = new BigDecimal("100000");
  /** The most a GB-month of storage or a GB moved (egress, ingress, migration) can cost, USD: S3 asks 0.023 and 0.09. */
  public static final BigDecimal GB_USD = new BigDecimal("100");
  /** The most a service billed by the month (a load balancer) can cost, USD. */
  public static final BigDecimal MONTH_USD = new BigDecimal("100000");
  /** What every refusal says. */
  public static final String REASON = "above the price ceiling";

  private PriceCeiling() {}

  /** Why {@code q}'s price per GPU-hour cannot be a price, or empty when it can. */
  public static Optional<String> aboveGpuHour(Quote q, FxRates fx) {
    if (!(q.gpuCount() > 0)) return Optional.empty();
    BigDecimal perGpuHour = q.price().amount().divide(q.unit().hours().multiply(BigDecimal.valueOf(q.gpuCount())), MathContext.DECIMAL64);
    Optional<BigDecimal> toUsd = fx.rate(q.price().currency(), "USD");
    BigDecimal ceiling = toUsd.isPresent() ? GPU_HOUR_USD : GPU_HOUR_USD.multiply(MOST_UNITS_PER_USD);
    BigDecimal compared = toUsd.map(r -> perGpuHour.multiply(r, MathContext.DECIMAL64)).orElse(perGpuHour);
    if (compared.compareTo(ceiling) <= 0) return Optional.empty();
    return Optional.of(REASON + ": " + shown(q.price().amount()) + " " + q.price().currency() + "/" + q.unit().wire() + " is "
        + shown(perGpuHour) + " " + q.price().currency()
        + " per GPU-hour" + (toUsd.isPresent() && !q.price().currency().equals("USD") ? " (" + shown(compared) + " USD)" : "")
        + ", above the ceiling of " + shown(ceiling) + (toUsd.isPresent() ? " USD" : " in any currency")
        + " per GPU-hour: no price");
  }

  /**
   * Why a vendor file's service price cannot be a price, or empty when it can. Read before any FX
   * rate is known: a price in US dollars is held to the ceiling, one in any other money to the
   * ceiling times {@link #MOST_UNITS_PER_USD}.
   *
   * @param perMonth a price per month (a load balancer), else per GB or GB-month
   */
  public static Optional<String> aboveService(Money price, boolean perMonth) {
    BigDecimal usd = perMonth ? MONTH_USD : GB_USD;
    boolean dollars = price.currency().equals("USD");
    BigDecimal ceiling = dollars ? usd : usd.multiply(MOST_UNITS_PER_USD);
    if (price.amount().compareTo(ceiling) <= 0) return Optional.empty();
    return Optional.of(REASON + ": " + shown(price.amount()) + " " + price.currency() + " is above the ceiling of " + shown(ceiling)
        + (dollars ? " USD" : " in any currency") + " per " + (perMonth ? "month" : "GB or GB-month") + ": no price");
  }

  /** Six significant digits; a figure of a billion or more in E notation (1E308), not in 309 digits. */
  static String shown(BigDecimal d) {
    BigDecimal r = d.round(new MathContext(6)).stripTrailingZeros();
    return r.abs().compareTo(BigDecimal.valueOf(1_000_000_000)) < 0 ? r.toPlainString() : r.toString().replace("E+", "E");
  }
}
