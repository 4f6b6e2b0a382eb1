package dev.gpurent.service.http;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Failures counted per client in fixed one-minute windows: a client that failed {@code perMinute}
 * times is blocked until its window ends. Bounded: at most {@value #MAX_CLIENTS} clients are
 * counted apart; past that (expired windows dropped first) the newcomers share one count, so that
 * an attacker spread over many networks gets no more tries than the limit allows one of them.
 * Used on one event loop.
 */
final class FailureLimit {

  static final int MAX_CLIENTS = 10_000;
  private static final String OTHERS = "(others)";
  private static final long MINUTE = 60_000_000_000L;

  private record Window(long start, int failures) {}

  private final int perMinute;
  private final LongSupplier nanos;
  private final Map<String, Window> windows = new HashMap<>();

  FailureLimit(int perMinute, LongSupplier nanos) {
    this.perMinute = perMinute;
    this.nanos = nanos;
  }

  /** Seconds until {@code client} may try again (at least 1), or 0 when it may try now. */
  long blockedFor(String client) {
    Window w = current(key(client));
    if (w == null || w.failures() < perMinute) return 0;
    return Math.max(1, (w.start() + MINUTE - nanos.getAsLong() + 999_999_999L) / 1_000_000_000L);
  }

  /** Counts a failure of {@code client}; its failures in the current window, this one included. */
  int failed(String client) {
    String key = key(client);
    Window w = current(key);
    Window next = w == null ? new Window(nanos.getAsLong(), 1) : new Window(w.start(), w.failures() + 1);
    windows.put(key, next);
    return next.failures();
  }

  private Window current(String key) {
    Window w = windows.get(key);
    if (w != null && nanos.getAsLong() - w.start() >= MINUTE) {
      windows.remove(key);
      return null;
    }
    return w;
  }

  private String key(String client) {
    if (windows.containsKey(client) || windows.size() < MAX_CLIENTS) return client;
    long now = nanos.getAsLong();
    windows.values().removeIf(w -> now - w.start() >= MINUTE);
    return windows.size() < MAX_CLIENTS ? client : OTHERS;
  }
}
