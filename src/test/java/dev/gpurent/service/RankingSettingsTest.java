package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The ranking section's live-scenario settings: the cap and the incremental switch, with their defaults. */
class RankingSettingsTest {

  @Test
  void live_scenarios_default_to_10000_a_node_ranked_incrementally() {
    RankingSettings d = RankingSettings.from(null);
    assertEquals(10_000, d.maxScenarios());
    assertEquals(20, d.maxScenariosPerClient());
    assertTrue(d.incremental());
  }

  @Test
  void the_cap_and_the_mode_come_from_the_config() {
    RankingSettings s = RankingSettings.from(new JsonObject().put("maxScenarios", 250).put("incremental", false));
    assertEquals(250, s.maxScenarios());
    assertFalse(s.incremental());
  }

  @Test
  void an_incremental_that_is_no_boolean_is_refused_naming_the_key() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RankingSettings.from(new JsonObject().put("incremental", "sometimes")));
    assertEquals("ranking.incremental: must be true or false, got sometimes", e.getMessage());
  }
}
