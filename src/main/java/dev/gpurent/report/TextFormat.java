package dev.gpurent.report;

import dev.gpurent.quote.Money;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How the text outputs write the values a person reads: an instant to the second
 * ({@code 2026-12-01T17:05:41Z}), a quoted price to 4 decimals with its currency. JSON and CSV,
 * which programs read, keep every digit.
 */
public final class TextFormat {

  /** Decimals of a quoted price, as many as a bill's unit prices have: a cheap card's hourly price (0.0431 USD) still shows. */
  static final int PRICE_DECIMALS = 4;

  private TextFormat() {}

  public static String instant(Instant t) {
    return t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  public static String price(Money m) {
    return m.round(PRICE_DECIMALS).toString();
  }
}
