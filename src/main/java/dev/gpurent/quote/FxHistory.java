package dev.gpurent.quote;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Daily exchange rates from one feed (the ECB euro reference rates): for each business day, the
 * units of each currency per one unit of {@code base}. Days the feed does not publish (weekends,
 * holidays) are absent; {@link #on(LocalDate)} falls back to the latest earlier day. Immutable.
 *
 * @param base     the currency every rate is quoted against (EUR for the ECB)
 * @param days     rates per day, oldest first; never empty
 * @param feed     what the rates are, e.g. "ECB euro reference rates"
 * @param where    the URL or file they were read from
 * @param rejected entries of the payload that were skipped, with the reason
 */
public record FxHistory(String base, NavigableMap<LocalDate, Map<String, BigDecimal>> days, String feed, String where,
                        List<String> rejected) {

  public FxHistory {
    if (days == null || days.isEmpty()) throw new IllegalArgumentException(feed + " (" + where + "): no day with rates");
    TreeMap<LocalDate, Map<String, BigDecimal>> copy = new TreeMap<>();
    days.forEach((d, rates) -> copy.put(d, Map.copyOf(rates)));
    days = Collections.unmodifiableNavigableMap(copy);
    rejected = List.copyOf(rejected);
  }

  /** The oldest day with rates. */
  public LocalDate firstDay() {
    return days.firstKey();
  }

  /** The newest day with rates. */
  public LocalDate lastDay() {
    return days.lastKey();
  }

  /** The rates of the newest day. */
  public FxRates latest() {
    return rates(days.lastEntry());
  }

  /**
   * The rates in force on {@code date}: that day's, or the latest earlier published day's (so a
   * Saturday gets Friday's rates); empty when {@code date} is before the first day.
   */
  public Optional<FxRates> on(LocalDate date) {
    return Optional.ofNullable(days.floorEntry(date)).map(this::rates);
  }

  private FxRates rates(Map.Entry<LocalDate, Map<String, BigDecimal>> day) {
    // the publisher and the day, as a reader cites them: the file or URL read is the feed's config, not the bill's
    return new FxRates(base, day.getValue(), day.getKey(), feed + " " + day.getKey());
  }
}
