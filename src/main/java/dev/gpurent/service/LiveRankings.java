package dev.gpurent.service;

import io.vertx.core.buffer.Buffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The latest ranking message of every live scenario, as the RankingVerticle published it, kept
 * on the HTTP event loop both as text (for dashboards) and as bytes encoded once (for
 * {@code GET /api/scenarios/{id}/ranking}): serving a cached ranking is a map lookup and a
 * write, with no event-bus round trip and no re-encoding. Used on one event loop only.
 */
final class LiveRankings {

  /** One scenario's latest message. */
  record Latest(String text, Buffer bytes) {}

  private final Map<String, Latest> latest = new HashMap<>();

  void put(String scenario, String message) {
    latest.put(scenario, new Latest(message, Buffer.buffer(message)));
  }

  void remove(String scenario) {
    latest.remove(scenario);
  }

  /** The scenario's latest message, or null when none has been published here (unknown, or not ranked yet). */
  Latest get(String scenario) {
    return latest.get(scenario);
  }
}
