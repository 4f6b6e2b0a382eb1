package dev.gpurent.service.ranking;

import dev.gpurent.service.live.WatchedScenarios;

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
  void of_the_followed_scenarios_those_a_change_may_move_come_first_each_group_in_its_order() {
    Map<String, Integer> followed = new LinkedHashMap<>();
    for (String id : List.of("d", "b", "f", "g", "a")) followed.put(id, followed.size());
    Set<String> moved = Set.of("g", "b");
    List<String> order = LivePass.passOrder(followed, (id, n) -> moved.contains(id) ? 1 : 0).stream().map(Map.Entry::getKey).toList();
    assertEquals(List.of("b", "g", "d", "f", "a"), order);
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
