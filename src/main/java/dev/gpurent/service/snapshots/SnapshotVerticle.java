package dev.gpurent.service.snapshots;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.Failures;
import dev.gpurent.service.LocalCodec;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.store.CurrentBook;
import dev.gpurent.store.HistoryQuery;
import dev.gpurent.store.NightlySchedule;
import dev.gpurent.store.NoSuchSnapshotException;
import dev.gpurent.store.Retention;
import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Takes a price snapshot every night at the configured local time ({@code snapshot: {at, zone}}),
 * then applies the retention policy; takes one on demand; and answers the snapshot and history
 * addresses ({@link Addresses#SNAPSHOTS_TAKE}, {@link Addresses#SNAPSHOTS_LIST},
 * {@link Addresses#SNAPSHOTS_GET}, {@link Addresses#SNAPSHOTS_DIFF}, {@link Addresses#HISTORY}).
 *
 * <p>It reads the current book by request-reply on {@link Addresses#QUOTES_BOOK} and listens to
 * nothing else. The nightly timer is computed from the injected clock and re-armed at every
 * firing (at most an hour ahead, so a wall clock that jumps is noticed), so DST days of 23 or 25
 * hours are handled by {@link NightlySchedule}; a nightly run that fails (no quotes yet, database
 * down) is retried every {@link #RETRY} for up to {@link #RETRY_FOR}, under the same slot, so
 * a retry never duplicates. All database work runs on the store's worker pool.
 */
public final class SnapshotVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(SnapshotVerticle.class.getName());

  /** The longest single timer. */
  static final Duration MAX_TIMER = Duration.ofHours(1);
  static final Duration RETRY = Duration.ofMinutes(5);
  static final Duration RETRY_FOR = Duration.ofHours(6);
  private static final Instant EARLIEST = Instant.EPOCH, LATEST = Instant.parse("9999-12-31T23:59:59Z");

  private final SnapshotStore store;
  private final NightlySchedule schedule;
  private final Retention retention;
  private final Clock clock;
  private long timer = -1;
  private Instant firstTry;
  private Duration maxTimer = MAX_TIMER;
  // read by tests and status pages from other threads
  private volatile Instant due;
  private volatile Future<JsonObject> lastNightly;
  private volatile long ticks;
  private volatile boolean stopped;

  /**
   * @param store     open; the caller closes it after undeploying
   * @param retention applied after each nightly snapshot
   */
  public SnapshotVerticle(SnapshotStore store, NightlySchedule schedule, Retention retention, Clock clock) {
    this.store = store;
    this.schedule = schedule;
    this.retention = retention;
    this.clock = clock;
  }

  /** With the schedule and retention of the whole configuration's {@code snapshot} and {@code store} sections. */
  public static SnapshotVerticle fromConfig(SnapshotStore store, JsonObject config, Clock clock) {
    JsonObject c = config == null ? new JsonObject() : config;
    return new SnapshotVerticle(store, NightlySchedule.from(c.getJsonObject("snapshot")),
        StoreSettings.from(c, Map.of()).retention(), clock);
  }

  @Override
  public Future<?> start() {
    var bus = vertx.eventBus();
    for (LocalCodec<?> codec : List.of(JSON_OBJECT, JSON_ARRAY)) {
      try {
        bus.registerCodec(codec);
      } catch (IllegalStateException alreadyRegistered) {
        // another instance of this verticle registered it first
      }
    }
    bus.<Object>localConsumer(Addresses.SNAPSHOTS_STATUS, msg -> msg.reply(new JsonObject().put("available", store.unavailable().isEmpty())
        .put("error", store.unavailable().orElse(null)).put("failing", store.failing().orElse(null))));
    bus.<Object>localConsumer(Addresses.SNAPSHOTS_TAKE, msg -> answer(msg, body -> take(text(optionalBody(body), "slot"))
        .map(SnapshotStore.WriteResult::toJson)));
    bus.<Object>localConsumer(Addresses.SNAPSHOTS_LIST, msg -> answer(msg, body -> {
      JsonObject b = optionalBody(body);
      int limit = integer(b, "limit", 30);
      Instant before = instant(b, "before", false);
      return store.list(limit, before).map(l -> {
        JsonArray out = new JsonArray();
        l.forEach(m -> out.add(m.summary()));
        return out;
      });
    }));
    bus.<Object>localConsumer(Addresses.SNAPSHOTS_GET, msg -> answer(msg, body -> store.get(id(requiredBody(body), "id"))
        .compose(s -> offLoop(s::toJson))));
    bus.<Object>localConsumer(Addresses.SNAPSHOTS_DIFF, msg -> answer(msg, body -> {
      JsonObject b = requiredBody(body);
      long id = id(b, "id");
      Long against = b.getValue("against") == null ? null : id(b, "against");
      return store.diff(id, against).compose(d -> offLoop(d::toJson));
    }));
    bus.<Object>localConsumer(Addresses.HISTORY, msg -> answer(msg, body -> {
      JsonObject b = optionalBody(body);
      String billing = text(b, "billing");
      HistoryQuery q = new HistoryQuery(text(b, "gpu"), text(b, "vendor"), billing == null ? null : billing(billing),
          instant(b, "from", false), instant(b, "to", true));
      String currency = text(b, "currency");
      return store.history(q).compose(series -> book().compose(book -> offLoop(() -> new HistoryAnswer(vendorNames(book),
          book == null ? null : book.fx(), currency).toJson(series))));
    }));
    arm(schedule.next(clock.instant()));
    LOG.info(() -> "snapshots: " + schedule + " into " + store.describe() + "; next at " + due);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    if (timer >= 0) vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }

  /** Snapshots the current quote book as {@code slot} (null: {@code manual-<now>}). */
  public Future<SnapshotStore.WriteResult> take(String slot) {
    Instant now = clock.instant();
    String s = slot == null ? "manual-" + now : slot;
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null)
        .recover(e -> Future.failedFuture(new Failures.Refused(503, "no quote book to snapshot: the quote pipeline is not answering")))
        .compose(m -> {
          QuoteBook book = m.body();
          if (book == null || book.quoteCount() == 0) {
            return Future.failedFuture(new Failures.Refused(503, "no vendor has quotes yet: nothing to snapshot"));
          }
          // Only current quotes are news; the rest come from the previous snapshot, and say so.
          return store.latest().otherwise(java.util.Optional.empty()).compose(previous -> {
            CurrentBook current = CurrentBook.of(book, previous);
            if (current.book().quoteCount() == 0) {
              return Future.failedFuture(new Failures.Refused(503, "no vendor has current quotes yet: nothing to snapshot"));
            }
            if (!current.carriedFrom().isEmpty() || !current.left().isEmpty()) {
              LOG.info(() -> "snapshot " + s + ": carried from the previous snapshot " + current.carriedFrom().keySet()
                  + "; left out (not current, never snapshotted) " + current.left());
            }
            return store.write(s, current.book(), now, current.carriedFrom()).map(w -> new Taken(w, current));
          });
        })
        .map(t -> t.write().withCarried(t.current().carriedFrom().keySet(), t.current().left()));
  }

  private record Taken(SnapshotStore.WriteResult write, CurrentBook current) {}

  /** The current book for history's vendor ids and FX rates, or null while the quote pipeline is not answering. */
  private Future<QuoteBook> book() {
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(Message::body).otherwiseEmpty();
  }

  private static Map<String, String> vendorNames(QuoteBook book) {
    Map<String, String> names = new java.util.HashMap<>();
    if (book != null) book.vendors().forEach((id, e) -> names.put(id, e.quotes().displayName()));
    return names;
  }

  // ------------------------------------------------------------------ nightly

  /** Caps each timer at {@code d} instead of an hour (tests that move the clock by hand use a few ms). */
  public SnapshotVerticle maxTimer(Duration d) {
    this.maxTimer = d;
    return this;
  }

  /** Timer firings so far, due or not (for tests). */
  public long ticks() {
    return ticks;
  }

  /** When the next nightly run is due (for tests and status). */
  public Instant due() {
    return due;
  }

  /** The last nightly run's outcome (the write and the retention report), complete once the next run is armed; null before the first. */
  public Future<JsonObject> lastNightly() {
    return lastNightly;
  }

  private void arm(Instant target) {
    if (stopped) return; // a run that ends after undeploy arms nothing
    due = target;
    long ms = Duration.between(clock.instant(), target).toMillis();
    timer = vertx.setTimer(Math.max(1, Math.min(ms, maxTimer.toMillis())), id -> tick());
  }

  private void tick() {
    timer = -1;
    ticks++;
    Instant now = clock.instant();
    if (now.isBefore(due)) { // one step of a long wait, or the clock moved back: not yet
      arm(due);
      return;
    }
    String slot = schedule.slotOf(schedule.previous(now));
    if (firstTry == null) firstTry = now;
    lastNightly = take(slot)
        .compose(w -> store.retain(retention, clock.instant()).map(r -> {
          LOG.info(() -> "snapshot " + w.id() + " of " + slot + ": " + w.quotes() + " quotes" + (w.created() ? "" : " (already taken)")
              + "; retention deleted " + r.deleted() + " of " + r.examined() + " snapshots");
          return w.toJson().put("retention", r.toJson());
        }))
        .andThen(ar -> { // lastNightly completes once the next run is armed
          Instant after = clock.instant();
          if (ar.succeeded() || Duration.between(firstTry, after).compareTo(RETRY_FOR) >= 0) {
            if (ar.failed()) LOG.log(Level.WARNING, "nightly snapshot " + slot + " failed; giving up until the next night", ar.cause());
            firstTry = null;
            arm(schedule.next(after));
          } else {
            LOG.warning(() -> "nightly snapshot " + slot + " failed (" + ar.cause().getMessage() + "); retrying in " + RETRY.toMinutes() + " min");
            arm(after.plus(RETRY));
          }
        });
  }

  // ------------------------------------------------------------------ request handling

  /**
   * Replies travel by reference: the JSON codec would deep-copy a 100,000-quote snapshot on the
   * receiving event loop. The requester owns the reply; nothing here keeps it.
   */
  private static final LocalCodec<JsonObject> JSON_OBJECT = new LocalCodec<>(JsonObject.class);
  private static final LocalCodec<JsonArray> JSON_ARRAY = new LocalCodec<>(JsonArray.class);

  private static void answer(Message<Object> msg, Function<Object, Future<?>> handler) {
    Future<?> f;
    try {
      f = handler.apply(msg.body());
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onSuccess(r -> msg.reply(r, new DeliveryOptions().setCodecName(r instanceof JsonArray ? JSON_ARRAY.name() : JSON_OBJECT.name())))
        .onFailure(e -> Failures.fail(msg, e instanceof java.sql.SQLException sql ? unreadable(sql) : e));
  }

  /** A database that fails a read or write: 503, naming the store (never its absolute path) and what to do. */
  private static Failures.Refused unreadable(java.sql.SQLException e) {
    LOG.log(Level.WARNING, "snapshot store failure", e);
    return new Failures.Refused(503, "history unavailable: the snapshot store failed (" + dev.gpurent.config.UserText.withoutPaths(
        String.valueOf(e.getMessage())) + "); check the store, or move a corrupt SQLite file aside and restart");
  }

  /** Builds a large reply on a worker thread, not on this verticle's event loop. */
  private <T> Future<T> offLoop(java.util.concurrent.Callable<T> build) {
    return vertx.executeBlocking(build, false);
  }

  private static JsonObject optionalBody(Object body) {
    if (body == null) return new JsonObject();
    if (body instanceof JsonObject j) return j;
    throw new IllegalArgumentException("body: expected a JSON object");
  }

  private static JsonObject requiredBody(Object body) {
    if (body instanceof JsonObject j) return j;
    throw new IllegalArgumentException("body: expected a JSON object with an id");
  }

  private static String text(JsonObject b, String key) {
    Object v = b.getValue(key);
    if (v == null) return null;
    if (!(v instanceof String s) || s.isBlank() || s.length() > 200) throw new InvalidInputException(key, "expected text");
    return s.trim();
  }

  private static Billing billing(String text) {
    try {
      return Billing.parse(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("billing", dev.gpurent.config.UserText.withoutPaths(e.getMessage()));
    }
  }

  private static long id(JsonObject b, String key) {
    Object v = b.getValue(key);
    if (v instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() > 0) return n.longValue();
    if (v instanceof String s && s.matches("\\d{1,18}")) return Long.parseLong(s);
    throw new InvalidInputException(key, "a snapshot id (a positive whole number) is required, got "
        + (v instanceof String t ? "'" + (t.length() > 40 ? t.substring(0, 40) + "..." : t) + "'" : String.valueOf(v)));
  }

  private static int integer(JsonObject b, String key, int dflt) {
    Object v = b.getValue(key);
    if (v == null) return dflt;
    if (v instanceof Number n && n.doubleValue() == n.intValue()) return n.intValue();
    if (v instanceof String s && s.matches("\\d{1,9}")) return Integer.parseInt(s);
    throw new InvalidInputException(key, "must be a whole number");
  }

  /**
   * An ISO instant, or a date in the schedule's zone: its start, or with {@code endOfDay} the start
   * of the next day (so "to": "2026-03-31" includes March 31st).
   */
  private Instant instant(JsonObject b, String key, boolean endOfDay) {
    String s = text(b, key);
    if (s == null) return null;
    Instant at;
    try {
      if (s.length() == 10) {
        LocalDate d = LocalDate.parse(s);
        at = (endOfDay ? d.plusDays(1) : d).atStartOfDay(schedule.zone()).toInstant();
      } else {
        at = Instant.parse(s);
      }
    } catch (DateTimeException e) {
      throw new InvalidInputException(key, "expected a date (2026-03-01) or an ISO instant (2026-03-01T02:30:00Z), got '"
          + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'");
    }
    // Stored as epoch milliseconds: a year past these would overflow them.
    if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) throw new InvalidInputException(key, "must be between the years 1970 and 9999");
    return at;
  }
}
