package dev.gpurent.alert;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * How many webhook tries may go out: a token bucket per webhook URL and one per client (whoever
 * registered the scenarios), each holding up to its rate a minute and refilled evenly over the
 * minute. A try goes out only when both its buckets hold a token, and then takes one from each:
 * however many scenarios name one URL, and however many tries their failures call for, the URL
 * gets at most its rate a minute (after a first burst of as many). Time is the caller's, so tests
 * set it rather than wait. A bucket full again is forgotten, so memory follows the URLs and
 * clients of the last minute. One verticle's: not thread-safe.
 */
public final class DeliveryRates {

  private static final long MINUTE_MS = 60_000;

  private final Buckets perUrl, perClient;

  public DeliveryRates(int perUrlPerMinute, int perClientPerMinute) {
    this.perUrl = new Buckets(perUrlPerMinute);
    this.perClient = new Buckets(perClientPerMinute);
  }

  /** Takes a token of the URL's and of the client's bucket if both hold one; false (nothing taken) otherwise. */
  public boolean tryTake(String url, String client, Instant now) {
    if (perUrl.tokens(url, now) < 1 || perClient.tokens(client, now) < 1) return false;
    perUrl.take(url);
    perClient.take(client);
    return true;
  }

  private static final class Buckets {
    private final int rate;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private int pruneAt = 1024;

    Buckets(int rate) {
      this.rate = rate;
    }

    /** The key's tokens now, its bucket refilled for the time since it was last looked at. */
    double tokens(String key, Instant now) {
      long ms = now.toEpochMilli();
      Bucket b = buckets.get(key);
      if (b == null) {
        if (buckets.size() >= pruneAt) prune(ms);
        b = new Bucket(rate, ms);
        buckets.put(key, b);
      }
      b.refill(rate, ms);
      return b.tokens;
    }

    void take(String key) {
      buckets.get(key).tokens -= 1;
    }

    private void prune(long ms) {
      buckets.values().removeIf(b -> {
        b.refill(rate, ms);
        return b.tokens >= rate;
      });
      pruneAt = Math.max(1024, 2 * buckets.size());
    }
  }

  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }

    void refill(int rate, long ms) {
      if (ms <= at) return;
      tokens = Math.min(rate, tokens + (double) (ms - at) * rate / MINUTE_MS);
      at = ms;
    }
  }
}
