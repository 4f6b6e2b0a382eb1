package dev.gpurent.quote;

import java.math.BigDecimal;
import java.util.Locale;

/** The period a quoted price covers. A month is 730 hours ({@link #HOURS_PER_MONTH}). */
public enum PriceUnit {
  HOUR("hour", BigDecimal.ONE),
  MONTH("month", BigDecimal.valueOf(730)),
  YEAR("year", BigDecimal.valueOf(8760));

  /**
   * The one hour count of a month of round-the-clock use, in every billing mode: 730 = 8760 / 12,
   * what AWS, Azure and GCP price monthly estimates at. Not 720 (30 x 24): a yearly term is 8760
   * hours and its twelfth must be the month a monthly price and an on-demand month are compared
   * at, or a commitment would look 1.4% dearer than the same hours on demand.
   */
  public static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);

  private final String wire;
  private final BigDecimal hours;
  private final double hoursValue;

  PriceUnit(String wire, BigDecimal hours) {
    this.wire = wire;
    this.hours = hours;
    this.hoursValue = hours.doubleValue();
  }

  /** {@link #hours()} as a double, for comparing offers on the hot path. */
  public double hoursValue() {
    return hoursValue;
  }

  public String wire() {
    return wire;
  }

  /** Hours the unit spans. */
  public BigDecimal hours() {
    return hours;
  }

  public static PriceUnit parse(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "hour", "hr", "hrs", "h" -> HOUR;
      case "month", "mo" -> MONTH;
      case "year", "yr" -> YEAR;
      default -> throw new IllegalArgumentException("unknown price unit '" + s + "'; known: hour, month, year");
    };
  }

  @Override
  public String toString() {
    return wire;
  }
}
