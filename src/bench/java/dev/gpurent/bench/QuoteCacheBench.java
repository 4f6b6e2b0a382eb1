package dev.gpurent.bench;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The quote pipeline's read path: a get of a present vendor from the Caffeine AsyncLoadingCache
 * (keyed by vendor id, as QuoteVerticle holds it), bridged to a Vert.x Future with
 * {@code Future.fromCompletionStage} as QuoteVerticle bridges its refreshes; the synchronous view's
 * {@code getIfPresent} that republish() uses; and building a QuoteBook (which pre-computes price
 * arrays, GPU slots and offer modes) from 20 vendors holding 2,400 and 120,000 quotes in all.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class QuoteCacheBench {

  /** 20 vendors of 120 quotes each, every one loaded once. */
  @State(Scope.Benchmark)
  public static class CacheState {
    AsyncLoadingCache<String, VendorQuotes> cache;
    String key;

    @Setup(Level.Trial)
    public void setUp() {
      GpuCatalog catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
      QuoteBook book = SyntheticBook.build(catalog, 20, 30, 1);
      Map<String, VendorQuotes> byVendor = new LinkedHashMap<>();
      book.vendors().forEach((id, e) -> byVendor.put(id, e.quotes()));
      // Direct executor: a load completes in place (QuoteVerticle runs them on its event loop).
      cache = Caffeine.newBuilder().executor(Runnable::run)
          .buildAsync((vendor, executor) -> CompletableFuture.completedFuture(byVendor.get(vendor)));
      byVendor.keySet().forEach(k -> cache.get(k).join());
      key = "vendor-07";
    }
  }

  /** The vendors' quotes of a book of {@code quotes} quotes, ready to be assembled into a new book. */
  @State(Scope.Benchmark)
  public static class BookState {
    @Param({"2400", "120000"})
    public int quotes;

    Map<String, QuoteBook.Entry> entries;
    FxRates fx;
    Instant at;

    @Setup(Level.Trial)
    public void setUp() {
      GpuCatalog catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
      QuoteBook book = SyntheticBook.build(catalog, 20, 30, quotes / 2400);
      if (book.quoteCount() != quotes) throw new IllegalStateException("built " + book.quoteCount() + " quotes");
      entries = new LinkedHashMap<>(book.vendors());
      fx = book.fx();
      at = book.builtAt();
    }
  }

  @Benchmark
  public VendorQuotes cacheGetBridged(CacheState s) {
    Future<VendorQuotes> f = Future.fromCompletionStage(s.cache.get(s.key));
    return f.result();
  }

  @Benchmark
  public CompletableFuture<VendorQuotes> cacheGetRaw(CacheState s) {
    return s.cache.get(s.key);
  }

  @Benchmark
  public VendorQuotes cacheGetIfPresentSync(CacheState s) {
    return s.cache.synchronous().getIfPresent(s.key);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public QuoteBook bookBuild(BookState s) {
    return new QuoteBook(s.entries, s.fx, s.at);
  }
}
