package dev.gpurent.store;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.IsoFields;

/**
 * Which snapshots to keep ({@code store.retention}): every snapshot younger than
 * {@code keepDailyDays}; then, up to {@code maxDays}, only the latest of each ISO week (weeks in
 * {@code zone}, the schedule's zone) when {@code keepWeeklyAfter}, else none; past {@code maxDays}
 * none. {@code maxDays} 0 keeps the weekly ones for ever.
 */
public record Retention(int keepDailyDays, boolean keepWeeklyAfter, int maxDays, ZoneId zone) {

  public Retention {
    if (keepDailyDays < 0) throw new IllegalArgumentException("store.retention.keepDailyDays must be >= 0, was " + keepDailyDays);
    if (maxDays < 0) throw new IllegalArgumentException("store.retention.maxDays must be >= 0, was " + maxDays);
    if (maxDays > 0 && maxDays < keepDailyDays) {
      throw new IllegalArgumentException("store.retention.maxDays (" + maxDays + ") must be >= keepDailyDays (" + keepDailyDays + ")");
    }
  }

  public static Retention defaults(ZoneId zone) {
    return from(null, zone);
  }

  public static Retention from(JsonObject r, ZoneId zone) {
    ConfigSchema.Section o = ConfigSchema.section("store.retention", PlainValues.map(r));
    return new Retention(o.whole("keepDailyDays"), o.flag("keepWeeklyAfter"), o.whole("maxDays"), zone);
  }

  /** Where a snapshot taken at {@code at} stands as of {@code now}. */
  enum Band { DAILY, WEEKLY, EXPIRED }

  Band band(Instant at, Instant now) {
    Duration age = Duration.between(at, now);
    if (age.compareTo(Duration.ofDays(keepDailyDays)) <= 0) return Band.DAILY;
    if (maxDays > 0 && age.compareTo(Duration.ofDays(maxDays)) > 0) return Band.EXPIRED;
    return keepWeeklyAfter ? Band.WEEKLY : Band.EXPIRED;
  }

  /** The ISO week (in {@link #zone}) a snapshot falls in, e.g. "2026-W09". */
  String week(Instant at) {
    LocalDate d = at.atZone(zone).toLocalDate();
    return d.get(IsoFields.WEEK_BASED_YEAR) + "-W" + String.format("%02d", d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
  }
}
