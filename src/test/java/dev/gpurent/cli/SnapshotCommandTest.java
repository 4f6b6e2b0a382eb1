package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.cli.CliTest.Result;
import dev.gpurent.quote.Billing;
import dev.gpurent.store.HistoryQuery;
import dev.gpurent.store.PriceSeries;
import dev.gpurent.store.SnapshotMeta;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code snapshot} and {@code import-history} as a cron job meets them: output, exit status, idempotency. */
class SnapshotCommandTest {

  static final Path MARKET = Path.of("../shared/data/market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");

  private final List<Path> roots = new java.util.ArrayList<>();

  /** A root of its own with only the guide's reference sheet (see {@link CliTest#guideOnly()}), removed after the test. */
  String root() {
    String r = CliTest.guideOnly();
    roots.add(Path.of(r));
    return r;
  }

  @org.junit.jupiter.api.AfterEach
  void removeRoots() throws java.io.IOException {
    for (Path r : roots) {
      try (java.util.stream.Stream<Path> files = Files.walk(r)) {
        for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
      }
    }
  }

  static <T> T withStore(Path db, Function<SnapshotStore, Future<T>> work) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      SnapshotStore store = SnapshotStore.open(vertx, StoreSettings.sqlite(db))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      try {
        return work.apply(store).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } finally {
        store.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void snapshot_writes_one_snapshot_into_the_default_store_and_a_rerun_of_the_slot_writes_nothing() throws Exception {
    String root = root();
    Result r = CliTest.run("snapshot", "--root=" + root, "--offline", "--slot", "2026-03-01");
    assertEquals(0, r.status(), r.err());
    Path db = Path.of(root, "data/gpurent.db");
    assertTrue(Files.isRegularFile(db), "store.path is taken from the root");
    assertTrue(r.out().startsWith("snapshot 1 (slot 2026-03-01): 12 quotes written to sqlite:" + db + "\n"), r.out());
    assertTrue(r.out().contains("  guide-reference           12 quotes  fresh\n"), r.out());
    assertTrue(r.out().contains("retention: deleted 0 of 1 snapshots (0 quotes)"), r.out());
    assertTrue(r.err().contains("gpurent: guide-reference: 12 quotes, fresh"), r.err());

    Result again = CliTest.run("snapshot", "--root=" + root, "--offline", "--slot", "2026-03-01");
    assertEquals(0, again.status(), again.err());
    assertEquals("slot 2026-03-01 already has snapshot 1 (12 quotes) in sqlite:" + db + "; nothing written\n", again.out());

    Result manual = CliTest.run("snapshot", "--root=" + root, "--offline", "--no-retention");
    assertEquals(0, manual.status(), manual.err());
    assertTrue(manual.out().matches("(?s)snapshot \\d+ \\(slot manual-20[0-9T:.-]+Z\\): 12 quotes written.*"), manual.out());
    List<SnapshotMeta> all = withStore(db, s -> s.list(10, null));
    assertEquals(List.of(SnapshotMeta.MANUAL, SnapshotMeta.SCHEDULED), all.stream().map(SnapshotMeta::kind).toList());
  }

  @Test
  void snapshot_exits_1_when_no_vendor_produced_quotes(@TempDir Path tmp) throws Exception {
    String root = root();
    Path adapters = Files.createDirectories(tmp.resolve("adapters"));
    Files.writeString(adapters.resolve("lambda.yaml"), Files.readString(Path.of("adapters/lambda.yaml"))
        .replaceAll("(?m)^source:.*$", "source: " + tmp.resolve("missing.csv")));
    Result r = CliTest.run("snapshot", "--root=" + root, "--offline", "--adapters=" + adapters, "--store=" + tmp.resolve("s.db"));
    assertEquals(1, r.status(), r.out() + r.err());
    assertTrue(r.err().endsWith("gpurent: snapshot: no vendor produced quotes; nothing written\n"), r.err());
    assertEquals("", r.out());
    assertTrue(Files.notExists(tmp.resolve("s.db")), "nothing opened, nothing written");
  }

  @Test
  void snapshot_exits_1_when_the_store_cannot_be_reached_and_2_on_bad_input(@TempDir Path tmp) {
    String root = root();
    Result down = CliTest.run("snapshot", "--root=" + root, "--offline", "--store=jdbc:postgresql://127.0.0.1:1/gpurent");
    assertEquals(1, down.status(), down.err());
    assertTrue(down.err().contains("gpurent: snapshot: postgresql://127.0.0.1:1/gpurent: "), down.err());

    Result slot = CliTest.run("snapshot", "--root=" + root, "--offline", "--slot", "next tuesday");
    assertEquals(2, slot.status());
    assertEquals("gpurent: slot: 1 to 100 letters, digits or . _ : + - (e.g. 2026-03-01), got 'next tuesday'\n", slot.err());
    Result url = CliTest.run("snapshot", "--root=" + root, "--offline", "--store=jdbc:mysql://db/gpurent");
    assertEquals(2, url.status());
    assertEquals("gpurent: store.url: expected a jdbc:postgresql: or jdbc:sqlite: URL, got 'jdbc:mysql://db/gpurent'\n", url.err());
  }

  @Test
  void import_history_makes_one_snapshot_per_date_at_bundle_medians_and_skips_them_next_time(@TempDir Path tmp) throws Exception {
    String root = root();
    Path db = tmp.resolve("history.db");
    Result r = CliTest.run("import-history", "--root=" + root, "--store=" + db, "--every=50", MARKET.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().startsWith("imported " + MARKET + " into sqlite:" + db + ": 110 dates (2026-02-11 to 2026-05-31); "
        + "110 snapshots written ("), r.out());
    assertTrue(r.err().contains("gpurent: import-history: 50 of 110 dates (to 2026-04-01): 50 written, 0 already there"), r.err());
    assertTrue(r.err().contains("gpurent: import-history: 110 of 110 dates (to 2026-05-31): 110 written, 0 already there"), r.err());

    Result again = CliTest.run("import-history", "--root=" + root, "--store=" + db, MARKET.toString());
    assertEquals(0, again.status(), again.err());
    assertTrue(again.out().contains("; 0 snapshots written (0 quotes), 110 dates already imported;"), again.out());

    List<PriceSeries> h100 = withStore(db, s -> s.history(new HistoryQuery("h100-sxm", "lambda", Billing.ON_DEMAND, null, null)));
    PriceSeries x8 = h100.stream().filter(s -> s.offer().equals("H100_SXM x8")).findFirst().orElseThrow();
    assertEquals("", x8.region(), "'global' is no region");
    Map<LocalDate, BigDecimal> byDay = new java.util.TreeMap<>();
    x8.points().forEach(p -> byDay.put(LocalDate.ofInstant(p.at(), ZoneOffset.UTC), p.price()));
    assertEquals(new BigDecimal("23.92"), byDay.get(LocalDate.of(2026, 2, 11)), "a bundle price before 2026-02-19");
    assertEquals(new BigDecimal("27.52"), byDay.get(LocalDate.of(2026, 2, 19)), "3.44 per GPU x 8 from 2026-02-19");
    List<SnapshotMeta> latest = withStore(db, s -> s.list(1, null));
    assertEquals("market-2026-05-31", latest.get(0).slot());
    assertEquals(SnapshotMeta.IMPORT, latest.get(0).kind());
    assertEquals(Instant.parse("2026-05-31T00:00:00Z"), latest.get(0).takenAt());
    assertTrue(withStore(db, SnapshotStore::latest).isEmpty(), "imported history never warms a restart");
  }

  @Test
  void import_history_exits_2_on_a_file_that_is_not_observations(@TempDir Path tmp) throws Exception {
    Path bad = Files.writeString(tmp.resolve("bad.csv"), "a,b,c\n1,2,3\n");
    Result r = CliTest.run("import-history", "--root=" + root(), "--store=" + tmp.resolve("x.db"), bad.toString());
    assertEquals(2, r.status());
    assertTrue(r.err().startsWith("gpurent: not a market observations CSV: header lacks date, provider"), r.err());
    assertEquals(2, CliTest.run("import-history", "--store=" + tmp.resolve("x.db"), tmp.resolve("none.csv").toString()).status());
  }
}
