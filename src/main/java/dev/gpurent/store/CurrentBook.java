package dev.gpurent.store;

import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a snapshot stores of a book. A vendor's quotes are current when they are fresh, or stale
 * but fetched after the previous snapshot was taken (newer than anything stored). Every other
 * vendor (stale and no newer than the previous snapshot, expired, or with no quotes yet, as right
 * after a reload) is carried from the previous snapshot, and said so; one that is in neither is
 * left out and listed. A snapshot taken while vendors are still being fetched is then neither
 * short of quotes nor passes old ones off as new.
 *
 * @param book        what to write
 * @param carriedFrom vendors whose quotes come from the previous snapshot, with its id
 * @param left        vendors in neither: not current, and not in the previous snapshot
 */
public record CurrentBook(QuoteBook book, Map<String, Long> carriedFrom, List<String> left) {

  public static CurrentBook of(QuoteBook live, Optional<LatestSnapshot> previous) {
    Map<String, QuoteBook.Entry> entries = new LinkedHashMap<>();
    Map<String, String> unavailable = new LinkedHashMap<>(live.unavailable());
    Map<String, Long> carried = new LinkedHashMap<>();
    List<String> left = new java.util.ArrayList<>();
    for (QuoteBook.Entry e : live.vendors().values()) {
      String id = e.quotes().vendor();
      if (current(e, previous)) {
        entries.put(id, e);
      } else if (!carry(id, e.freshness(), previous, entries, carried)) {
        unavailable.put(id, "prices " + e.freshness() + ": not current, and not in the previous snapshot");
        left.add(id);
      }
    }
    for (String id : live.unavailable().keySet()) {
      if (carry(id, new Freshness(Freshness.State.STALE, java.time.Duration.ZERO), previous, entries, carried)) unavailable.remove(id);
      else left.add(id);
    }
    return new CurrentBook(new QuoteBook(entries, unavailable, live.fx(), live.spotRisk().orElse(null), live.builtAt()),
        Map.copyOf(carried), List.copyOf(left));
  }

  private static boolean current(QuoteBook.Entry e, Optional<LatestSnapshot> previous) {
    Freshness.State state = e.freshness().state();
    if (state == Freshness.State.FRESH) return true;
    if (state != Freshness.State.STALE) return false;
    java.time.Instant fetched = e.quotes().fetchedAt();
    return previous.map(p -> !p.vendors().containsKey(e.quotes().vendor()) || (fetched != null && fetched.isAfter(p.takenAt())))
        .orElse(true);
  }

  private static boolean carry(String id, Freshness now, Optional<LatestSnapshot> previous, Map<String, QuoteBook.Entry> entries,
                               Map<String, Long> carried) {
    VendorQuotes kept = previous.map(p -> p.vendors().get(id)).orElse(null);
    if (kept == null) return false;
    entries.put(id, new QuoteBook.Entry(kept, now));
    carried.put(id, previous.get().id());
    return true;
  }
}
