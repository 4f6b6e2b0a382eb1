package dev.gpurent.service.live;

import dev.gpurent.service.LocalCodec;
import io.vertx.core.eventbus.EventBus;
import java.util.List;

/**
 * What a node's RankingVerticle publishes on {@code gpurent.rankings.changed}: live scenarios
 * whose ranking changed, each with its update, or null for a deleted scenario. A pass publishes one
 * message for each chunk of scenarios it ranked, not one for each scenario: a price change that
 * moves 10,000 rankings is 50 messages to each consumer, not 10,000. Local only, by reference.
 */
public record RankingsChanged(List<Change> changes) {

  /** One scenario's new ranking, or why it failed ({@link LiveRankingUpdate#failed}); {@code update} null: it was deleted. */
  public record Change(String scenario, LiveRankingUpdate update) {}

  public RankingsChanged {
    changes = List.copyOf(changes);
  }

  /** One scenario's change alone. */
  public static RankingsChanged of(String scenario, LiveRankingUpdate update) {
    return new RankingsChanged(List.of(new Change(scenario, update)));
  }

  /** Lets this node's verticles publish it (once per Vert.x instance; the first verticle to ask registers it). */
  public static void register(EventBus bus) {
    try {
      bus.registerDefaultCodec(RankingsChanged.class, new LocalCodec<>(RankingsChanged.class));
    } catch (IllegalStateException alreadyRegistered) {
      // another verticle of this Vert.x instance registered it first
    }
  }
}
