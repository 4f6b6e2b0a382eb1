package dev.gpurent.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Takes, renews or gives back one vendor's lease, atomically on the member that owns the key (and
 * again on its backup, so a promoted backup agrees). The value is the holder's token; the entry's
 * time to live is the lease: when the holder stops renewing it, the entry expires and the next
 * node to ask takes it. Vert.x's AsyncMap cannot renew a time to live conditionally
 * ({@code replaceIfPresent} with a TTL is unsupported on Hazelcast), hence an entry processor.
 *
 * @param token  the asking node's token
 * @param ttlMs  the lease's length; 0 gives the lease back
 */
record LeaseEntry(String token, long ttlMs) implements EntryProcessor<String, String, Boolean> {

  /** True when {@code token} holds the lease afterwards (taken or renewed), or, for a release, held it. */
  @Override
  public Boolean process(Map.Entry<String, String> entry) {
    String holder = entry.getValue();
    boolean mine = Objects.equals(holder, token);
    if (ttlMs == 0) {
      if (mine) entry.setValue(null);
      return mine;
    }
    if (holder != null && !mine) return false;
    ((ExtendedMapEntry<String, String>) entry).setValue(token, ttlMs, TimeUnit.MILLISECONDS);
    return true;
  }
}
