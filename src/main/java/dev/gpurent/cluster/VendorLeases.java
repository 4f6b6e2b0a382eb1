package dev.gpurent.cluster;

import com.hazelcast.map.IMap;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One lease per vendor in a cluster-wide Hazelcast map ({@value #MAP}): key the vendor, value the
 * holder's token, time to live the lease ({@code cluster.leaseTtl}). Every third of the lease each
 * node asks for every vendor ({@link LeaseEntry}): the holder renews, the others are refused while
 * the entry lives and take it once it has expired. A holder killed with its lease fresh is
 * succeeded when the lease runs out, that is within one lease and one third of it; the member's
 * own removal ({@code cluster.failureDetection}) may come later, and only then can keys it owned
 * be asked for, so the failure detection is kept below the lease.
 *
 * <p>This node counts a lease as held only until one lease after the request that took or renewed
 * it was sent, so a node cut off from the cluster stops fetching before anyone can take its
 * vendors. Its token is new at every start: a restarted node never mistakes an old entry for its own.
 * Touched only on the context given to {@link #start}.
 */
public final class VendorLeases implements Leases {

  static final String MAP = "gpurent.leases";
  private static final Logger LOG = Logger.getLogger(VendorLeases.class.getName());

  private final ClusterNode node;
  private final long ttlMs;
  private final String token;
  private final Map<String, Long> validUntil = new HashMap<>();
  private final Set<String> asking = new HashSet<>();
  private IMap<String, String> map;
  private Context context;
  private Consumer<String> gained;
  private List<String> vendors = List.of();
  private long timer = -1;

  public VendorLeases(ClusterNode node, Duration ttl) {
    this.node = node;
    this.ttlMs = ttl.toMillis();
    this.token = node.manager().getNodeId() + "/" + UUID.randomUUID();
  }

  @Override
  public Future<Void> start(Context context, Collection<String> vendors, Consumer<String> gained) {
    this.context = context;
    this.gained = gained;
    this.vendors = List.copyOf(vendors);
    this.map = node.manager().getHazelcastInstance().getMap(MAP);
    timer = context.owner().setPeriodic(Math.max(100, ttlMs / 3), id -> askAll());
    // the first round decides what this node fetches at start
    return askAll();
  }

  private Future<Void> askAll() {
    List<Future<?>> all = new ArrayList<>();
    for (String v : vendors) if (asking.add(v)) all.add(ask(v).eventually(() -> {
      asking.remove(v);
      return Future.succeededFuture();
    }));
    return Future.join(all).mapEmpty();
  }

  private Future<Boolean> ask(String vendor) {
    long sent = System.nanoTime();
    return submit(vendor, new LeaseEntry(token, ttlMs))
        .onSuccess(mine -> {
          boolean had = held(vendor);
          if (mine) {
            validUntil.put(vendor, sent + ttlMs * 1_000_000);
            if (!had) {
              LOG.info(() -> "this node now fetches " + vendor);
              gained.accept(vendor);
            }
          } else {
            validUntil.remove(vendor);
          }
        })
        .onFailure(e -> LOG.warning(() -> "lease of " + vendor + " not renewed: " + e.getMessage()));
  }

  /** The entry processor's answer, on this node's context; a Hazelcast that is shutting down answers with a failure, not a throw. */
  private Future<Boolean> submit(String vendor, LeaseEntry step) {
    try {
      return Future.fromCompletionStage(map.submitToKey(vendor, step), context);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public boolean held(String vendor) {
    Long until = validUntil.get(vendor);
    return until != null && until - System.nanoTime() > 0;
  }

  @Override
  public Future<Boolean> confirm(String vendor) {
    if (!held(vendor)) return Future.succeededFuture(false);
    try {
      return Future.fromCompletionStage(map.getAsync(vendor), context).map(holder -> Objects.equals(holder, token));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public boolean clustered() {
    return true;
  }

  @Override
  public String node() {
    return node.manager().getNodeId();
  }

  @Override
  public Future<Void> release() {
    if (timer >= 0) context.owner().cancelTimer(timer);
    List<Future<?>> all = new ArrayList<>();
    for (String v : List.copyOf(validUntil.keySet())) {
      validUntil.remove(v);
      all.add(submit(v, new LeaseEntry(token, 0)));
    }
    return Future.join(all).<Void>mapEmpty().otherwiseEmpty();
  }
}
