package dev.gpurent.service.quotes;

import dev.gpurent.cluster.Leases;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.service.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * A cluster's share of the fetching: the quotes this node fetched under a vendor's lease go to the
 * other nodes on {@link Addresses#QUOTES_FETCHED}, theirs are installed here as if fetched here, and
 * a node that joins asks for every vendor's ({@link Addresses#QUOTES_WANTED}).
 */
final class QuoteSharing {

  private static final Logger LOG = Logger.getLogger(QuoteVerticle.class.getName());

  private final Vertx vertx;
  private final Leases leases;
  private final Map<String, VendorState> vendors;
  /** A vendor's quotes as this node holds them, or null. */
  private final Function<String, VendorQuotes> cached;
  /** What the vendor's definition adds to quotes that arrive (run on a worker). */
  private final BiFunction<VendorState, VendorQuotes, VendorQuotes> stamp;
  /** Installs quotes another node fetched (on the event loop). */
  private final BiConsumer<VendorState, VendorQuotes> install;

  QuoteSharing(Vertx vertx, Leases leases, Map<String, VendorState> vendors, Function<String, VendorQuotes> cached,
               BiFunction<VendorState, VendorQuotes, VendorQuotes> stamp, BiConsumer<VendorState, VendorQuotes> install) {
    this.vertx = vertx;
    this.leases = leases;
    this.vendors = vendors;
    this.cached = cached;
    this.stamp = stamp;
    this.install = install;
  }

  /** Listens to the other nodes; on a single node, nothing. */
  Future<?> listen() {
    return !leases.clustered() ? Future.succeededFuture() : Future.all(
        vertx.eventBus().<String>consumer(Addresses.QUOTES_FETCHED, this::fetchedElsewhere).completion(),
        vertx.eventBus().consumer(Addresses.QUOTES_WANTED, msg -> shareHeld()).completion());
  }

  /** Asks every node for the quotes it fetches. */
  void ask() {
    vertx.eventBus().publish(Addresses.QUOTES_WANTED, null, fromHere());
  }

  private DeliveryOptions fromHere() {
    return new DeliveryOptions().addHeader(Addresses.NODE_HEADER, leases.node());
  }

  /** Tells the other nodes what this node fetched, if it still holds the vendor's lease; encoded on a worker (a payload can be 100,000 quotes). */
  void share(String id, VendorQuotes q) {
    leases.confirm(id).onSuccess(mine -> {
      if (!mine) {
        LOG.info(() -> id + ": lease lost while fetching; not published");
        return;
      }
      vertx.executeBlocking(() -> QuoteJson.toJson(q).encode(), false)
          .onSuccess(text -> vertx.eventBus().publish(Addresses.QUOTES_FETCHED, text, fromHere().addHeader(Addresses.VENDOR_HEADER, id)));
    });
  }

  /** A node that joined asked for everything: the vendors this node fetches. */
  private void shareHeld() {
    for (String id : vendors.keySet()) {
      VendorQuotes q = cached.apply(id);
      if (q != null && leases.held(id) && vendors.get(id).lastAttempt != null) share(id, q);
    }
  }

  /** Quotes another node fetched under its lease: installed as this node's own fetch would be. */
  private void fetchedElsewhere(Message<String> msg) {
    String id = msg.headers().get(Addresses.VENDOR_HEADER);
    VendorState v = id == null ? null : vendors.get(id);
    if (v == null || leases.node().equals(msg.headers().get(Addresses.NODE_HEADER))) return;
    mine(id).onSuccess(held -> {
      if (held) return;
      vertx.executeBlocking(() -> stamp.apply(v, QuoteJson.vendorQuotes(new JsonObject(msg.body()))), false)
          .compose(q -> mine(id).map(taken -> {
            if (!taken) install.accept(v, q);  // else taken meanwhile: this node's own fetch counts now
            return null;
          }))
          .onFailure(e -> LOG.warning(() -> id + ": quotes from another node do not read: " + e.getMessage()));
    });
  }

  /**
   * Whether this node holds the vendor's lease, asked of the cluster when it believes so: a node
   * whose lease another took meanwhile (a pause past its time, a hand-over as members join) still
   * believes it for a while, and would drop the new holder's quotes and keep its old ones.
   */
  private Future<Boolean> mine(String id) {
    return leases.held(id) ? leases.confirm(id).otherwise(true) : Future.succeededFuture(false);
  }
}
