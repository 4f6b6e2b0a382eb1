package dev.gpurent.service.ranking;

import dev.gpurent.service.Failures;

import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.QuoteBook;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The node's memory budget for rankings ({@code ranking.memoryBudget}, bytes) and what holds it:
 * each live scenario for as long as it lives, each one-off ranking from its admission until it is
 * answered. A ranking is weighed before anything is computed, so that a refusal costs nothing.
 *
 * <p>The weight is what the ranking will hold, by its shape: a ranking bills every workload at
 * every vendor it may use, so its size is proportional to workloads x vendors (the vendors of the
 * book its constraints admit). Measured on the recorded sample root (39 vendors): its ranking JSON
 * is about 1.2 KB a workload and vendor whatever the workload (1 workload 68-76 KB, 10 workloads
 * 497 KB, 50 workloads 2.4-2.8 MB), and a live scenario of 50 workloads holds 10.2 MB of heap once
 * ranked and published (its incremental ranking, its message), 5.2 KB a workload and vendor: with
 * its REST body as a client fetches it, {@link #LIVE_BYTES_PER_CELL}. A one-off ranking holds its
 * ranking, its JSON text and, while it is rendered in the client's language, that text decoded
 * twice: {@link #ONE_OFF_BYTES_PER_CELL}, about four times as much while it lasts.
 *
 * <p>Live scenarios may hold at most three quarters of the budget, so that one-off rankings always
 * have a quarter. A live scenario refused because live scenarios hold their share is a 429 (delete
 * one first); any ranking refused because one-off rankings hold the rest for now is a 503 (try
 * again shortly). Used on the RankingVerticle's event loop only.
 */
public final class RankingBudget {

  /** Bytes a live scenario holds per workload and vendor (see above). */
  public static final long LIVE_BYTES_PER_CELL = 6 * 1024;
  /** Bytes a one-off ranking holds per workload and vendor until it is answered (see above). */
  static final long ONE_OFF_BYTES_PER_CELL = 24 * 1024;

  private final long total;
  private final long liveShare;
  private long live;
  private long oneOff;

  RankingBudget(long total) {
    this.total = total;
    this.liveShare = total - total / 4;
  }

  /** The workloads x vendors of a ranking of {@code s} on {@code book}: the vendors its constraints admit, at least one. */
  static long cells(Scenario s, QuoteBook book) {
    Set<String> vendors = new HashSet<>();
    if (book != null) {
      vendors.addAll(book.vendors().keySet());
      vendors.addAll(book.unavailable().keySet());
    }
    long admitted = vendors.stream().filter(v -> s.constraints().vendors().admits(v)).count();
    return (long) s.workloads().size() * Math.max(1, admitted);
  }

  /** Charges a live scenario of {@code weight} bytes; null when it fits, else why not (nothing is then held). */
  Failures.Refused admitLive(long weight) {
    if (live + weight > liveShare) {
      return new Failures.Refused(429, "live scenarios hold " + mib(live) + " of their " + mib(liveShare) + " share of the "
          + mib(total) + " ranking budget (ranking.memoryBudget) and this one needs " + mib(weight)
          + " (workloads x vendors); delete a live scenario, or rank it once with POST /api/rank");
    }
    Failures.Refused busy = busy(weight);
    if (busy != null) return busy;
    live += weight;
    return null;
  }

  /** Charges a one-off ranking of {@code weight} bytes until {@link #releaseOneOff}; null when it fits, else why not. */
  Failures.Refused admitOneOff(long weight) {
    Failures.Refused busy = busy(weight);
    if (busy != null) return busy;
    oneOff += weight;
    return null;
  }

  void releaseLive(long weight) {
    live -= weight;
  }

  void releaseOneOff(long weight) {
    oneOff -= weight;
  }

  /** Bytes the live scenarios hold. */
  long live() {
    return live;
  }

  /** Bytes the one-off rankings under way hold. */
  long oneOff() {
    return oneOff;
  }

  long total() {
    return total;
  }

  private Failures.Refused busy(long weight) {
    if (live + oneOff + weight <= total) return null;
    return new Failures.Refused(503, "busy: rankings under way and live scenarios hold " + mib(live + oneOff) + " of the "
        + mib(total) + " ranking budget (ranking.memoryBudget) and this ranking needs " + mib(weight)
        + " (workloads x vendors); try again shortly, or with fewer workloads");
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }
}
