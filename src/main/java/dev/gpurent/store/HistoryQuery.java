package dev.gpurent.store;

import dev.gpurent.quote.Billing;
import java.time.Instant;

/**
 * Which prices a history holds; null fields do not filter.
 *
 * @param gpu     canonical GPU id
 * @param vendor  vendor id
 * @param billing billing mode
 * @param from    first snapshot time included
 * @param to      snapshots taken at or after this are excluded
 */
public record HistoryQuery(String gpu, String vendor, Billing billing, Instant from, Instant to) {

  /** Past this many points a query is refused: narrow it by GPU, vendor, billing mode or dates. */
  public static final int MAX_POINTS = 500_000;

  public static HistoryQuery all() {
    return new HistoryQuery(null, null, null, null, null);
  }

  public HistoryQuery {
    if (from != null && to != null && !from.isBefore(to)) {
      throw new IllegalArgumentException("history: 'from' (" + from + ") must be before 'to' (" + to + ")");
    }
  }
}
