package dev.gpurent.service;

import dev.gpurent.alert.WebhookHosts;
import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code alerts:} section: how webhooks are tried. A try that fails for a reason worth
 * another (no connection, a timeout, 429, 5xx, a platform's rate-limit code) is tried again after
 * {@code backoff}, doubled before each next try up to {@code maxBackoff}, each wait shortened by a
 * random share of at most {@code jitter} so that many alerts do not retry in step; after
 * {@code attempts} tries in all, the delivery is logged as failed. Webhooks reach public hosts only
 * (see {@link WebhookHosts}), and at a bounded rate: a try over either rate is
 * held back (not sent) and counts as a try.
 *
 * @param timeout            one try, from connecting to the whole answer
 * @param maxResponseBytes   an answer longer than this is a failed try (a platform's answer is a few dozen bytes)
 * @param allowHosts         hosts webhooks may reach whatever their addresses (an intranet chat server), as URLs write them
 * @param connectTimeout     getting a connection to the host (a free one of its pool, or a new one)
 * @param connectionsPerHost connections to one host at once; each host has a pool of its own
 * @param perUrlPerMinute    tries to one webhook URL a minute, all scenarios together (a burst of as many, then spread out)
 * @param perClientPerMinute tries a minute for the live scenarios of one client (the address that registered them)
 */
public record AlertSettings(int attempts, Duration backoff, Duration maxBackoff, double jitter, Duration timeout,
                            int maxResponseBytes, Set<String> allowHosts, Duration connectTimeout, int connectionsPerHost,
                            int perUrlPerMinute, int perClientPerMinute) {

  public static final AlertSettings DEFAULTS = from(null);

  public static AlertSettings from(JsonObject alerts) {
    ConfigSchema.Section a = ConfigSchema.section("alerts", PlainValues.map(alerts));
    Duration backoff = a.duration("backoff");
    Duration maxBackoff = a.duration("maxBackoff");
    if (maxBackoff.compareTo(backoff) < 0) {
      throw new IllegalArgumentException("alerts.maxBackoff: must be at least alerts.backoff (" + backoff + "), got " + maxBackoff);
    }
    return new AlertSettings(a.whole("attempts"), backoff, maxBackoff, a.number("jitter"), a.duration("timeout"),
        a.whole("maxResponseBytes"), hosts(a.list("allowHosts")), a.duration("connectTimeout"), a.whole("connectionsPerHost"),
        a.whole("perUrlPerMinute"), a.whole("perClientPerMinute"));
  }

  /** Host names as URLs write them; a URL or a path is refused. */
  private static Set<String> hosts(List<String> names) {
    return names.stream().map(h -> {
      if (h.isBlank() || h.contains("/")) throw new IllegalArgumentException("alerts.allowHosts: must be a list of host names, got " + h);
      return WebhookHosts.normal(h);
    }).collect(Collectors.toUnmodifiableSet());
  }

  /** The wait before try {@code next} (2 or more), given a random number in [0, 1). */
  public Duration delayBefore(int next, double random) {
    long base = backoff.toMillis() << Math.min(next - 2, 30);
    long capped = Math.min(maxBackoff.toMillis(), base < 0 ? Long.MAX_VALUE : base);
    return Duration.ofMillis(Math.max(1, Math.round(capped * (1 - jitter * random))));
  }

}
