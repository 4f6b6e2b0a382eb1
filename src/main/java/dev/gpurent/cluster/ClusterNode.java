package dev.gpurent.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/**
 * A gpurent node joined to its cluster: a clustered Vert.x on the Hazelcast cluster manager, with
 * TCP-IP join to {@code cluster.members} (multicast and auto-detection off, so a node only ever
 * joins the members it is told of), Hazelcast and the event bus bound to {@code cluster.host}.
 * Hazelcast starts with Vert.x's own map settings (vertx-hazelcast's default-cluster.xml) and a
 * few properties that keep a small cluster quick: no phone-home, no wait before joining, a member
 * silent for {@code cluster.failureDetection} is dropped (Hazelcast's default, 60 s, would hold a
 * dead node's leases that long).
 */
public record ClusterNode(Vertx vertx, HazelcastClusterManager manager) {

  /** Joins the cluster; fails if Hazelcast cannot bind its port or the event bus cannot start. */
  public static Future<ClusterNode> join(VertxOptions options, VertxMetricsFactory metrics, ClusterSettings settings) {
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcast(settings));
    options.getEventBusOptions().setHost(settings.host()).setPort(settings.busPort());
    return Vertx.builder().with(options).withMetrics(metrics).withClusterManager(manager).buildClustered()
        .map(vertx -> new ClusterNode(vertx, manager));
  }

  /** This node's Hazelcast configuration. */
  static Config hazelcast(ClusterSettings settings) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName("gpurent");
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");  // Vert.x leaves the cluster on close
    config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    config.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(settings.failureDetection().toSeconds()));
    config.setProperty("hazelcast.partition.count", "31");  // a handful of maps with a few keys each
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(false);
    network.getInterfaces().setEnabled(true).addInterface(settings.host());
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
    return config;
  }
}
