package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.store.RetentionPlan.Doomed;
import dev.gpurent.store.RetentionPlan.Stored;
import dev.gpurent.store.RetentionPlan.Why;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The retention policy on fixed dates, with no database: keep every snapshot of the last
 * {@code keepDailyDays}, then the last of each ISO week of the zone until {@code maxDays}, never
 * the newest complete one, never an unfinished one.
 */
class RetentionPlanTest {

  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  /** A Monday, 08:00 in Shanghai. */
  static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  /** 7 days of every snapshot, then weekly up to 28 days. */
  static final Retention POLICY = new Retention(7, true, 28, SHANGHAI);

  static Stored done(long id, String at) {
    return new Stored(id, Instant.parse(at), 100 + id, true);
  }

  static Stored unfinished(long id, String at) {
    return new Stored(id, Instant.parse(at), 0, false);
  }

  static Map<Long, Why> why(RetentionPlan plan) {
    Map<Long, Why> out = new LinkedHashMap<>();
    for (Doomed d : plan.doomed()) out.put(d.id(), d.why());
    return out;
  }

  @Test
  void keeps_the_daily_window_whole_then_the_last_of_each_week_until_max_days() {
    List<Stored> stored = List.of(
        done(10, "2026-05-03T12:00:00Z"),  // 28.5 days old: past maxDays
        done(11, "2026-05-05T12:00:00Z"),  // week 19, and 12 is later in it
        done(12, "2026-05-08T12:00:00Z"),  // week 19's last
        done(15, "2026-05-24T15:59:00Z"),  // Sunday 23:59 in Shanghai: week 21's last, 7 days 8 h old
        done(20, "2026-05-24T16:30:00Z"),  // Monday 00:30 in Shanghai: week 22, where 16 (daily) is later
        done(16, "2026-05-25T00:00:00Z"),  // exactly 7 days old: still daily
        unfinished(18, "2026-05-30T00:00:00Z"),
        done(17, "2026-05-31T18:30:00Z")); // the newest
    RetentionPlan plan = RetentionPlan.of(POLICY, stored, NOW);
    assertEquals(8, plan.examined());
    assertEquals(Map.of(10L, Why.EXPIRED, 11L, Why.NOT_LAST_OF_WEEK, 20L, Why.NOT_LAST_OF_WEEK, 18L, Why.UNFINISHED), why(plan));
    assertEquals(List.of(10L, 11L, 20L, 18L), plan.doomed().stream().map(Doomed::id).toList(), "oldest first");
    assertEquals(List.of(110L, 111L, 120L, 0L), plan.doomed().stream().map(Doomed::rows).toList());
  }

  @Test
  void weeks_are_the_zones_not_utcs() {
    // both on Sunday 17 May in UTC; in Shanghai 13 ends week 20 and 14 opens week 21
    List<Stored> stored = List.of(done(13, "2026-05-17T15:00:00Z"), done(14, "2026-05-17T17:00:00Z"), done(30, "2026-05-31T18:30:00Z"));
    assertEquals(Map.of(), why(RetentionPlan.of(POLICY, stored, NOW)));
    assertEquals(Map.of(13L, Why.NOT_LAST_OF_WEEK),
        why(RetentionPlan.of(new Retention(7, true, 28, ZoneOffset.UTC), stored, NOW)));
  }

  @Test
  void never_drops_the_newest_complete_snapshot_however_old_but_drops_an_unfinished_one_after_it() {
    List<Stored> stored = List.of(done(1, "2024-01-01T00:00:00Z"), done(2, "2024-01-02T00:00:00Z"),
        unfinished(3, "2024-01-03T00:00:00Z"));
    RetentionPlan plan = RetentionPlan.of(POLICY, stored, NOW);
    assertEquals(Map.of(1L, Why.EXPIRED, 3L, Why.UNFINISHED), why(plan));
    assertEquals(Map.of(4L, Why.UNFINISHED), why(RetentionPlan.of(POLICY, List.of(unfinished(4, "2026-05-31T00:00:00Z")), NOW)),
        "no complete snapshot: nothing to keep");
    assertEquals(new RetentionPlan(0, List.of()), RetentionPlan.of(POLICY, List.of(), NOW));
  }

  @Test
  void without_weekly_keeping_all_past_the_daily_window_expires_and_max_days_0_keeps_weeks_for_ever() {
    List<Stored> stored = List.of(done(1, "2020-01-05T12:00:00Z"), done(2, "2026-05-08T12:00:00Z"), done(3, "2026-05-12T12:00:00Z"),
        done(4, "2026-05-31T18:30:00Z"));
    assertEquals(Map.of(1L, Why.EXPIRED, 2L, Why.EXPIRED, 3L, Why.EXPIRED),
        why(RetentionPlan.of(new Retention(7, false, 28, SHANGHAI), stored, NOW)));
    assertEquals(Map.of(), why(RetentionPlan.of(new Retention(7, true, 0, SHANGHAI), stored, NOW)),
        "each is the last of its week, and no age expires");
    assertEquals(Map.of(1L, Why.EXPIRED), why(RetentionPlan.of(POLICY, stored, NOW)));
  }

  @Test
  void gives_the_same_plan_whatever_order_the_snapshots_come_in_with_ties_broken_by_id() {
    List<Stored> stored = new ArrayList<>(List.of(
        done(10, "2026-05-03T12:00:00Z"), done(11, "2026-05-05T12:00:00Z"), done(12, "2026-05-08T12:00:00Z"),
        done(13, "2026-05-08T12:00:00Z"), // the same instant as 12: the higher id is the later
        unfinished(18, "2026-05-30T00:00:00Z"), done(17, "2026-05-31T18:30:00Z")));
    RetentionPlan expected = RetentionPlan.of(POLICY, stored, NOW);
    assertEquals(Map.of(10L, Why.EXPIRED, 11L, Why.NOT_LAST_OF_WEEK, 12L, Why.NOT_LAST_OF_WEEK, 18L, Why.UNFINISHED), why(expected));
    Random random = new Random(18);
    for (int i = 0; i < 20; i++) {
      Collections.shuffle(stored, random);
      assertEquals(expected, RetentionPlan.of(POLICY, stored, NOW));
    }
  }

  // ------------------------------------------------------------------ batches

  static RetentionPlan doomedOfRows(long... rows) {
    List<Doomed> doomed = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) doomed.add(new Doomed(i + 1, rows[i], Why.EXPIRED));
    return new RetentionPlan(rows.length, doomed);
  }

  static List<List<Long>> ids(List<List<Doomed>> batches) {
    return batches.stream().map(b -> b.stream().map(Doomed::id).toList()).toList();
  }

  @Test
  void batches_hold_at_most_so_many_snapshots_and_rows_and_at_least_one_snapshot() {
    RetentionPlan plan = doomedOfRows(10, 10, 10, 10, 10);
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L)), ids(plan.batches(2, 1_000)), "by count");
    assertEquals(List.of(List.of(1L, 2L, 3L), List.of(4L, 5L)), ids(plan.batches(500, 30)), "by rows, up to the limit included");
    RetentionPlan big = doomedOfRows(5, 500, 5, 5);
    assertEquals(List.of(List.of(1L), List.of(2L), List.of(3L, 4L)), ids(big.batches(500, 100)),
        "a snapshot past the row limit goes alone, and is not left out");
    assertEquals(List.of(), doomedOfRows().batches(500, 100));
    assertEquals(5, plan.batches(1, 1).size());
  }

  @Test
  void a_plan_cannot_be_changed_after_it_is_made() {
    List<Doomed> doomed = new ArrayList<>(List.of(new Doomed(1, 1, Why.EXPIRED)));
    RetentionPlan plan = new RetentionPlan(1, doomed);
    doomed.clear();
    assertEquals(1, plan.doomed().size());
    assertThrows(UnsupportedOperationException.class, () -> plan.doomed().clear());
  }
}
