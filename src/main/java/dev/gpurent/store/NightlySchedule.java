package dev.gpurent.store;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.List;

/**
 * When the nightly snapshot is due: a local time of day in a zone ({@code snapshot: {at, zone}}).
 * Pure arithmetic on instants, so it can be tested with any clock: across DST changes a "day" is
 * 23 or 25 hours long. When the time does not exist (the clocks jump over it) the snapshot is due
 * at the first valid instant after, the jump itself; when it happens twice (clocks go back) it is
 * due at the first.
 */
public final class NightlySchedule {

  private final LocalTime at;
  private final ZoneId zone;

  public NightlySchedule(LocalTime at, ZoneId zone) {
    this.at = at;
    this.zone = zone;
  }

  /** From {@code snapshot: {at: "02:30", zone: "Asia/Shanghai"}} (the defaults: {@link ConfigSchema}). */
  public static NightlySchedule from(JsonObject snapshot) {
    ConfigSchema.Section s = ConfigSchema.section("snapshot", PlainValues.map(snapshot));
    String at = s.text("at");
    String zone = s.text("zone");
    LocalTime t;
    try {
      t = LocalTime.parse(at);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("snapshot.at: expected a local time like 02:30, got '" + at + "'");
    }
    try {
      return new NightlySchedule(t, ZoneId.of(zone));
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("snapshot.zone: unknown time zone '" + zone + "' (use a region id like Asia/Shanghai)");
    }
  }

  public LocalTime at() {
    return at;
  }

  public ZoneId zone() {
    return zone;
  }

  /** The instant the snapshot of local date {@code day} is due. */
  public Instant on(LocalDate day) {
    LocalDateTime local = day.atTime(at);
    ZoneRules rules = zone.getRules();
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) return rules.getTransition(local).getInstant(); // in a gap: when the clocks jump
    Instant first = local.toInstant(offsets.get(0));
    for (ZoneOffset o : offsets) {
      Instant i = local.toInstant(o);
      if (i.isBefore(first)) first = i;
    }
    return first;
  }

  /** The first due instant strictly after {@code now}. */
  public Instant next(Instant now) {
    LocalDate day = now.atZone(zone).toLocalDate().minusDays(1);
    for (int i = 0; i < 4; i++) {
      Instant due = on(day.plusDays(i));
      if (due.isAfter(now)) return due;
    }
    throw new IllegalStateException("no due time within two days of " + now + " for " + this);
  }

  /** The last due instant at or before {@code now}. */
  public Instant previous(Instant now) {
    LocalDate day = now.atZone(zone).toLocalDate().plusDays(1);
    for (int i = 0; i < 4; i++) {
      Instant due = on(day.minusDays(i));
      if (!due.isAfter(now)) return due;
    }
    throw new IllegalStateException("no due time within two days of " + now + " for " + this);
  }

  /** The slot key of a snapshot due at {@code due}: its local date in the zone, e.g. "2026-03-01". */
  public String slotOf(Instant due) {
    return due.atZone(zone).toLocalDate().toString();
  }

  @Override
  public String toString() {
    return "every day at " + at + " " + zone;
  }
}
