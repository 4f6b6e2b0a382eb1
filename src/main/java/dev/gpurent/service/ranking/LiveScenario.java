package dev.gpurent.service.ranking;

import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingParts;

/**
 * A live scenario and its last ranking here: the update as sent (or why it failed); both null
 * while this node does not keep it ranked. {@code live} and {@code parts} are touched only by the
 * one worker ranking the scenario at a time (its first ranking, then one pass after another); the
 * rest on the RankingVerticle's event loop, but for the volatile fields the worker sets.
 */
final class LiveScenario {
  final Scenario scenario;
  /** Its client as the per-client cap counts it (a network). */
  final String client;
  /** Its share of the memory budget, held while it lives. */
  final long weight;
  RankingParts parts = new RankingParts();
  /** Kept between books for incremental re-ranking; null before the first ranking and after a failure. */
  LiveRanking live;
  /** The book of its last ranking here (set by the worker that ranked it). */
  volatile QuoteBook rankedOn;
  /** That ranking (its vendors with a plan): a pass ranks first the followed scenarios a change may move. */
  volatile dev.gpurent.cost.Ranking shown;
  /** While its first ranking runs, passes leave it out. */
  boolean first;
  /**
   * Whether its latest ranking went to this node's HTTP verticles and AlertVerticle: one ranked
   * for a reader alone did not, and is published, changed or not, once this node keeps it ranked.
   */
  volatile boolean published;
  LiveRankingUpdate message;
  String failure;

  LiveScenario(Scenario scenario, String client, long weight) {
    this.scenario = scenario;
    this.client = client;
    this.weight = weight;
  }

  /** Whether it has a ranking (or a failure) here: one this node ranked. */
  boolean ranked() {
    return message != null || failure != null;
  }

  /** Forgets its ranking here (another node ranks it now): its memory is freed. */
  void unrank() {
    synchronized (this) {
      live = null;
      parts = new RankingParts();
      rankedOn = null;
    }
    message = null;
    failure = null;
    published = false;
  }
}
