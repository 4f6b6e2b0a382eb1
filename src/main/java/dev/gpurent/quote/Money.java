package dev.gpurent.quote;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Objects;

/**
 * An exact amount in one currency. Amounts keep the precision they were given (unit prices
 * such as 0.0123 USD/hour need it); {@link #cents()} rounds half-up to two places for bills.
 * Arithmetic across currencies is refused: convert through {@link FxRates} first.
 */
public record Money(BigDecimal amount, String currency) implements Comparable<Money> {

  public Money {
    Objects.requireNonNull(amount, "amount");
    if (!isCode(currency)) {
      currency = currency.toUpperCase(Locale.ROOT);
      if (!isCode(currency)) throw new IllegalArgumentException("currency must be an ISO code: " + currency);
    }
  }

  /** Three capital letters; checked without allocating, as money is made on every bill line. */
  private static boolean isCode(String c) {
    return c.length() == 3 && c.charAt(0) >= 'A' && c.charAt(0) <= 'Z' && c.charAt(1) >= 'A' && c.charAt(1) <= 'Z'
        && c.charAt(2) >= 'A' && c.charAt(2) <= 'Z';
  }

  public static Money of(String amount, String currency) {
    return new Money(new BigDecimal(amount), currency);
  }

  public static Money of(double amount, String currency) {
    return new Money(BigDecimal.valueOf(amount), currency);
  }

  public static Money zero(String currency) {
    return new Money(BigDecimal.ZERO, currency);
  }

  public Money plus(Money other) {
    return new Money(amount.add(same(other).amount), currency);
  }

  public Money minus(Money other) {
    return new Money(amount.subtract(same(other).amount), currency);
  }

  public Money times(BigDecimal factor) {
    return new Money(amount.multiply(factor), currency);
  }

  public Money times(long factor) {
    return times(BigDecimal.valueOf(factor));
  }

  /** Division keeps 10 decimal places: enough for any per-unit price, exact to the cent once rounded. */
  public Money dividedBy(BigDecimal divisor) {
    return new Money(amount.divide(divisor, 10, RoundingMode.HALF_UP), currency);
  }

  /** Rounded half-up to at most {@code scale} decimals: how a unit price is shown (0.0123, not 0.012345678). */
  public Money round(int scale) {
    return amount.scale() <= scale ? this : new Money(amount.setScale(scale, RoundingMode.HALF_UP), currency);
  }

  public Money cents() {
    return new Money(amount.setScale(2, RoundingMode.HALF_UP), currency);
  }

  public boolean isPositive() {
    return amount.signum() > 0;
  }

  public double toDouble() {
    return amount.doubleValue();
  }

  private Money same(Money other) {
    if (!currency.equals(other.currency)) {
      throw new IllegalArgumentException("cannot mix " + currency + " and " + other.currency + " without an FX rate");
    }
    return other;
  }

  @Override
  public int compareTo(Money o) {
    return amount.compareTo(same(o).amount);
  }

  /** Equal when the same currency and numerically equal (1.5 == 1.50). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Money m && currency.equals(m.currency) && amount.compareTo(m.amount) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(amount.stripTrailingZeros(), currency);
  }

  /** Plain decimal without trailing zeros beyond the cents, e.g. {@code 1500.00 CNY}, {@code 0.0123 USD}. */
  @Override
  public String toString() {
    return plain() + " " + currency;
  }

  public String plain() {
    BigDecimal a = amount.scale() < 2 ? amount.setScale(2) : amount.stripTrailingZeros();
    if (a.scale() < 2) a = a.setScale(2);
    return a.toPlainString();
  }
}
