package dev.gpurent.bench;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.LocalCodec;
import dev.gpurent.service.snapshots.SnapshotVerticle;
import dev.gpurent.store.NightlySchedule;
import dev.gpurent.store.Retention;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Snapshot write speed, without JMH: a quote book of 100,000 quotes (SyntheticBook: 25 vendors x
 * 50 GPUs x 4 billing modes x 20 regions) snapshotted through the SnapshotVerticle
 * ({@code gpurent.snapshots.take}) into a fresh SQLite file (WAL, synchronous=FULL), several
 * times, printing rows/s and elapsed ms per run. Meanwhile the blocked-thread checker watches the
 * event loops every 20 ms with a 100 ms limit, and a 10 ms periodic timer measures how late the
 * event loop runs: both must stay quiet, since every JDBC call runs on the store's worker.
 *
 * <p>Arguments: [rows per snapshot, a multiple of 4,000 (default 100000)] [runs (default 5)].
 */
public final class SnapshotBench {

  private SnapshotBench() {}

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    if (rows % 4_000 != 0) throw new IllegalArgumentException("rows: a multiple of 4,000 (25 vendors x 40 cards x 4 modes)");
    Path dir = Files.createTempDirectory("gpurent-snapshot-bench");
    Path db = dir.resolve("gpurent.db");
    QuoteBook book = SyntheticBook.build(GpuCatalog.load(Path.of("config/gpus.yaml")), 25, 40, rows / 4_000);
    if (book.quoteCount() != rows) throw new IllegalStateException("built " + book.quoteCount() + " quotes");

    Vertx vertx = Vertx.vertx(new VertxOptions()
        .setMaxEventLoopExecuteTime(100).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
        .setBlockedThreadCheckInterval(20).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS));
    List<BlockedThreadEvent> blocked = new CopyOnWriteArrayList<>();
    ((VertxInternal) vertx).blockedThreadChecker().setThreadBlockedHandler(e -> {
      if (e.thread().getName().startsWith("vert.x-eventloop")) blocked.add(e);
    });
    vertx.eventBus().registerDefaultCodec(QuoteBook.class, new LocalCodec<>(QuoteBook.class));
    vertx.eventBus().consumer(Addresses.QUOTES_BOOK, msg -> msg.reply(book));
    ZoneId zone = ZoneId.of("Asia/Shanghai");
    SnapshotStore store = await(SnapshotStore.open(vertx, StoreSettings.sqlite(db)));
    await(vertx.deployVerticle(new SnapshotVerticle(store, new NightlySchedule(LocalTime.of(2, 30), zone),
        Retention.defaults(zone), Clock.systemUTC())));

    // how late a 10 ms timer fires on an event loop: the loop's own latency while snapshots are written
    AtomicLong maxLagMs = new AtomicLong();
    long[] last = {System.nanoTime()};
    long lagTimer = vertx.setPeriodic(10, id -> {
      long now = System.nanoTime();
      maxLagMs.accumulateAndGet((now - last[0]) / 1_000_000 - 10, Math::max);
      last[0] = now;
    });

    System.out.printf(Locale.ROOT, "snapshot bench: %,d quotes per snapshot, %d runs, SQLite WAL synchronous=FULL, %s%n", rows, runs, db);
    List<Long> times = new ArrayList<>();
    for (int i = 1; i <= runs; i++) {
      long t0 = System.nanoTime();
      JsonObject w = await(vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "bench-" + i),
          new DeliveryOptions().setSendTimeout(TimeUnit.MINUTES.toMillis(10))).map(m -> m.body()));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      if (!w.getBoolean("created") || w.getInteger("quotes") != rows) throw new IllegalStateException("unexpected reply " + w);
      times.add(ms);
      System.out.printf(Locale.ROOT, "run %d: snapshot %d, %,d rows in %,d ms = %,.0f rows/s%n", i, w.getLong("id"), rows, ms,
          rows * 1000.0 / Math.max(ms, 1));
    }
    // reading back: the newest snapshot whole, and its diff against the one before (same quotes: all unchanged)
    long g0 = System.nanoTime();
    JsonObject newest = await(vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_LIST, new JsonObject().put("limit", 1))
        .map(m -> ((io.vertx.core.json.JsonArray) (Object) m.body()).getJsonObject(0)));
    JsonObject got = await(vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_GET, new JsonObject().put("id", newest.getLong("id")),
        new DeliveryOptions().setSendTimeout(TimeUnit.MINUTES.toMillis(10))).map(m -> m.body()));
    long getMs = (System.nanoTime() - g0) / 1_000_000;
    long d0 = System.nanoTime();
    JsonObject diff = runs < 2 ? null : await(vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_DIFF,
        new JsonObject().put("id", newest.getLong("id")), new DeliveryOptions().setSendTimeout(TimeUnit.MINUTES.toMillis(10))).map(m -> m.body()));
    long diffMs = (System.nanoTime() - d0) / 1_000_000;
    System.out.printf(Locale.ROOT, "get of %,d quotes as JSON: %,d ms; diff of two: %s%n", got.getJsonArray("quotes").size(), getMs,
        diff == null ? "-" : String.format(Locale.ROOT, "%,d ms (%,d unchanged)", diffMs, diff.getInteger("unchanged")));
    vertx.cancelTimer(lagTimer);
    List<Long> sorted = times.stream().sorted().toList();
    long median = sorted.get(sorted.size() / 2);
    long bytes;
    try (Stream<Path> files = Files.list(dir)) {
      bytes = files.mapToLong(p -> p.toFile().length()).sum();
    }
    System.out.printf(Locale.ROOT, "median %,d ms = %,.0f rows/s; best %,d ms = %,.0f rows/s; database %,d MB for %d snapshots%n",
        median, rows * 1000.0 / median, sorted.get(0), rows * 1000.0 / sorted.get(0), bytes / 1_000_000, runs);
    System.out.printf(Locale.ROOT, "blocked event-loop events: %d; worst event-loop lag: %d ms%n", blocked.size(), maxLagMs.get());
    blocked.stream().sorted(Comparator.comparing(BlockedThreadEvent::toString)).limit(3).forEach(e -> System.out.println("  " + e));
    await(store.close());
    await(vertx.close());
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) Files.delete(p);
    }
    Files.delete(dir);
    if (!blocked.isEmpty()) System.exit(1);
  }
}
