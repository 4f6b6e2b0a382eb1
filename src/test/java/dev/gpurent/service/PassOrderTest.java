package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PassOrderTest {

  @Test
  void a_pass_ranks_the_watched_scenarios_first_and_leaves_out_the_ones_it_does_not_rank() {
    Map<String, Integer> live = new LinkedHashMap<>();
    for (String id : List.of("a", "b", "c", "d", "e", "f", "g")) live.put(id, live.size());
    Set<String> watched = Set.of("d", "b", "f", "g");
    Set<String> moved = Set.of("g", "b", "c");
    // f is another node's (or still on its first ranking): not in the pass at all; of the watched,
    // those the change may move (b, g) come first; c may move too, but nobody follows it here
    List<String> order = RankingVerticle.passOrder(live, (id, n) -> !id.equals("f"),
        (id, n) -> watched.contains(id) ? (moved.contains(id) ? 2 : 1) : 0).stream().map(Map.Entry::getKey).toList();
    assertEquals(List.of("b", "g", "d", "a", "c", "e"), order);
  }

  @Test
  void a_scenario_is_watched_while_any_dashboard_of_any_http_verticle_follows_it() {
    Vertx vertx = Vertx.vertx();
    try {
      WatchedScenarios one = new WatchedScenarios(vertx), other = new WatchedScenarios(vertx);
      one.watch("s");
      other.watch("s");
      one.unwatch("s");
      assertTrue(one.watched("s"), "the other verticle's dashboard still follows it");
      other.unwatch("s");
      assertFalse(one.watched("s"));
      other.unwatch("s");
      assertFalse(other.watched("s"), "an extra unwatch does not go below none");
    } finally {
      vertx.close();
    }
  }
}
