package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A kept plan's age, worked out without a Duration, is exactly Duration's: before and after, near the limit and across days. */
class LiveRankingAgeTest {

  @Test
  void ages_agree_with_duration_to_the_nanosecond() {
    Random r = new Random(20261203);
    Duration max = Duration.ofDays(30);
    int near = 0;
    for (int i = 0; i < 200_000; i++) {
      Instant from = Instant.ofEpochSecond(1_700_000_000L + r.nextInt(100_000_000), r.nextInt(1_000_000_000));
      // half of them within a second of the limit or of a whole day, the rest anywhere within two years, before or after
      long offset = r.nextBoolean() ? max.getSeconds() + (r.nextBoolean() ? 0 : 86_400L * r.nextInt(40)) + r.nextInt(3) - 1
          : (long) r.nextInt(63_000_000) - 1_000_000;
      Instant to = from.plusSeconds(offset).plusNanos(r.nextInt(2_000_000_000) - 1_000_000_000L);
      Duration d = Duration.between(from, to);
      assertEquals(d.compareTo(max) > 0, LiveRanking.olderThan(from, to, max), from + " -> " + to);
      assertEquals(d.toDays(), LiveRanking.days(from, to), from + " -> " + to);
      if (Math.abs(d.minus(max).toMillis()) < 1000) near++;
    }
    assertEquals(true, near > 1000, near + " cases within a second of the limit");
  }
}
