package dev.gpurent.store;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.VendorQuotes;
import java.time.Instant;
import java.util.Map;

/**
 * The newest snapshot of fetched quotes, rebuilt per vendor: what a restarted service can serve,
 * flagged stale, until its first refresh.
 *
 * @param vendors each vendor's quotes (with terms, display name and note) keyed by vendor id, in id order;
 *                vendors that were unavailable when it was taken are absent
 */
public record LatestSnapshot(long id, String slot, Instant takenAt, Map<String, VendorQuotes> vendors, FxRates fx) {

  public LatestSnapshot {
    vendors = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(vendors));
  }
}
