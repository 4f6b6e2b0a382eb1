package dev.gpurent.cluster;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.Collection;
import java.util.function.Consumer;

/**
 * Which node fetches each vendor. On a single node ({@link #single()}) this node fetches every
 * vendor and nothing is shared; in a cluster ({@link VendorLeases}) a vendor is fetched by the one
 * node holding its lease, and the others receive its quotes over the event bus.
 */
public interface Leases {

  /** Starts keeping the vendors' leases; {@code gained} is told, on {@code context}, of each lease this node takes. */
  Future<Void> start(Context context, Collection<String> vendors, Consumer<String> gained);

  /** Whether this node holds the vendor's lease as far as it knows now (no cluster round trip). */
  boolean held(String vendor);

  /**
   * Asks the cluster whether this node still holds the vendor's lease: checked before quotes
   * fetched under it are published, so that a holder that was paused past its lease never
   * publishes over the node that took the lease meanwhile.
   */
  Future<Boolean> confirm(String vendor);

  /** Whether quotes must be shared with other nodes. */
  boolean clustered();

  /** This node's id (the cluster manager's), "" on a single node. */
  String node();

  /** Gives the leases back, so that another node can take them at once. */
  Future<Void> release();

  /** One node alone: it holds every lease. */
  static Leases single() {
    return new Leases() {
      @Override
      public Future<Void> start(Context context, Collection<String> vendors, Consumer<String> gained) {
        return Future.succeededFuture();
      }

      @Override
      public boolean held(String vendor) {
        return true;
      }

      @Override
      public Future<Boolean> confirm(String vendor) {
        return Future.succeededFuture(true);
      }

      @Override
      public boolean clustered() {
        return false;
      }

      @Override
      public String node() {
        return "";
      }

      @Override
      public Future<Void> release() {
        return Future.succeededFuture();
      }
    };
  }
}
