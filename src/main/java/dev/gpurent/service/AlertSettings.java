package dev.gpurent.service;

import dev.gpurent.alert.WebhookHosts;
import dev.gpurent.config.Durations;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
    JsonObject a = alerts == null ? new JsonObject() : alerts;
    int attempts = whole(a, "attempts", 5, 1, 20);
    Duration backoff = Durations.parse("alerts.backoff", String.valueOf(a.getValue("backoff", "2s")));
    Duration maxBackoff = Durations.parse("alerts.maxBackoff", String.valueOf(a.getValue("maxBackoff", "5m")));
    if (maxBackoff.compareTo(backoff) < 0) {
      throw new IllegalArgumentException("alerts.maxBackoff: must be at least alerts.backoff (" + backoff + "), got " + maxBackoff);
    }
    Object j = a.getValue("jitter", 0.2);
    if (!(j instanceof Number n) || n.doubleValue() < 0 || n.doubleValue() > 1) {
      throw new IllegalArgumentException("alerts.jitter: must be a number from 0 to 1, got " + j);
    }
    Duration timeout = positive(a, "timeout", "5s");
    Duration connectTimeout = positive(a, "connectTimeout", "2s");
    return new AlertSettings(attempts, backoff, maxBackoff, n(j), timeout, whole(a, "maxResponseBytes", 65_536, 256, 16 << 20),
        hosts(a.getValue("allowHosts")), connectTimeout, whole(a, "connectionsPerHost", 4, 1, 64),
        whole(a, "perUrlPerMinute", 20, 1, 100_000), whole(a, "perClientPerMinute", 60, 1, 100_000));
  }

  private static Duration positive(JsonObject a, String key, String dflt) {
    Duration d = Durations.parse("alerts." + key, String.valueOf(a.getValue(key, dflt)));
    if (d.isZero()) throw new IllegalArgumentException("alerts." + key + ": must be more than 0");
    return d;
  }

  /** A list of host names, also given as one comma-separated string (as an environment variable gives it). */
  private static Set<String> hosts(Object v) {
    Stream<Object> items = v == null ? Stream.empty()
        : v instanceof JsonArray list ? list.stream()
        : Arrays.stream(String.valueOf(v).split(",")).map(String::trim).filter(h -> !h.isEmpty()).map(h -> (Object) h);
    return items.map(h -> {
      if (!(h instanceof String s) || s.isBlank() || s.contains("/")) {
        throw new IllegalArgumentException("alerts.allowHosts: must be a list of host names, got " + h);
      }
      return WebhookHosts.normal(s.trim());
    }).collect(Collectors.toUnmodifiableSet());
  }

  /** The wait before try {@code next} (2 or more), given a random number in [0, 1). */
  public Duration delayBefore(int next, double random) {
    long base = backoff.toMillis() << Math.min(next - 2, 30);
    long capped = Math.min(maxBackoff.toMillis(), base < 0 ? Long.MAX_VALUE : base);
    return Duration.ofMillis(Math.max(1, Math.round(capped * (1 - jitter * random))));
  }

  private static double n(Object j) {
    return ((Number) j).doubleValue();
  }

  private static int whole(JsonObject a, String key, int dflt, int min, int max) {
    Object v = a.getValue(key, dflt);
    if (!(v instanceof Number n) || n.doubleValue() != n.intValue() || n.intValue() < min || n.intValue() > max) {
      throw new IllegalArgumentException("alerts." + key + ": must be a whole number from " + min + " to " + max + ", got " + v);
    }
    return n.intValue();
  }
}
