package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.store.SnapshotStore.WriteResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every snapshot store must do, run against SQLite ({@link SqliteSnapshotStoreTest}) and a
 * real PostgreSQL ({@link PostgresSnapshotStoreTest}), on books built from the recorded RunPod
 * and Lambda payloads.
 */
abstract class SnapshotStoreContract {

  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  static final Instant T1 = Instant.parse("2026-02-28T18:30:00Z"); // 2026-03-01 02:30 in Shanghai
  static final Instant T2 = T1.plus(Duration.ofDays(1));
  static final Instant T3 = T2.plus(Duration.ofDays(1));

  static Vertx vertx;
  SnapshotStore store;
  StoreSettings settings;

  @TempDir
  Path tmp;

  /** Settings for an empty store of this kind. */
  abstract StoreSettings freshSettings(Path tmp);

  /** A plain JDBC connection to the same database, to look behind the store. */
  abstract Connection jdbc() throws SQLException;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @BeforeEach
  void open() {
    settings = freshSettings(tmp);
    store = await(SnapshotStore.open(vertx, settings));
  }

  @AfterEach
  void close() {
    await(store.close());
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static Throwable failure(Future<?> f) {
    try {
      f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    throw new AssertionError("expected a failure, got " + f.result());
  }

  static List<Quote> allQuotes(QuoteBook book) {
    return book.vendors().values().stream().flatMap(e -> e.quotes().quotes().stream()).toList();
  }

  static Quote find(List<Quote> quotes, String vendor, String offer, String region, Billing billing) {
    List<Quote> l = quotes.stream().filter(q -> q.vendor().equals(vendor) && q.offerId().equals(offer) && q.region().equals(region)
        && q.billing() == billing).toList();
    assertEquals(1, l.size(), vendor + " " + offer + " " + region + " " + billing);
    return l.get(0);
  }

  // ------------------------------------------------------------------ write and read

  @Test
  void a_sound_store_passes_its_integrity_check_and_a_refused_request_is_no_fault() {
    assertEquals(java.util.Optional.empty(), store.failing(), "the integrity check at open found the new store whole");
    await(store.write("2026-03-01", RealBooks.book(T1), T1));
    assertEquals(java.util.Optional.empty(), store.failing());
    // a request the store refuses (no such snapshot) is no database fault
    assertThrows(NoSuchSnapshotException.class, () -> await(store.get(999_999)));
    assertEquals(java.util.Optional.empty(), store.failing());
  }

  @Test
  void writes_a_real_book_and_reads_it_back_exactly() {
    QuoteBook book = RealBooks.book(T1);
    WriteResult w = await(store.write("2026-03-01", book, T1));
    assertTrue(w.created());
    assertEquals(147 + 391, w.quotes());
    assertEquals("2026-03-01", w.slot());

    Snapshot s = await(store.get(w.id()));
    // every field of every quote, in the order written; BigDecimal equals also compares the scale
    assertEquals(allQuotes(book), s.quotes());
    Quote v100 = find(s.quotes(), "lambda", "gpu_8x_v100_n", "europe-central-1", Billing.ON_DEMAND);
    assertEquals("6.32", v100.price().amount().toPlainString());
    assertEquals(8.0, v100.gpuCount());
    assertEquals("v100-16g", v100.gpuId());
    Quote h100 = find(s.quotes(), "runpod", "NVIDIA H100 80GB HBM3/secure", "", Billing.THREE_MONTHS);
    assertEquals(new BigDecimal("2.811"), h100.price().amount());
    assertEquals(PriceUnit.HOUR, h100.unit());
    Quote rtx = find(s.quotes(), "runpod", "NVIDIA GeForce RTX 4090/secure", "", Billing.SIX_MONTHS);
    assertEquals("0.6", rtx.price().amount().toPlainString(), "scale kept: 0.6, not 0.60");

    SnapshotMeta m = s.meta();
    assertEquals(w.id(), m.id());
    assertEquals(SnapshotMeta.SCHEDULED, m.kind());
    assertEquals(T1, m.takenAt());
    assertEquals(538, m.quoteCount());
    assertEquals("EUR", m.fx().getString("base"));
    assertEquals("2025-05-09", m.fx().getString("asOf"));
    assertEquals("1.1252", m.fx().getJsonObject("rates").getString("USD"));
    Map<String, JsonObject> vendors = m.vendors().stream().map(o -> (JsonObject) o)
        .collect(Collectors.toMap(v -> v.getString("vendor"), v -> v));
    assertEquals(Set.of("lambda", "runpod", "vast"), vendors.keySet());
    assertEquals("stale", vendors.get("lambda").getString("status"));
    assertEquals(2400, vendors.get("lambda").getLong("ageSeconds"));
    assertEquals("fresh", vendors.get("runpod").getString("status"));
    assertEquals(147, vendors.get("runpod").getInteger("quotes"));
    assertEquals(29, vendors.get("runpod").getInteger("rejectedCount"));
    assertEquals("unavailable", vendors.get("vast").getString("status"));
    assertEquals("offline, and no quotes were saved from an earlier fetch", vendors.get("vast").getString("reason"));

    JsonObject json = s.toJson();
    assertEquals(538, json.getJsonArray("quotes").size());
    assertEquals(538, json.getInteger("quoteCount"));
  }

  @Test
  void second_write_of_a_slot_is_a_no_op_that_answers_the_first() {
    WriteResult first = await(store.write("2026-03-01", RealBooks.book(T1), T1));
    QuoteBook other = QuoteBook.of(List.of(RealBooks.RUNPOD_QUOTES), RealBooks.FX, T2);
    WriteResult again = await(store.write("2026-03-01", other, T2));
    assertFalse(again.created());
    assertEquals(first.id(), again.id());
    assertEquals(538, again.quotes());
    assertEquals(1, await(store.list(100, null)).size());
    assertEquals(T1, await(store.get(first.id())).meta().takenAt());
    assertEquals(538, await(store.get(first.id())).quotes().size());
    assertEquals(first.id(), await(store.bySlot("2026-03-01")).orElseThrow().id());
    assertTrue(await(store.bySlot("2026-03-02")).isEmpty());
  }

  @Test
  void refuses_a_bad_slot() {
    Throwable e = failure(store.write("no spaces please", RealBooks.book(T1), T1));
    assertInstanceOf(IllegalArgumentException.class, e);
    assertTrue(e.getMessage().startsWith("slot: "), e.getMessage());
  }

  @Test
  void lists_newest_first_and_pages_with_before() {
    long a = await(store.write("2026-03-01", RealBooks.book(T1), T1)).id();
    long b = await(store.write("2026-03-02", RealBooks.book(T2), T2)).id();
    long c = await(store.write("manual-2026-03-03T02:30:00Z", RealBooks.book(T3), T3)).id();
    assertEquals(List.of(c, b, a), await(store.list(10, null)).stream().map(SnapshotMeta::id).toList());
    assertEquals(List.of(c, b), await(store.list(2, null)).stream().map(SnapshotMeta::id).toList());
    assertEquals(List.of(b, a), await(store.list(10, T3)).stream().map(SnapshotMeta::id).toList());
    assertEquals(SnapshotMeta.MANUAL, await(store.list(1, null)).get(0).kind());
    assertInstanceOf(IllegalArgumentException.class, failure(store.list(0, null)));
  }

  @Test
  void get_of_an_unknown_id_fails_not_found() {
    Throwable e = failure(store.get(424242));
    assertInstanceOf(NoSuchSnapshotException.class, e);
    assertEquals("no snapshot 424242 (never taken, or deleted by retention)", e.getMessage());
  }

  @Test
  void deletes_a_snapshot_with_its_quotes() throws SQLException {
    long a = await(store.write("2026-03-01", RealBooks.book(T1), T1)).id();
    long b = await(store.write("2026-03-02", RealBooks.book(T2), T2)).id();
    assertTrue(await(store.delete(a)));
    assertFalse(await(store.delete(a)));
    assertEquals(List.of(b), await(store.list(10, null)).stream().map(SnapshotMeta::id).toList());
    try (Connection c = jdbc(); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT snapshot_id, COUNT(*) FROM quotes GROUP BY snapshot_id")) {
      assertTrue(rs.next());
      assertEquals(b, rs.getLong(1));
      assertEquals(538, rs.getInt(2));
      assertFalse(rs.next());
    }
  }

  @Test
  void reopening_applies_each_migration_once() throws SQLException {
    await(store.write("2026-03-01", RealBooks.book(T1), T1));
    SnapshotStore again = await(SnapshotStore.open(vertx, settings));
    try {
      assertEquals(1, await(again.list(10, null)).size());
    } finally {
      await(again.close());
    }
    try (Connection c = jdbc(); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
      for (int v = 1; v <= 3; v++) {
        assertTrue(rs.next());
        assertEquals(v, rs.getInt(1));
      }
      assertFalse(rs.next(), "each migration (snapshots, alert deliveries, live scenarios) applied once");
    }
  }

  // ------------------------------------------------------------------ live scenarios

  @Test
  void keeps_live_scenarios_oldest_first_until_deleted() {
    ScenarioStore scenarios = store.scenarios();
    StoredScenario a = new StoredScenario("a-1", "10.0.0.1", T1, "{\"name\":\"a\",\"lang\":\"zh\"}");
    StoredScenario b = new StoredScenario("b-2", "10.0.0.2", T1.minusSeconds(60), "{\"name\":\"b\"}");
    await(scenarios.save(a));
    await(scenarios.save(b));
    assertEquals(List.of(b, a), await(scenarios.all()));
    assertThrows(Exception.class, () -> await(scenarios.save(new StoredScenario("a-1", "x", T1, "{}"))), "an id is never reused");
    assertTrue(await(scenarios.delete("b-2")));
    assertFalse(await(scenarios.delete("b-2")));
    SnapshotStore again = await(SnapshotStore.open(vertx, settings));
    try {
      assertEquals(List.of(a), await(again.scenarios().all()));
    } finally {
      await(again.close());
    }
  }

  // ------------------------------------------------------------------ diff

  @Test
  void diffs_price_changes_additions_and_removals_against_the_previous_snapshot() {
    QuoteBook before = RealBooks.book(T1);
    List<Quote> lambda = RealBooks.LAMBDA_QUOTES.quotes();
    Quote up = lambda.get(0);
    Quote down = lambda.get(1);
    Quote gone = lambda.get(2);
    Quote template = lambda.get(3);
    Quote added = new Quote(template.vendor(), template.region(), "gpu_1x_new_card", template.gpuId(), 1, 8, 32,
        Billing.ON_DEMAND, Money.of("1.99", "USD"), PriceUnit.HOUR, T2, template.source());
    String upPrice = up.price().amount().multiply(new BigDecimal("1.1")).toPlainString();
    String downPrice = down.price().amount().divide(BigDecimal.valueOf(2)).toPlainString();
    VendorQuotes lambda2 = RealBooks.edited(RealBooks.LAMBDA_QUOTES, l -> {
      l.set(0, RealBooks.repriced(up, upPrice));
      l.set(1, RealBooks.repriced(down, downPrice));
      l.remove(2);
      l.add(added);
      return l;
    });
    Quote rp = find(RealBooks.RUNPOD_QUOTES.quotes(), "runpod", "NVIDIA H100 80GB HBM3/secure", "", Billing.ON_DEMAND);
    VendorQuotes runpod2 = RealBooks.edited(RealBooks.RUNPOD_QUOTES, l -> {
      l.replaceAll(q -> q == rp ? RealBooks.repriced(q, "3.09") : q);
      return l;
    });
    long id1 = await(store.write("2026-03-01", before, T1)).id();
    long id2 = await(store.write("2026-03-02", RealBooks.book(T2, runpod2, lambda2), T2)).id();

    SnapshotDiff d = await(store.diff(id2, null));
    assertEquals(id2, d.snapshot().id());
    assertEquals(id1, d.against().id());
    Map<String, SnapshotDiff.Change> changed = d.changed().stream().collect(Collectors.toMap(c -> c.after().key(), c -> c));
    assertEquals(Set.of(up.key(), down.key(), rp.key()), changed.keySet());
    assertEquals(new BigDecimal("-50.00"), changed.get(down.key()).percent());
    assertEquals(new BigDecimal("10.00"), changed.get(up.key()).percent());
    assertEquals(new BigDecimal("3.34"), changed.get(rp.key()).percent(), "2.99 -> 3.09: +3.344...%");
    assertEquals(new BigDecimal("0.10"), changed.get(rp.key()).delta());
    assertEquals(down.key(), d.changed().get(0).after().key(), "largest move first");
    assertEquals(List.of(added), d.added());
    assertEquals(List.of(gone), d.removed());
    assertEquals(538 - 3 - 1, d.unchanged());

    JsonObject json = d.toJson();
    JsonObject first = json.getJsonArray("changed").getJsonObject(0);
    assertEquals(downPrice, first.getString("after"));
    assertEquals(down.price().amount().toPlainString(), first.getString("before"));
    assertEquals(-50.0, first.getDouble("percent"));
    assertEquals("gpu_1x_new_card", json.getJsonArray("added").getJsonObject(0).getString("offer"));
    assertEquals(gone.offerId(), json.getJsonArray("removed").getJsonObject(0).getString("offer"));

    // explicitly against a later one: the same changes, backwards
    SnapshotDiff back = await(store.diff(id1, id2));
    assertEquals(List.of(gone), back.added());
    assertEquals(List.of(added), back.removed());
    assertEquals(new BigDecimal("100.00"), back.changed().stream().filter(c -> c.after().key().equals(down.key()))
        .findFirst().orElseThrow().percent());

    Throwable oldest = failure(store.diff(id1, null));
    assertInstanceOf(NoSuchSnapshotException.class, oldest);
    assertEquals("snapshot " + id1 + " (2026-03-01) is the oldest of its origin: nothing before it to compare with", oldest.getMessage());
    assertInstanceOf(NoSuchSnapshotException.class, failure(store.diff(id2, 999_999L)));
    assertInstanceOf(IllegalArgumentException.class, failure(store.diff(id2, id2)));
  }

  @Test
  void diffs_only_against_a_snapshot_of_the_same_origin() {
    long fetched1 = await(store.write("2026-03-01", RealBooks.book(T1), T1)).id();
    long imported1 = await(store.write("market-2026-03-02", QuoteBook.of(List.of(RealBooks.RUNPOD_QUOTES), FxRates.none("USD"), T2), T2)).id();
    long fetched2 = await(store.write("manual-" + T3, RealBooks.book(T3), T3)).id();
    // a manual snapshot is fetched like a scheduled one: it skips the imported market day between them
    assertEquals(fetched1, await(store.diff(fetched2, null)).against().id());
    Throwable none = failure(store.diff(imported1, null));
    assertInstanceOf(NoSuchSnapshotException.class, none, "the fetched one before it is no market history");
    assertEquals("snapshot " + imported1 + " (market-2026-03-02) is the oldest of its origin: nothing before it to compare with",
        none.getMessage());
  }

  // ------------------------------------------------------------------ history

  @Test
  void history_gives_one_series_per_offer_across_snapshots() {
    Quote v100 = find(RealBooks.LAMBDA_QUOTES.quotes(), "lambda", "gpu_8x_v100_n", "europe-central-1", Billing.ON_DEMAND);
    String[] prices = {"6.32", "6.50", "6.32"};
    Instant[] at = {T1, T2, T3};
    for (int i = 0; i < 3; i++) {
      String p = prices[i];
      VendorQuotes lambda = RealBooks.edited(RealBooks.LAMBDA_QUOTES, l -> {
        l.replaceAll(q -> q == v100 ? RealBooks.repriced(q, p) : q);
        return l;
      });
      await(store.write("h" + i, RealBooks.book(at[i], RealBooks.RUNPOD_QUOTES, lambda), at[i]));
    }
    List<PriceSeries> series = await(store.history(new HistoryQuery("v100-16g", "lambda", Billing.ON_DEMAND, null, null)));
    long offers = RealBooks.LAMBDA_QUOTES.quotes().stream()
        .filter(q -> q.gpuId().equals("v100-16g") && q.billing() == Billing.ON_DEMAND).count();
    assertEquals(offers, series.size());
    assertTrue(series.stream().allMatch(s -> s.vendor().equals("lambda") && s.gpu().equals("v100-16g")
        && s.billing().equals("on-demand") && s.points().size() == 3 && s.currency().equals("USD") && s.unit().equals("hour")));
    PriceSeries s = series.stream().filter(x -> x.offer().equals("gpu_8x_v100_n") && x.region().equals("europe-central-1"))
        .findFirst().orElseThrow();
    assertEquals(List.of(new PriceSeries.Point(T1, new BigDecimal("6.32")), new PriceSeries.Point(T2, new BigDecimal("6.50")),
        new PriceSeries.Point(T3, new BigDecimal("6.32"))), s.points());
    assertEquals("6.50", s.toJson().getJsonArray("points").getJsonObject(1).getString("price"));
    assertEquals(8.0, s.gpuCount(), "gpu_8x_v100_n is an 8-GPU machine");
    assertEquals(8.0, s.toJson().getDouble("gpuCount"));

    PriceSeries fromT2 = await(store.history(new HistoryQuery("v100-16g", "lambda", null, T2, null))).stream()
        .filter(x -> x.offer().equals("gpu_8x_v100_n") && x.region().equals("europe-central-1") && x.billing().equals("on-demand"))
        .findFirst().orElseThrow();
    assertEquals(List.of(T2, T3), fromT2.points().stream().map(PriceSeries.Point::at).toList());
    List<PriceSeries> untilT2 = await(store.history(new HistoryQuery(null, "runpod", null, null, T2)));
    assertEquals(147, untilT2.size(), "one series per RunPod quote, one point each");
    assertTrue(untilT2.stream().allMatch(x -> x.points().size() == 1 && x.points().get(0).at().equals(T1)));
    assertTrue(await(store.history(new HistoryQuery("no-such-gpu", null, null, null, null))).isEmpty());
  }

  // ------------------------------------------------------------------ retention

  static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

  /** One small snapshot a day at 02:30 Shanghai, for {@code days} days before {@link #NOW}; returns id by day. */
  Map<Long, LocalDate> daily(int days) {
    NightlySchedule schedule = new NightlySchedule(java.time.LocalTime.of(2, 30), SHANGHAI);
    Quote q = RealBooks.LAMBDA_QUOTES.quotes().get(0);
    VendorQuotes one = RealBooks.edited(RealBooks.LAMBDA_QUOTES, l -> new ArrayList<>(List.of(q)));
    Map<Long, LocalDate> ids = new java.util.HashMap<>();
    LocalDate today = NOW.atZone(SHANGHAI).toLocalDate();
    List<Future<WriteResult>> writes = new ArrayList<>();
    for (int d = days; d >= 1; d--) {
      Instant at = schedule.on(today.minusDays(d));
      writes.add(store.write(schedule.slotOf(at), QuoteBook.of(List.of(one), RealBooks.FX, at), at));
    }
    for (int i = 0; i < writes.size(); i++) ids.put(await(writes.get(i)).id(), today.minusDays(days - i));
    return ids;
  }

  @Test
  void retention_keeps_every_day_for_90_days_then_one_a_week_until_730_days() {
    Map<Long, LocalDate> ids = daily(800);
    RetentionReport r = await(store.retain(new Retention(90, true, 730, SHANGHAI), NOW));
    Set<Long> kept = new HashSet<>(await(store.list(1000, null)).stream().map(SnapshotMeta::id).toList());
    Set<Long> expected = new HashSet<>();
    for (Map.Entry<Long, LocalDate> e : ids.entrySet()) {
      Instant at = new NightlySchedule(java.time.LocalTime.of(2, 30), SHANGHAI).on(e.getValue());
      Duration age = Duration.between(at, NOW);
      // with one snapshot a day, the latest of each ISO week is Sunday's
      boolean keep = age.compareTo(Duration.ofDays(90)) <= 0
          || age.compareTo(Duration.ofDays(730)) <= 0 && e.getValue().getDayOfWeek() == DayOfWeek.SUNDAY;
      if (keep) expected.add(e.getKey());
    }
    assertEquals(expected, kept);
    // taken at 18:30 UTC, 5.5 h before NOW's time of day: the 89 latest days are within 90 x 24 h,
    // then come the Sundays of the days 90 to 729 back
    assertEquals(89 + 92, kept.size());
    assertEquals(800, r.examined());
    assertEquals(800 - kept.size(), r.deleted());
    assertEquals(800 - kept.size(), r.deletedQuotes());
    assertEquals(2, r.batches(), "619 deletions, at most 500 per transaction");
    RetentionReport again = await(store.retain(new Retention(90, true, 730, SHANGHAI), NOW));
    assertEquals(0, again.deleted(), "a second pass finds nothing to do");
  }

  @Test
  void retention_without_weekly_keeps_only_the_daily_window_but_never_the_last_snapshot() {
    daily(30);
    RetentionReport r = await(store.retain(new Retention(7, false, 730, SHANGHAI), NOW));
    assertEquals(24, r.deleted(), "the 6 latest days are within 7 x 24 h");
    assertEquals(6, await(store.list(1000, null)).size());
    // a long-dead store keeps its newest snapshot
    RetentionReport later = await(store.retain(new Retention(7, false, 730, SHANGHAI), NOW.plus(Duration.ofDays(1000))));
    assertEquals(5, later.deleted());
    assertEquals(1, await(store.list(1000, null)).size());
  }

  // ------------------------------------------------------------------ latest

  @Test
  void latest_rebuilds_each_vendors_quotes_with_terms_and_skips_imported_history() {
    assertTrue(await(store.latest()).isEmpty());
    QuoteBook book = RealBooks.book(T1);
    long id = await(store.write("manual-" + T1, book, T1)).id();
    // imported market history taken later must not be what a restart serves
    await(store.write("market-2026-03-05", QuoteBook.of(List.of(RealBooks.RUNPOD_QUOTES), FxRates.none("USD"), T3), T3));

    LatestSnapshot latest = await(store.latest()).orElseThrow();
    assertEquals(id, latest.id());
    assertEquals(T1, latest.takenAt());
    assertEquals(Set.of("lambda", "runpod"), latest.vendors().keySet());
    for (VendorQuotes original : List.of(RealBooks.RUNPOD_QUOTES, RealBooks.LAMBDA_QUOTES)) {
      VendorQuotes back = latest.vendors().get(original.vendor());
      assertEquals(original.quotes(), back.quotes());
      assertEquals(original.terms(), back.terms());
      assertEquals(original.displayName(), back.displayName());
      assertEquals(original.note(), back.note());
      assertEquals(original.fetchedAt(), back.fetchedAt());
      assertEquals(original.rejected().subList(0, Math.min(20, original.rejected().size())), back.rejected());
    }
    assertEquals(new BigDecimal("1.1252"), latest.fx().rate("EUR", "USD").orElseThrow());
    assertEquals(RealBooks.FX.source(), latest.fx().source());
    assertEquals(LocalDate.of(2025, 5, 9), latest.fx().asOf());
    assertEquals(0, new BigDecimal("7.2405").compareTo(latest.fx().rate("USD", "CNY").orElseThrow()
        .setScale(4, RoundingMode.HALF_UP)), "CNY per USD through EUR");
  }

  // ------------------------------------------------------------------ alert deliveries

  @Test
  void an_alert_is_claimed_once_updated_and_listed_newest_first_then_deleted_with_its_scenario() {
    AlertDelivery first = new AlertDelivery("s1:0:2026-03-01T00:00:00Z", "s1", 0, "winnerChanged", "slack", AlertDelivery.PENDING, 0,
        null, T1, T1, "{\"key\":\"s1:0:2026-03-01T00:00:00Z\"}");
    assertTrue(await(store.claimAlert(first)));
    assertFalse(await(store.claimAlert(first)), "the same key is claimed once");
    AlertDelivery second = new AlertDelivery("s1:1:baseline", "s1", 1, "totalBelow", "json", AlertDelivery.PENDING, 0, null, T2, T2, "{}");
    assertTrue(await(store.claimAlert(second)));
    assertTrue(await(store.claimAlert(new AlertDelivery("s2:0:baseline", "s2", 0, "vendorDated", "wecom", AlertDelivery.PENDING, 0,
        null, T1, T1, "{}"))));
    await(store.updateAlert(first.key(), AlertDelivery.PENDING, 1, "answered 500 rollup_error", T2));
    await(store.updateAlert(first.key(), AlertDelivery.DELIVERED, 2, null, T3));

    assertEquals(List.of(second, new AlertDelivery(first.key(), "s1", 0, "winnerChanged", "slack", AlertDelivery.DELIVERED, 2, null,
        T1, T3, first.eventJson())), await(store.alerts("s1", 10)));
    assertEquals(List.of(second), await(store.alerts("s1", 1)));
    assertEquals(2, await(store.deleteAlerts("s1")));
    assertEquals(List.of(), await(store.alerts("s1", 10)));
    assertEquals(1, await(store.alerts("s2", 10)).size(), "another scenario's log stays");
  }
}
