package dev.gpurent.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Scenario ownership by rendezvous (highest random weight) hashing over the live members: the
 * owner of a scenario is the member whose hash of (member, scenario) is highest. Every node
 * computes the same owner from the same member list, with no coordination; when a member leaves
 * only its scenarios move (each to the next highest), and a member that joins takes about 1/n of
 * them. The member list is the cluster manager's node ids, read again on each Hazelcast membership
 * event (the cluster manager's own node listener is Vert.x's: it has room for one).
 */
public final class RendezvousOwners implements Owners {

  private final String self;
  private final HazelcastClusterManager manager;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile List<String> members;

  public RendezvousOwners(HazelcastClusterManager manager) {
    this.manager = manager;
    this.self = manager.getNodeId();
    this.members = List.copyOf(manager.getNodes());
    manager.getHazelcastInstance().getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        changed();
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        changed();
      }
    });
  }

  private void changed() {
    members = List.copyOf(manager.getNodes());
    listeners.forEach(Runnable::run);
  }

  @Override
  public boolean owns(String scenario) {
    return self.equals(owner(scenario, members));
  }

  @Override
  public String node() {
    return self;
  }

  @Override
  public void onChange(Runnable changed) {
    listeners.add(changed);
  }

  /** The owner of {@code scenario} among {@code members} (null when there are none). */
  static String owner(String scenario, List<String> members) {
    String best = null;
    long bestWeight = 0;
    for (String m : members) {
      long w = weight(m, scenario);
      if (best == null || Long.compareUnsigned(w, bestWeight) > 0 || (w == bestWeight && m.compareTo(best) < 0)) {
        best = m;
        bestWeight = w;
      }
    }
    return best;
  }

  /**
   * 64-bit FNV-1a of the UTF-8 bytes of member, a zero byte and scenario, finished with a murmur
   * mix so that close ids spread. Worked out without building the joined string: a pass asks it
   * for every live scenario and member (10,000 x 3 took the pass's start 30-240 ms with the copies).
   */
  static long weight(String member, String scenario) {
    long h = fnv(0xcbf29ce484222325L, member);
    h *= 0x100000001b3L;  // the zero byte between them: xor with 0 leaves h as it is
    h = fnv(h, scenario);
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  /** FNV-1a over the UTF-8 bytes of {@code s}, from {@code h}; ASCII (every id gpurent makes) without copying. */
  private static long fnv(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        for (byte b : s.substring(i).getBytes(StandardCharsets.UTF_8)) h = (h ^ (b & 0xff)) * 0x100000001b3L;
        return h;
      }
      h = (h ^ s.charAt(i)) * 0x100000001b3L;
    }
    return h;
  }
}
