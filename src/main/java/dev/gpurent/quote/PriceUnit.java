package dev.gpurent.quote;

import java.math.BigDecimal;
import java.util.Locale;

/** The period a quoted price covers. A month is 730 hours, the convention of AWS, GCP and Azure. */
public enum PriceUnit {
  HOUR("hour", BigDecimal.ONE),
  MONTH("month", BigDecimal.valueOf(730)),
  YEAR("year", BigDecimal.valueOf(8760));

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
