package dev.gpurent.cluster;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;

/**
 * The {@code cluster:} section of the configuration ({@code serve --cluster} turns it on too); its keys, defaults
 * and ranges are {@link ConfigSchema}'s.
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
  }

  /** @param forced {@code serve --cluster}: on whatever the section says */
  public static ClusterSettings from(JsonObject section, boolean forced) {
    ConfigSchema.Section c = ConfigSchema.section("cluster", PlainValues.map(section));
    return new ClusterSettings(forced || c.flag("enabled"), c.text("host"), c.whole("port"), c.whole("busPort"), c.list("members"),
        c.duration("leaseTtl"), c.duration("failureDetection"));
  }
}
