package dev.gpurent.service.ranking;

import dev.gpurent.service.Failures;
import dev.gpurent.service.RankingSettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The memory budget's arithmetic: live scenarios up to three quarters, one-off rankings in the rest, weights given back. */
class RankingBudgetTest {

  static final long MIB = 1024 * 1024;

  @Test
  void live_scenarios_take_at_most_three_quarters_then_429() {
    RankingBudget b = new RankingBudget(8 * MIB);
    assertNull(b.admitLive(4 * MIB));
    assertNull(b.admitLive(2 * MIB));
    Failures.Refused r = b.admitLive(1);
    assertEquals(429, r.status());
    assertEquals("live scenarios hold 6.0 MiB of their 6.0 MiB share of the 8.0 MiB ranking budget (ranking.memoryBudget) and this"
        + " one needs 0.0 MiB (workloads x vendors); delete a live scenario, or rank it once with POST /api/rank", r.getMessage());
    // the quarter left is the one-off rankings'
    assertNull(b.admitOneOff(2 * MIB));
    assertEquals(503, b.admitOneOff(1).status());
    b.releaseOneOff(2 * MIB);
    b.releaseLive(4 * MIB);
    assertEquals(2 * MIB, b.live());
    assertEquals(0, b.oneOff());
    assertNull(b.admitLive(4 * MIB));
  }

  @Test
  void a_live_scenario_within_its_share_waits_while_one_off_rankings_hold_the_rest() {
    RankingBudget b = new RankingBudget(8 * MIB);
    assertNull(b.admitOneOff(7 * MIB));
    Failures.Refused r = b.admitLive(2 * MIB);
    assertEquals(503, r.status());
    assertEquals("busy: rankings under way and live scenarios hold 7.0 MiB of the 8.0 MiB ranking budget (ranking.memoryBudget) and"
        + " this ranking needs 2.0 MiB (workloads x vendors); try again shortly, or with fewer workloads", r.getMessage());
    assertEquals(0, b.live());
  }

  @Test
  void the_budget_defaults_to_256_mib_and_takes_large_figures_as_text() {
    assertEquals(256 * MIB, RankingSettings.DEFAULTS.memoryBudget());
    assertEquals(3L * 1024 * MIB, RankingSettings.from(new JsonObject().put("memoryBudget", "3221225472")).memoryBudget());
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> RankingSettings.from(new JsonObject().put("memoryBudget", 0)));
    assertEquals("ranking.memoryBudget: must be a whole number of bytes >= 1, got 0", e.getMessage());
  }
}
