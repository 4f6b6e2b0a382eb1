package dev.gpurent.service;

import dev.gpurent.cost.ScenarioReader;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The admission limits of the {@code ranking:} section, with their defaults: how much ranking
 * work the service takes on at once, so that a flood of large requests is refused early instead
 * of exhausting memory and the event loops.
 *
 * @param maxWorkloads         workloads one scenario may hold
 * @param maxConcurrent        one-off rankings computed at once (default 2 x cores)
 * @param queue                rankings waiting for a slot; past it, 503 with Retry-After
 * @param timeout              a ranking not started this long after it was asked for is dropped
 *                             (its client has been answered 503 by then)
 * @param maxScenarios         live scenarios at once, all clients together (default 10,000 a node)
 * @param maxScenariosPerClient live scenarios one client may hold (a client: a network, see {@link ClientSettings})
 * @param incremental          on a price change, re-price only the vendors that changed in each live
 *                             scenario (false: rank every live scenario in full, as a baseline)
 * @param memoryBudget         bytes of heap the live scenarios and the one-off rankings under way may
 *                             hold, weighed by their workloads x vendors ({@link RankingBudget}); 256 MiB
 *                             keeps a 1 GiB heap at half or less
 */
public record RankingSettings(int maxWorkloads, int maxConcurrent, int queue, Duration timeout, int maxScenarios,
                              int maxScenariosPerClient, boolean incremental, long memoryBudget) {

  public static final RankingSettings DEFAULTS = from(null);

  public static RankingSettings from(JsonObject ranking) {
    JsonObject r = ranking == null ? new JsonObject() : ranking;
    int cores = Runtime.getRuntime().availableProcessors();
    int concurrent = positive(r, "maxConcurrent", 0);
    return new RankingSettings(positive(r, "maxWorkloads", ScenarioReader.DEFAULT_MAX_WORKLOADS),
        concurrent == 0 ? 2 * cores : concurrent, positive(r, "queue", 16),
        dev.gpurent.config.Durations.parse("ranking.timeout", String.valueOf(r.getValue("timeout", "10s"))),
        positive(r, "maxScenarios", 10_000), positive(r, "maxScenariosPerClient", 20), flag(r, "incremental", true),
        bytes(r, "memoryBudget", 256L * 1024 * 1024));
  }

  private static boolean flag(JsonObject r, String key, boolean dflt) {
    Object v = r.getValue(key, dflt);
    if (!(v instanceof Boolean b)) throw new IllegalArgumentException("ranking." + key + ": must be true or false, got " + v);
    return b;
  }

  private static long bytes(JsonObject r, String key, long dflt) {
    Object v = r.getValue(key, dflt);
    // an environment variable of more than 9 digits arrives as text
    if (v instanceof String text && text.matches("\\d{1,18}")) v = Long.parseLong(text);
    if (!(v instanceof Number n) || n.longValue() < 1 || n.doubleValue() != n.longValue()) {
      throw new IllegalArgumentException("ranking." + key + ": must be a whole number of bytes >= 1, got " + v);
    }
    return n.longValue();
  }

  private static int positive(JsonObject r, String key, int dflt) {
    Object v = r.getValue(key, dflt);
    if (!(v instanceof Number n) || n.intValue() < 0 || n.doubleValue() != n.intValue()) {
      throw new IllegalArgumentException("ranking." + key + ": must be a whole number >= 0, got " + v);
    }
    return n.intValue();
  }
}
