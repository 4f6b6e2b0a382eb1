package dev.gpurent.service;

import dev.gpurent.service.snapshots.SnapshotVerticle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.MutableClock;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.store.NightlySchedule;
import dev.gpurent.store.RealBooks;
import dev.gpurent.store.Retention;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot verticle on a real SQLite store, with a stand-in quote service answering
 * {@link Addresses#QUOTES_BOOK} and a clock the test moves: the nightly timer fires when the
 * clock reaches 02:30 in Shanghai, not before; no sleeping.
 */
class SnapshotVerticleTest {

  static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
  static final Instant JUST_BEFORE = Instant.parse("2026-02-28T18:29:59.950Z"); // 02:29:59.95 on March 1st

  Vertx vertx;
  SnapshotStore store;
  MutableClock clock;
  SnapshotVerticle verticle;
  final AtomicReference<QuoteBook> book = new AtomicReference<>();

  @TempDir
  Path tmp;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    vertx.eventBus().registerDefaultCodec(QuoteBook.class, new LocalCodec<>(QuoteBook.class));
    vertx.eventBus().consumer(Addresses.QUOTES_BOOK, msg -> msg.reply(book.get()));
    book.set(RealBooks.book(JUST_BEFORE));
    store = await(SnapshotStore.open(vertx, StoreSettings.sqlite(tmp.resolve("gpurent.db"))));
    clock = new MutableClock(JUST_BEFORE);
    // each timer at most 5 ms: the verticle looks at the clock that often, so moving the clock is enough
    verticle = new SnapshotVerticle(store, new NightlySchedule(LocalTime.of(2, 30), SHANGHAI), Retention.defaults(SHANGHAI), clock)
        .maxTimer(Duration.ofMillis(5));
    await(vertx.deployVerticle(verticle));
  }

  @AfterEach
  void stop() {
    await(vertx.undeploy(vertx.deploymentIDs().iterator().next()));
    await(store.close());
    await(vertx.close());
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) throw r;
      throw new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Completes once {@code condition} holds, checking every 10 ms on the event loop (fails after 10 s). */
  Future<Void> until(BooleanSupplier condition) {
    Promise<Void> p = Promise.promise();
    long started = System.nanoTime();
    vertx.setPeriodic(10, id -> {
      if (condition.getAsBoolean()) {
        vertx.cancelTimer(id);
        p.tryComplete();
      } else if (System.nanoTime() - started > TimeUnit.SECONDS.toNanos(10)) {
        vertx.cancelTimer(id);
        p.tryFail("condition not met in 10 s");
      }
    });
    return p.future();
  }

  <T> T request(String address, Object body) {
    return await(vertx.eventBus().<T>request(address, body).map(m -> m.body()));
  }

  ReplyException refusal(String address, Object body) {
    try {
      vertx.eventBus().request(address, body).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return assertInstanceOf(ReplyException.class, e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    throw new AssertionError("expected " + address + " to fail");
  }

  @Test
  void takes_the_nightly_snapshot_when_the_clock_reaches_0230_in_shanghai() {
    assertEquals(Instant.parse("2026-02-28T18:30:00Z"), verticle.due());
    // the timer keeps firing while the clock stands 50 ms short: nothing is taken
    await(until(() -> verticle.ticks() >= 5));
    assertEquals(null, verticle.lastNightly());
    assertEquals(List.of(), await(store.list(10, null)));

    clock.advance(Duration.ofMinutes(1));
    await(until(() -> verticle.lastNightly() != null && verticle.lastNightly().isComplete()));
    JsonObject run = await(verticle.lastNightly());
    assertEquals("2026-03-01", run.getString("slot"));
    assertTrue(run.getBoolean("created"));
    assertEquals(538, run.getInteger("quotes"));
    assertEquals(1, run.getJsonObject("retention").getInteger("examined"));
    assertEquals(Instant.parse("2026-03-01T18:30:00Z"), verticle.due(), "re-armed for the next night");
    assertEquals(Instant.parse("2026-02-28T18:31:00Z").minusMillis(50), await(store.list(1, null)).get(0).takenAt());

    // a day later (same quotes), the next night's slot; the first one is not taken again
    Future<JsonObject> first = verticle.lastNightly();
    clock.advance(Duration.ofDays(1));
    await(until(() -> verticle.lastNightly() != first && verticle.lastNightly().isComplete()));
    assertEquals("2026-03-02", await(verticle.lastNightly()).getString("slot"));
    assertEquals(List.of("2026-03-02", "2026-03-01"), await(store.list(10, null)).stream().map(m -> m.slot()).toList());
  }

  @Test
  void retries_a_failed_night_under_the_same_slot() {
    book.set(QuoteBook.of(List.of(), FxRates.none("USD"), JUST_BEFORE)); // the quote service has nothing yet
    clock.advance(Duration.ofMinutes(1));
    await(until(() -> verticle.lastNightly() != null && verticle.lastNightly().isComplete()));
    assertTrue(verticle.lastNightly().failed());
    assertEquals("no vendor has quotes yet: nothing to snapshot", verticle.lastNightly().cause().getMessage());
    assertEquals(Instant.parse("2026-02-28T18:36:00Z").minusMillis(50), verticle.due(), "retry in 5 minutes");

    book.set(RealBooks.book(JUST_BEFORE));
    Future<JsonObject> failed = verticle.lastNightly();
    clock.advance(Duration.ofMinutes(5));
    await(until(() -> verticle.lastNightly() != failed && verticle.lastNightly().isComplete()));
    assertEquals("2026-03-01", await(verticle.lastNightly()).getString("slot"));
    assertEquals(Instant.parse("2026-03-01T18:30:00Z"), verticle.due());
  }

  @Test
  void answers_take_list_get_diff_and_history() {
    JsonObject first = request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "2026-03-01"));
    assertEquals(Map.of("id", first.getLong("id"), "slot", "2026-03-01", "quotes", 538, "created", true, "partial", true,
        "carried", new JsonArray(), "left", new JsonArray().add("vast")), first.getMap());
    JsonObject again = request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "2026-03-01"));
    assertFalse(again.getBoolean("created"));
    assertEquals(first.getLong("id"), again.getLong("id"));

    // an on-demand one, a day later, with one price moved
    clock.advance(Duration.ofDays(1));
    // Lambda fetched anew (after the first snapshot, so its quotes are this fetch's, not carried), one price doubled
    dev.gpurent.quote.VendorQuotes lambda = RealBooks.edited(RealBooks.LAMBDA_QUOTES, l -> {
      l.set(0, RealBooks.repriced(l.get(0), l.get(0).price().amount().multiply(new java.math.BigDecimal("2")).toPlainString()));
      return l;
    });
    book.set(RealBooks.book(clock.instant(), RealBooks.RUNPOD_QUOTES, new dev.gpurent.quote.VendorQuotes(lambda.vendor(),
        lambda.displayName(), lambda.terms(), lambda.quotes(), lambda.rejected(), clock.instant(), lambda.note())));
    JsonObject manual = request(Addresses.SNAPSHOTS_TAKE, null);
    assertEquals("manual-" + clock.instant(), manual.getString("slot"));

    JsonArray list = request(Addresses.SNAPSHOTS_LIST, new JsonObject().put("limit", 10));
    assertEquals(List.of(manual.getLong("id"), first.getLong("id")), list.stream().map(o -> ((JsonObject) o).getLong("id")).toList());
    assertEquals("manual", list.getJsonObject(0).getString("kind"));
    JsonObject lambdaThen = list.getJsonObject(0).getJsonArray("vendors").getJsonObject(0);
    assertEquals("lambda", lambdaThen.getString("vendor"));
    assertEquals("stale", lambdaThen.getString("status"));
    assertFalse(lambdaThen.containsKey("terms"), "listings leave the terms out");
    JsonArray older = request(Addresses.SNAPSHOTS_LIST, new JsonObject().put("before", "2026-03-02"));
    assertEquals(1, older.size(), "before the start of March 2nd in Shanghai");

    JsonObject got = request(Addresses.SNAPSHOTS_GET, new JsonObject().put("id", first.getLong("id")));
    assertEquals(538, got.getJsonArray("quotes").size());
    assertTrue(got.getJsonArray("vendors").getJsonObject(0).getJsonObject("terms").containsKey("egressTiers"), "get keeps the terms");
    assertEquals("2026-03-01", got.getString("slot"));

    JsonObject diff = request(Addresses.SNAPSHOTS_DIFF, new JsonObject().put("id", manual.getLong("id")));
    assertEquals(1, diff.getJsonArray("changed").size());
    assertEquals(100.0, diff.getJsonArray("changed").getJsonObject(0).getDouble("percent"));
    assertEquals(537, diff.getInteger("unchanged"));

    String offer = RealBooks.LAMBDA_QUOTES.quotes().get(0).offerId();
    JsonArray history = request(Addresses.HISTORY, new JsonObject().put("vendor", "lambda").put("billing", "on-demand")
        .put("from", "2026-03-01").put("to", "2026-03-02"));
    JsonObject series = history.stream().map(o -> (JsonObject) o)
        .filter(s -> s.getString("offer").equals(offer) && s.getString("region").equals(RealBooks.LAMBDA_QUOTES.quotes().get(0).region()))
        .findFirst().orElseThrow();
    assertEquals(2, series.getJsonArray("points").size());

    ReplyException missing = refusal(Addresses.SNAPSHOTS_GET, new JsonObject().put("id", 999));
    assertEquals(404, missing.failureCode());
    assertEquals("no snapshot 999 (never taken, or deleted by retention)", error(missing));
    assertEquals(404, refusal(Addresses.SNAPSHOTS_DIFF, new JsonObject().put("id", first.getLong("id"))).failureCode());
    ReplyException badId = refusal(Addresses.SNAPSHOTS_GET, new JsonObject().put("id", "first"));
    assertEquals(400, badId.failureCode());
    assertEquals(new JsonObject().put("field", "id").put("reason", "a snapshot id (a positive whole number) is required, got 'first'"),
        new JsonObject(badId.getMessage()).getJsonArray("fields").getJsonObject(0));
    ReplyException badBilling = refusal(Addresses.HISTORY, new JsonObject().put("billing", "weekly"));
    assertEquals(400, badBilling.failureCode());
    assertTrue(new JsonObject(badBilling.getMessage()).getJsonArray("fields").getJsonObject(0).getString("reason")
        .startsWith("unknown billing mode 'weekly'"), badBilling.getMessage());
    assertEquals(400, refusal(Addresses.HISTORY, new JsonObject().put("from", "yesterday")).failureCode());
    assertEquals(400, refusal(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "two words")).failureCode());
  }

  @Test
  void take_fails_503_when_no_vendor_has_quotes() {
    book.set(QuoteBook.of(List.of(), FxRates.none("USD"), JUST_BEFORE));
    ReplyException e = refusal(Addresses.SNAPSHOTS_TAKE, null);
    assertEquals(503, e.failureCode());
    assertEquals("no vendor has quotes yet: nothing to snapshot", error(e));
  }

  @Test
  void a_snapshot_right_after_a_reload_carries_the_vendors_not_fetched_yet() {
    JsonObject first = request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "2026-03-01"));
    assertEquals(538, first.getInteger("quotes"));
    // after a reload, lambda has no quotes yet and runpod is fetched again
    Map<String, QuoteBook.Entry> m = new java.util.LinkedHashMap<>();
    m.put("runpod", new QuoteBook.Entry(RealBooks.RUNPOD_QUOTES, dev.gpurent.quote.Freshness.fresh()));
    book.set(new QuoteBook(m, Map.of("lambda", "no quotes yet: first fetch under way"), RealBooks.book(JUST_BEFORE).fx(), JUST_BEFORE));
    JsonObject second = request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "2026-03-02"));
    assertEquals(538, second.getInteger("quotes"), "the quotes lambda had, not 147");
    assertEquals(new JsonArray().add("lambda"), second.getJsonArray("carried"));
    JsonArray vendors = await(store.get(second.getLong("id"))).meta().vendors();
    JsonObject lambda = vendors.stream().map(JsonObject.class::cast).filter(v -> v.getString("vendor").equals("lambda")).findFirst().orElseThrow();
    assertEquals(first.getLong("id"), lambda.getLong("carriedFrom"));
  }

  @Test
  void a_snapshot_before_every_vendor_reported_is_partial_and_the_next_diff_does_not_call_them_added() {
    // a fresh store right after a start: only RunPod has answered
    Map<String, QuoteBook.Entry> m = new java.util.LinkedHashMap<>();
    m.put("runpod", new QuoteBook.Entry(RealBooks.RUNPOD_QUOTES, dev.gpurent.quote.Freshness.fresh()));
    Map<String, String> waiting = new java.util.LinkedHashMap<>();
    waiting.put("lambda", "no quotes yet: first fetch under way");
    waiting.put("vast", "no quotes yet: first fetch under way");
    book.set(new QuoteBook(m, waiting, RealBooks.FX, JUST_BEFORE));
    JsonObject early = request(Addresses.SNAPSHOTS_TAKE, new JsonObject().put("slot", "2026-03-01"));
    assertEquals(147, early.getInteger("quotes"));
    assertTrue(early.getBoolean("partial"));
    assertEquals(new JsonArray().add("lambda").add("vast"), early.getJsonArray("left"));
    JsonObject listed = this.<JsonArray>request(Addresses.SNAPSHOTS_LIST, null).getJsonObject(0);
    assertEquals(true, listed.getBoolean("partial"));
    assertEquals(new JsonArray().add("lambda").add("vast"), listed.getJsonArray("missing"));

    // Lambda reports; Vast still has not
    clock.advance(Duration.ofHours(1));
    book.set(RealBooks.book(clock.instant()));
    JsonObject later = request(Addresses.SNAPSHOTS_TAKE, null);
    assertEquals(538, later.getInteger("quotes"));
    assertEquals(new JsonArray().add("vast"), this.<JsonArray>request(Addresses.SNAPSHOTS_LIST, null).getJsonObject(0).getJsonArray("missing"));
    JsonObject diff = request(Addresses.SNAPSHOTS_DIFF, new JsonObject().put("id", later.getLong("id")));
    assertEquals(new JsonArray().add("lambda").add("vast"), diff.getJsonArray("skipped"));
    assertEquals(new JsonArray(), diff.getJsonArray("added"), "Lambda's 391 quotes had not been reported: not news");
    assertEquals(new JsonArray(), diff.getJsonArray("removed"));
    assertEquals(147, diff.getInteger("unchanged"));
    assertEquals(true, diff.getJsonObject("against").getBoolean("partial"));
  }

  /** A bus failure's {@code error} text (every failure is JSON {error, fields?}). */
  private static String error(ReplyException e) {
    return new JsonObject(e.getMessage()).getString("error");
  }
}
