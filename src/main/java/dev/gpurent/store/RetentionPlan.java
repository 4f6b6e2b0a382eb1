package dev.gpurent.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which snapshots a {@link Retention} policy drops as of a given instant, and why: worked out from
 * what the store holds, with no database and no clock, so that the policy can be read and tested
 * on fixed dates. The store deletes what a plan names, in {@link #batches}.
 *
 * @param examined snapshots looked at
 * @param doomed   those to delete, oldest first
 */
record RetentionPlan(int examined, List<Doomed> doomed) {

  /**
   * A snapshot as retention sees it.
   *
   * @param rows     its quote rows (what deleting it costs)
   * @param complete false for one whose writer never finished; readers never see those
   */
  record Stored(long id, Instant takenAt, long rows, boolean complete) {}

  /** Why a snapshot goes. */
  enum Why {
    /** Never completed: no reader can see it, so nothing is lost. */
    UNFINISHED,
    /** Past the daily window, and a later snapshot of the same ISO week is kept instead. */
    NOT_LAST_OF_WEEK,
    /** Past the daily window with no weekly keeping, or past {@code maxDays}. */
    EXPIRED
  }

  record Doomed(long id, long rows, Why why) {}

  RetentionPlan {
    doomed = List.copyOf(doomed);
  }

  /**
   * The plan for {@code stored} (in any order) under {@code policy} as of {@code now}. The newest
   * complete snapshot is always kept, however old, so that the store is never left empty.
   */
  static RetentionPlan of(Retention policy, List<Stored> stored, Instant now) {
    List<Stored> oldestFirst = new ArrayList<>(stored);
    oldestFirst.sort(Comparator.comparing(Stored::takenAt).thenComparingLong(Stored::id));
    Map<String, Long> lastOfWeek = new HashMap<>();
    Long newest = null;
    for (Stored s : oldestFirst) {
      if (!s.complete()) continue;
      lastOfWeek.put(policy.week(s.takenAt()), s.id()); // oldest first: the last one put wins
      newest = s.id();
    }
    List<Doomed> doomed = new ArrayList<>();
    for (Stored s : oldestFirst) {
      if (newest != null && s.id() == newest) continue;
      Why why = !s.complete() ? Why.UNFINISHED : switch (policy.band(s.takenAt(), now)) {
        case DAILY -> null;
        case WEEKLY -> lastOfWeek.get(policy.week(s.takenAt())) == s.id() ? null : Why.NOT_LAST_OF_WEEK;
        case EXPIRED -> Why.EXPIRED;
      };
      if (why != null) doomed.add(new Doomed(s.id(), s.rows(), why));
    }
    return new RetentionPlan(oldestFirst.size(), doomed);
  }

  /**
   * The doomed cut into transactions, in order: each of at most {@code maxSnapshots} snapshots and
   * at most {@code maxRows} quote rows, except that a batch always takes at least one snapshot (a
   * snapshot bigger than {@code maxRows} is a batch of its own). Bounded transactions keep the
   * database's write lock and undo log small, and let other store work run between them.
   */
  List<List<Doomed>> batches(int maxSnapshots, long maxRows) {
    List<List<Doomed>> out = new ArrayList<>();
    int from = 0;
    while (from < doomed.size()) {
      int to = from;
      long rows = 0;
      while (to < doomed.size() && to - from < maxSnapshots && (to == from || rows + doomed.get(to).rows() <= maxRows)) {
        rows += doomed.get(to).rows();
        to++;
      }
      out.add(doomed.subList(from, to));
      from = to;
    }
    return out;
  }
}
