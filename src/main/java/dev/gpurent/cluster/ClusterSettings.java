package dev.gpurent.cluster;

import dev.gpurent.config.Durations;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code cluster:} section of the configuration ({@code serve --cluster} turns it on too).
 *
 * <pre>
 * cluster:
 *   enabled: false              # true, or serve --cluster: a Vert.x cluster on Hazelcast
 *   host: 127.0.0.1             # this node's address for Hazelcast and the event bus
 *   port: 5701                  # Hazelcast's port on this node
 *   busPort: 0                  # the event bus's port (0: any free one)
 *   members: [127.0.0.1:5701, 127.0.0.1:5702]   # TCP-IP join (multicast is off)
 *   leaseTtl: 15s               # a vendor's fetch lease; renewed every third of it
 *   failureDetection: 10s       # a member silent this long is dropped (its partitions move)
 * </pre>
 */
public record ClusterSettings(boolean enabled, String host, int port, int busPort, List<String> members, Duration leaseTtl,
                              Duration failureDetection) {

  public ClusterSettings {
    members = List.copyOf(members);
    if (port < 1 || port > 65535) throw new IllegalArgumentException("cluster.port: 1 to 65535, was " + port);
    if (busPort < 0 || busPort > 65535) throw new IllegalArgumentException("cluster.busPort: 0 to 65535, was " + busPort);
    if (leaseTtl.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("cluster.leaseTtl: at least 1s, was " + leaseTtl);
    }
    if (failureDetection.compareTo(Duration.ofSeconds(2)) < 0) {
      throw new IllegalArgumentException("cluster.failureDetection: at least 2s, was " + failureDetection);
    }
  }

  /** @param forced {@code serve --cluster}: on whatever the section says */
  public static ClusterSettings from(JsonObject section, boolean forced) {
    JsonObject c = section == null ? new JsonObject() : section;
    List<String> members = new ArrayList<>();
    Object raw = c.getValue("members");
    if (raw instanceof JsonArray a) {
      for (Object m : a) members.add(String.valueOf(m));
    } else if (raw instanceof String s && !s.isBlank()) {
      // -Dcluster.members=a:5701,b:5701 and GPURENT_CLUSTER_MEMBERS arrive as one text
      for (String m : s.split(",")) if (!m.isBlank()) members.add(m.trim());
    } else if (raw != null) {
      throw new IllegalArgumentException("cluster.members: a list of host:port, got '" + raw + "'");
    }
    return new ClusterSettings(forced || c.getBoolean("enabled", false), c.getString("host", "127.0.0.1"),
        number(c, "port", 5701), number(c, "busPort", 0), members,
        Durations.parse("cluster.leaseTtl", c.getString("leaseTtl", "15s")),
        Durations.parse("cluster.failureDetection", c.getString("failureDetection", "10s")));
  }

  private static int number(JsonObject c, String key, int fallback) {
    Object v = c.getValue(key, fallback);
    if (v instanceof Number n) return n.intValue();
    try {
      return Integer.parseInt(String.valueOf(v));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("cluster." + key + ": a port number, got '" + v + "'");
    }
  }
}
