package dev.gpurent.service.ranking;

import dev.gpurent.cluster.Owners;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.live.WatchedScenarios;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import java.util.Set;

/**
 * Which live scenarios this node keeps ranked through every change: those it owns in the cluster
 * ({@link Owners}, recomputed when the membership changes) and those a dashboard of this node
 * follows ({@link WatchedScenarios}). Any other is ranked only when a reader asks for it.
 */
final class Ownership {

  private final Owners owners;
  private WatchedScenarios watched;

  Ownership(Owners owners) {
    this.owners = owners;
  }

  /** Reads the dashboards' follows of this process from now on; {@code changed} runs (on any thread) when the membership changes. */
  void start(Vertx vertx, Runnable changed) {
    watched = new WatchedScenarios(vertx);
    owners.onChange(changed);
  }

  /** Whether this node keeps {@code id} ranked through every change: it owns it, or a dashboard here follows it. */
  boolean kept(String id) {
    return owners.owns(id) || watched.watched(id);
  }

  boolean owns(String id) {
    return owners.owns(id);
  }

  /** The scenarios a dashboard of this node follows now. */
  Set<String> followed() {
    return watched.ids();
  }

  String node() {
    return owners.node();
  }

  /** A cluster-wide message marked as this node's, so that this node's own listener leaves it. */
  DeliveryOptions fromHere() {
    return new DeliveryOptions().addHeader(Addresses.NODE_HEADER, owners.node());
  }
}
