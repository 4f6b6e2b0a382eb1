package dev.gpurent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster: section, and the Hazelcast configuration it makes: TCP-IP join to the members only. */
class ClusterSettingsTest {

  @Test
  void off_by_default_and_on_with_serve_cluster() {
    ClusterSettings none = ClusterSettings.from(null, false);
    assertFalse(none.enabled());
    assertEquals(Duration.ofSeconds(15), none.leaseTtl());
    assertEquals(5701, none.port());
    assertTrue(ClusterSettings.from(null, true).enabled());
  }

  @Test
  void members_come_as_a_list_or_as_one_text_from_the_environment() {
    assertEquals(List.of("10.0.0.1:5701", "10.0.0.2:5701"),
        ClusterSettings.from(new JsonObject().put("members", new JsonArray().add("10.0.0.1:5701").add("10.0.0.2:5701")), false).members());
    assertEquals(List.of("10.0.0.1:5701", "10.0.0.2:5701"),
        ClusterSettings.from(new JsonObject().put("members", "10.0.0.1:5701, 10.0.0.2:5701").put("port", "5702"), false).members());
  }

  @Test
  void bad_values_name_their_key() {
    assertEquals("cluster.port: must be a whole number from 1 to 65535, got 0",
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(new JsonObject().put("port", 0), false)).getMessage());
    assertEquals("cluster.leaseTtl: must be at least 1s, got 500ms",
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(new JsonObject().put("leaseTtl", "500ms"), false))
            .getMessage());
  }

  @Test
  void hazelcast_joins_the_members_over_tcp_ip_only() {
    ClusterSettings s = ClusterSettings.from(new JsonObject().put("host", "10.0.0.1").put("port", 5710)
        .put("members", new JsonArray().add("10.0.0.1:5710").add("10.0.0.2:5710")).put("failureDetection", "4s"), true);
    Config c = ClusterNode.hazelcast(s);
    assertFalse(c.getNetworkConfig().getJoin().getMulticastConfig().isEnabled());
    assertFalse(c.getNetworkConfig().getJoin().getAutoDetectionConfig().isEnabled());
    assertTrue(c.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled());
    assertEquals(List.of("10.0.0.1:5710", "10.0.0.2:5710"), c.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
    assertEquals(5710, c.getNetworkConfig().getPort());
    assertFalse(c.getNetworkConfig().isPortAutoIncrement());
    assertEquals(List.of("10.0.0.1"), List.copyOf(c.getNetworkConfig().getInterfaces().getInterfaces()));
    assertEquals("4", c.getProperty("hazelcast.max.no.heartbeat.seconds"));
    assertEquals("false", c.getProperty("hazelcast.phone.home.enabled"));
    // Vert.x's own maps keep their settings
    assertEquals(1, c.getMapConfig("__vertx.nodeInfo").getBackupCount());
  }
}
