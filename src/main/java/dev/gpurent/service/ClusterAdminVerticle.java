package dev.gpurent.service;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.logging.Logger;

/**
 * One truth across a cluster's nodes: an admin action done on this node (a reload, a refresh, a
 * quote-sheet import; {@link Addresses#ADMIN_DONE}) is published to every node
 * ({@link Addresses#ADMIN_ACTIONS}), and each action another node published is done here as well,
 * through this node's own addresses. A reload or an import rewrites and re-reads this node's own
 * {@code adapters/}, so whichever node holds a vendor's lease afterwards fetches the same vendor
 * file; a refresh is done by the lease holders, whose quotes every node installs. Deployed only
 * on a cluster node.
 */
public final class ClusterAdminVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(ClusterAdminVerticle.class.getName());
  /** As long as the admin route itself waits for a refresh. */
  private static final long REFRESH_TIMEOUT_MS = 600_000;

  private final String node;

  /** @param node this node's id (the cluster manager's), so that its own actions are not done twice */
  public ClusterAdminVerticle(String node) {
    this.node = node;
  }

  @Override
  public Future<?> start() {
    var bus = vertx.eventBus();
    return Future.all(
        bus.<JsonObject>localConsumer(Addresses.ADMIN_DONE, m -> bus.publish(Addresses.ADMIN_ACTIONS, m.body(),
            new DeliveryOptions().addHeader(Addresses.NODE_HEADER, node))).completion(),
        bus.<JsonObject>consumer(Addresses.ADMIN_ACTIONS, this::elsewhere).completion());
  }

  /** An action another node did: done here too, and said in the log either way. */
  private void elsewhere(Message<JsonObject> m) {
    String from = m.headers().get(Addresses.NODE_HEADER);
    if (node.equals(from) || m.body() == null) return;
    JsonObject body = m.body();
    String action = body.getString("action", "");
    String what = action + (body.getString("vendor") == null ? "" : " of " + body.getString("vendor"));
    Future<?> done = switch (action) {
      case "reload" -> vertx.eventBus().request(Addresses.ADMIN_RELOAD, null);
      case "refresh" -> vertx.eventBus().request(Addresses.QUOTES_REFRESH, body.getString("vendor") == null ? new JsonObject()
          : new JsonObject().put("vendor", body.getString("vendor")), new DeliveryOptions().setSendTimeout(REFRESH_TIMEOUT_MS));
      case "import" -> vertx.eventBus().request(Addresses.QUOTE_SHEETS_IMPORT, body.copy(),
          new DeliveryOptions().addHeader(Addresses.SHARED_HEADER, from == null ? "" : from));
      default -> Future.failedFuture("unknown admin action '" + action + "'");
    };
    done.onSuccess(x -> {
      LOG.info(() -> "admin " + what + " done here, as on node " + from);
      // The vendor's holder may have fetched the new file and published it before this node had
      // re-read its own: asked again now, it publishes once more to a node that has.
      if (action.equals("import")) {
        vertx.eventBus().send(Addresses.ADMIN_DONE, new JsonObject().put("action", "refresh").put("vendor", body.getString("vendor")));
      }
    }).onFailure(e -> LOG.warning(() -> "admin " + what + " done on node " + from + " failed here: " + e.getMessage()));
  }
}
