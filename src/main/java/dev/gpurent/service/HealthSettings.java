package dev.gpurent.service;

import dev.gpurent.config.Durations;
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
    JsonObject h = health == null ? new JsonObject() : health;
    Object share = h.getValue("heapAfterGc", 0.85);
    if (!(share instanceof Number n) || !(n.doubleValue() > 0) || n.doubleValue() > 1) {
      throw new IllegalArgumentException("health.heapAfterGc: must be a share of the heap, more than 0 and at most 1, got " + share);
    }
    Duration delay = Durations.parse("health.loopDelay", String.valueOf(h.getValue("loopDelay", "2s")));
    if (delay.isZero()) throw new IllegalArgumentException("health.loopDelay: must be more than 0");
    return new HealthSettings(n.doubleValue(), delay);
  }
}
