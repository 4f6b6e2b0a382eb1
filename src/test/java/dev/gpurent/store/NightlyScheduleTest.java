package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.MutableClock;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nightly schedule's arithmetic, with a clock moved by hand: across midnight and DST changes, no sleeping. */
class NightlyScheduleTest {

  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  static Instant at(String iso) {
    return Instant.parse(iso);
  }

  @Test
  void is_due_later_today_or_tomorrow_across_midnight() {
    NightlySchedule s = new NightlySchedule(LocalTime.of(2, 30), SHANGHAI);
    // 02:00 on March 2nd in Shanghai is still March 1st in UTC
    assertEquals(at("2026-03-01T18:30:00Z"), s.next(at("2026-03-01T18:00:00Z")));
    assertEquals("2026-03-02", s.slotOf(s.next(at("2026-03-01T18:00:00Z"))));
    // exactly at the due time, the next one is tomorrow's
    assertEquals(at("2026-03-02T18:30:00Z"), s.next(at("2026-03-01T18:30:00Z")));
    assertEquals(at("2026-03-01T18:30:00Z"), s.previous(at("2026-03-01T18:30:00Z")));
    assertEquals(at("2026-02-28T18:30:00Z"), s.previous(at("2026-03-01T18:29:59Z")));

    NightlySchedule quarterPast = new NightlySchedule(LocalTime.of(0, 15), SHANGHAI);
    Instant lateEvening = at("2026-03-01T15:50:00Z"); // 23:50 in Shanghai
    Instant due = quarterPast.next(lateEvening);
    assertEquals(at("2026-03-01T16:15:00Z"), due);
    assertEquals(Duration.ofMinutes(25), Duration.between(lateEvening, due));
    assertEquals("2026-03-02", quarterPast.slotOf(due), "the local date, not UTC's");
  }

  @Test
  void a_spring_forward_day_is_23_hours_and_a_missing_time_is_due_when_the_clocks_jump() {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist that night
    NightlySchedule s = new NightlySchedule(LocalTime.of(2, 30), BERLIN);
    Instant before = at("2026-03-28T01:30:00Z"); // 02:30 CET on the 28th
    Instant jump = s.next(before);
    assertEquals(at("2026-03-29T01:00:00Z"), jump, "03:00 CEST, the first valid instant after 02:30");
    assertEquals("2026-03-29", s.slotOf(jump));
    assertEquals(at("2026-03-30T00:30:00Z"), s.next(jump), "02:30 CEST again the day after");

    NightlySchedule half3 = new NightlySchedule(LocalTime.of(3, 30), BERLIN);
    Instant d28 = half3.next(at("2026-03-28T00:00:00Z"));
    Instant d29 = half3.next(d28);
    assertEquals(Duration.ofHours(23), Duration.between(d28, d29));
    assertEquals(Duration.ofHours(24), Duration.between(d29, half3.next(d29)));

    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT
    NightlySchedule ny = new NightlySchedule(LocalTime.of(2, 30), NEW_YORK);
    assertEquals(at("2026-03-08T07:00:00Z"), ny.next(at("2026-03-07T07:30:00Z")));
    assertEquals(Duration.ofMinutes(23 * 60 + 30), Duration.between(at("2026-03-07T07:30:00Z"), ny.next(at("2026-03-07T07:30:00Z"))));
  }

  @Test
  void a_fall_back_day_is_25_hours_and_a_repeated_time_is_due_once() {
    // Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice
    NightlySchedule s = new NightlySchedule(LocalTime.of(2, 30), BERLIN);
    Instant first = s.next(at("2026-10-24T00:30:00Z"));
    assertEquals(at("2026-10-25T00:30:00Z"), first, "the first 02:30 (CEST)");
    Instant next = s.next(first);
    assertEquals(at("2026-10-26T01:30:00Z"), next, "not the second 02:30 (CET) an hour later");
    assertEquals(Duration.ofHours(25), Duration.between(first, next));
    assertEquals("2026-10-25", s.slotOf(first));
    assertEquals(first, s.previous(at("2026-10-25T01:45:00Z")), "during the repeated hour the last due time is the first 02:30");

    NightlySchedule ny = new NightlySchedule(LocalTime.of(1, 30), NEW_YORK);
    Instant nyFirst = ny.next(at("2026-11-01T00:00:00Z"));
    assertEquals(at("2026-11-01T05:30:00Z"), nyFirst, "01:30 EDT");
    assertEquals(Duration.ofHours(25), Duration.between(nyFirst, ny.next(nyFirst)));
  }

  /** A year of nights with the clock moved to each due time: one slot per local date, none skipped or repeated. */
  @Test
  void steps_through_a_year_of_nights_with_one_slot_per_local_date() {
    for (ZoneId zone : List.of(BERLIN, NEW_YORK, SHANGHAI)) {
      NightlySchedule s = new NightlySchedule(LocalTime.of(2, 30), zone);
      MutableClock clock = new MutableClock(at("2025-12-31T12:00:00Z"));
      List<String> slots = new ArrayList<>();
      List<Long> hours = new ArrayList<>();
      Instant last = null;
      for (int i = 0; i < 365; i++) {
        Instant due = s.next(clock.instant());
        clock.advance(Duration.between(clock.instant(), due));
        slots.add(s.slotOf(clock.instant()));
        ZonedDateTime local = clock.instant().atZone(zone);
        assertTrue(local.toLocalTime().equals(LocalTime.of(2, 30)) || local.toLocalTime().equals(LocalTime.of(3, 0)), local.toString());
        if (last != null) hours.add(Duration.between(last, due).toMinutes());
        last = due;
      }
      LocalDate d = LocalDate.parse(slots.get(0));
      for (String slot : slots) {
        assertEquals(d.toString(), slot, zone.toString());
        d = d.plusDays(1);
      }
      long shortDays = hours.stream().filter(m -> m < 24 * 60).count();
      long longDays = hours.stream().filter(m -> m > 24 * 60).count();
      assertEquals(zone.equals(SHANGHAI) ? 0 : 2, shortDays, zone + ": the jump to 03:00 and the day after");
      assertEquals(zone.equals(SHANGHAI) ? 0 : 1, longDays, zone.toString());
    }
  }

  @Test
  void reads_its_config_and_refuses_nonsense() {
    NightlySchedule s = NightlySchedule.from(new JsonObject().put("at", "03:15").put("zone", "Europe/Berlin"));
    assertEquals(LocalTime.of(3, 15), s.at());
    assertEquals(BERLIN, s.zone());
    NightlySchedule d = NightlySchedule.from(null);
    assertEquals(LocalTime.of(2, 30), d.at());
    assertEquals(SHANGHAI, d.zone());
    assertEquals("snapshot.at: expected a local time like 02:30, got '25:00'",
        assertThrows(IllegalArgumentException.class, () -> NightlySchedule.from(new JsonObject().put("at", "25:00"))).getMessage());
    assertEquals("snapshot.zone: unknown time zone 'Mars/Olympus' (use a region id like Asia/Shanghai)",
        assertThrows(IllegalArgumentException.class, () -> NightlySchedule.from(new JsonObject().put("zone", "Mars/Olympus"))).getMessage());
  }
}
