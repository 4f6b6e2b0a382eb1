package dev.gpurent.cluster;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.Map;

/**
 * The cluster as one node sees it, for {@code /health}: this node, the members, and which member
 * holds each vendor's lease (read from the lease map, {@link VendorLeases}; a holder's token is its
 * node id, a slash, and a token of its start). A vendor nobody holds is one nobody fetches.
 */
public final class ClusterView {

  private final ClusterNode node;

  public ClusterView(ClusterNode node) {
    this.node = node;
  }

  /**
   * {@code {"node", "members": [ids], "leases": {vendor: node id or null}}} for the vendors given;
   * read on a worker (Hazelcast's map reads block).
   */
  public Future<JsonObject> read(Collection<String> vendors) {
    return node.vertx().executeBlocking(() -> {
      Map<String, String> holders = node.manager().getHazelcastInstance().<String, String>getMap(VendorLeases.MAP).getAll(
          new java.util.HashSet<>(vendors));
      JsonObject leases = new JsonObject();
      for (String v : new java.util.TreeSet<>(vendors)) {
        String token = holders.get(v);
        leases.put(v, token == null ? null : token.substring(0, Math.max(0, token.indexOf('/'))));
      }
      return new JsonObject().put("node", node.manager().getNodeId())
          .put("members", new JsonArray(node.manager().getNodes().stream().sorted().toList())).put("leases", leases);
    }, false);
  }
}
