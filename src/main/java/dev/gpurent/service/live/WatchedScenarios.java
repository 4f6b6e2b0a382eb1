package dev.gpurent.service.live;

import dev.gpurent.service.Addresses;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;

/**
 * The live scenarios some dashboard of this process follows, counted per HTTP verticle that
 * serves one. A pass over the live scenarios ranks these first, so that a price change reaches
 * the screens before the unwatched rest (REST readers, alerts) is brought up to date.
 */
public final class WatchedScenarios {

  private final LocalMap<String, Integer> counts;

  public WatchedScenarios(Vertx vertx) {
    this.counts = vertx.sharedData().getLocalMap(Addresses.WATCHED_SCENARIOS);
  }

  /** A first dashboard of this verticle follows {@code id}. */
  public void watch(String id) {
    counts.merge(id, 1, Integer::sum);
  }

  /** The last dashboard of this verticle stopped following {@code id}. */
  public void unwatch(String id) {
    counts.computeIfPresent(id, (k, n) -> n <= 1 ? null : n - 1);
  }

  public boolean watched(String id) {
    return counts.containsKey(id);
  }

  /** The scenarios followed now (a copy). */
  public java.util.Set<String> ids() {
    return new java.util.HashSet<>(counts.keySet());
  }
}
