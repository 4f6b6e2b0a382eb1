package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The admission limits of the {@code ranking:} section (keys, defaults and ranges: {@link ConfigSchema}): how much ranking
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
    ConfigSchema.Section r = ConfigSchema.section("ranking", PlainValues.map(ranking));
    int concurrent = r.whole("maxConcurrent");
    return new RankingSettings(r.whole("maxWorkloads"), concurrent == 0 ? 2 * Runtime.getRuntime().availableProcessors() : concurrent,
        r.whole("queue"), r.duration("timeout"), r.whole("maxScenarios"), r.whole("maxScenariosPerClient"), r.flag("incremental"),
        r.bytes("memoryBudget"));
  }
}
