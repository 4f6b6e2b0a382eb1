package dev.gpurent.adapter;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One fetch of a multi-provider file for all the vendors that read it at once. The observations
 * CSV (ten vendors of adapters/, 4 MB) and OpenComputePrices' getdeploying.csv (eighteen, and
 * three cross-checks) are each one URL of which every vendor quotes one provider; refreshed
 * together (at start-up, by a refresh of all, on timers started together), each vendor downloaded
 * the whole file and read it on a worker, so ten downloads and ten reads of one file took the
 * workers and the vendors' timeouts. Here a vendor asking for a source (same URL, headers and
 * timeout) that a fetch on the same event loop is still reading is given that fetch's
 * {@link ProviderFeed}, and reads its own provider's rows of it on a worker. A vendor asking once
 * it has completed starts a new fetch: no payload is kept between refreshes.
 */
final class SharedFeeds {

  /** A vendor's part of a file read; runs on a worker thread. */
  @FunctionalInterface
  interface Slice<T> {
    T of(ProviderFeed feed, Instant at) throws Exception;
  }

  /** Fetches are shared on one event loop only, so that each completes on the loop of those who wait for it. */
  private record Key(Context loop, String source) {}

  private final FetchAndParse.Parse<ProviderFeed> read;
  private final Map<Key, Future<ProviderFeed>> underWay = new ConcurrentHashMap<>();

  /** @param read the whole file made into rows by provider, checked as the kind requires */
  SharedFeeds(FetchAndParse.Parse<ProviderFeed> read) {
    this.read = read;
  }

  /** {@code slice} of the file at {@code source}, fetched and read by the fetch under way on the caller's loop, else by a new one. */
  <T> Future<T> read(Vertx vertx, PayloadSource source, Slice<T> slice) {
    return feed(vertx, source).compose(feed -> vertx.executeBlocking(() -> slice.of(feed, Instant.now()), false));
  }

  private Future<ProviderFeed> feed(Vertx vertx, PayloadSource source) {
    Key key = new Key(vertx.getOrCreateContext(), source.fetchKey());
    Future<ProviderFeed> under = underWay.get(key);
    if (under != null) return under;
    // In memory, not through a temporary file as FetchAndParse streams one: its rows are held whole
    // anyway, and the file's writes (a worker task each 8-64 KB) took 0.6-2.7 s for 2.4 MB in bench/faults.sh.
    Future<ProviderFeed> started = source.fetch().compose(body -> vertx.executeBlocking(() -> read.apply(Payload.of(body, source.describe())), false));
    underWay.put(key, started);
    started.onComplete(ar -> underWay.remove(key, started));
    return started;
  }
}
