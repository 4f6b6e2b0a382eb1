package dev.gpurent.cost;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * What scanning one vendor gave the live scenarios that scan alike, made once and shared: live
 * scenarios are mostly copies of a few kinds (one per customer quote, per what-if) that differ in
 * their data, not their workloads, and a vendor's picks rest on the workloads, the filters, the
 * horizon and currency alone, never on storage, bandwidth or migration. Keyed by the vendor's book
 * entry, FX and spot rates by identity (a new book shares only what did not move) and by the
 * scenario's scanned part by value. Values are held weakly: a memo entry lives while some live
 * ranking keeps its result, so the memo costs no more than its keys. Thread-safe.
 */
final class ScanMemo {

  /** A bound for a pathological number of distinct keys alive at once; entries go long before, with their rankings. */
  private static final int MAX_ENTRIES = 500_000;

  private final Cache<Key, Scanned> cache = Caffeine.newBuilder().weakValues().maximumSize(MAX_ENTRIES).build();

  /**
   * One vendor's scan for a scenario's workloads: the quotes its filters left out by rule, per
   * workload the winners and the offer skipped for want of stock (null where none), why a workload
   * found no offer there (null when each did), and the billing modes of each winning offer (null
   * unless every workload has one), the GPU half of the vendor's plan once a plan has been built
   * from them, each winner's placement as a mixed plan shows it, once one has, and the vendor's
   * whole result when a workload found no offer there (then nothing of the scenario's own is in
   * it); those three are null for a scan no other scenario shares. Shared: never modified but for
   * those, each set once.
   */
  record Scanned(Map<String, Integer> excluded, Picks[] picks, Pick[] sold, boolean anySold, Ranking.Unavailable missing,
                 List<List<Quote>> modes, AtomicReference<PlanBuilder.GpuPart> gpu, AtomicReferenceArray<Placement> mixed,
                 AtomicReference<VendorResult> uncarried) {}

  /** A live scenario's key in the memo: its scanned part and that part's hash, worked out once. */
  record Part(Scenario scanned, int hash) {}

  /** Equal scanned parts, one copy: the scenarios of one kind then meet in the memo by identity. */
  private static final Cache<Scenario, Part> PARTS = Caffeine.newBuilder().weakValues().build();

  /** The key of {@code s}: all it is priced by but its name and its data (storage, egress, load balancers, migration). */
  static Part part(Scenario s) {
    Scenario scanned = new Scenario("", s.currency(), s.horizonMonths(), s.headroom(), s.workloads(), 0, 0, 1, 0, Optional.empty(),
        s.constraints());
    return PARTS.get(scanned, k -> new Part(k, k.hashCode()));
  }

  /** {@code e}'s scan for a scenario whose key is {@code part} on {@code book}, made by {@code scan} when no one made it yet. */
  Scanned get(QuoteBook book, QuoteBook.Entry e, Part part, Supplier<Scanned> scan) {
    return cache.get(new Key(e, book.fx(), book.spotRisk().orElse(null), part.scanned(), part.hash()), k -> scan.get());
  }

  private static final class Key {
    private final QuoteBook.Entry entry;
    private final Object fx, spot;
    private final Scenario part;
    private final int hash;

    Key(QuoteBook.Entry entry, Object fx, Object spot, Scenario part, int partHash) {
      this.entry = entry;
      this.fx = fx;
      this.spot = spot;
      this.part = part;
      this.hash = (System.identityHashCode(entry) * 31 + System.identityHashCode(fx)) * 31 + partHash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.entry == entry && k.fx == fx && k.spot == spot && k.hash == hash
          && (k.part == part || k.part.equals(part));
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
