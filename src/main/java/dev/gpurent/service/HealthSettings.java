package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The {@code health:} section: past which figures {@code /health} calls the service degraded.
 *
 * @param heapAfterGc the share of the maximum heap still in use after the last collection (0-1]:
 *                    past it, memory is under pressure (what a leak or too many live scenarios looks like)
 * @param loopDelay   how late an event loop may run a timer before it counts as blocked
 */
public record HealthSettings(double heapAfterGc, Duration loopDelay) {

  public static final HealthSettings DEFAULTS = from(null);

  public static HealthSettings from(JsonObject health) {
    ConfigSchema.Section h = ConfigSchema.section("health", PlainValues.map(health));
    return new HealthSettings(h.number("heapAfterGc"), h.duration("loopDelay"));
  }
}
