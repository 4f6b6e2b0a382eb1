package dev.gpurent.service;
import dev.gpurent.testing.FakeWebhooks;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.alerts.AlertVerticle;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpurent.Slow;
import dev.gpurent.store.EmbeddedPg;
import dev.gpurent.store.Retention;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Exactly one delivery per event across a cluster: two nodes (two Vert.x instances, each with its
 * own AlertVerticle and store connections) on one PostgreSQL database both receive the same
 * registration and the same rankings, as every node of a cluster does; each event reaches its
 * webhook once.
 */
@Slow
class AlertClusterTest {

  @Test
  void two_nodes_on_one_database_deliver_each_event_once() throws Exception {
    String url = EmbeddedPg.freshUrl();
    Vertx hooksVertx = Vertx.vertx();
    List<Vertx> nodes = List.of(Vertx.vertx(), Vertx.vertx());
    try {
      FakeWebhooks hooks = await(new FakeWebhooks(hooksVertx).start());
      JsonArray rules = new JsonArray()
          .add(new JsonObject().put("when", "totalBelow").put("amount", 2000).put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json"))))
          .add(new JsonObject().put("when", "winnerChanged").put("to", new JsonObject().put("type", "slack").put("url", hooks.url("/slack"))));
      for (Vertx node : nodes) {
        SnapshotStore store = await(SnapshotStore.open(node, new StoreSettings(null, url, null, null, 2,
            Retention.defaults(ZoneId.of("Asia/Shanghai")))));
        await(node.deployVerticle(new AlertVerticle(store, AlertDeliveryTest.FAST, AlertDeliveryTest.CLOCK)));
      }
      for (Vertx node : nodes) AlertDeliveryTest.register(node, "s-cluster", "en", rules);
      for (Vertx node : nodes) AlertDeliveryTest.rank(node, "s-cluster", AlertDeliveryTest.T0, "runpod", "1800.00", false);
      for (Vertx node : nodes) AlertDeliveryTest.rank(node, "s-cluster", AlertDeliveryTest.T1, "vast", "1700.00", false);
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < 2; i++) paths.add(hooks.next().path());
      assertEquals(new TreeSet<>(List.of("/json", "/slack")), new TreeSet<>(paths));
      JsonArray log = AlertDeliveryTest.settledLog(nodes.get(1), "s-cluster", 2);
      // as a set: the fixed clock gives both rows one created_at, and the two nodes' claims race for the ids
      assertEquals(new TreeSet<>(List.of("s-cluster:1:" + AlertDeliveryTest.T1, "s-cluster:0:baseline")),
          new TreeSet<>(log.stream().map(d -> ((JsonObject) d).getString("key")).toList()));
      assertEquals(List.of(1, 1), log.stream().map(d -> ((JsonObject) d).getInteger("attempts")).toList());
      assertNull(hooks.more(), "the other node delivered nothing");
    } finally {
      for (Vertx node : nodes) await(node.close());
      await(hooksVertx.close());
    }
  }
}
