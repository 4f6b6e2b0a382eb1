package dev.gpurent.store;

import dev.gpurent.quote.QuoteBook;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Dated price snapshots: each one the whole {@link QuoteBook} at one instant, written in one
 * transaction with its metadata, so that a snapshot is either complete or absent. One snapshot per
 * slot (e.g. {@code 2026-03-01} for a nightly run): writing a slot again is a no-op that answers the
 * existing snapshot.
 *
 * <p>Every method runs its JDBC work on the {@code gpurent-store} worker pool, never on an event
 * loop, and completes on the caller's context. Failures: {@link NoSuchSnapshotException} for an
 * unknown id, {@link IllegalArgumentException} for a bad request, anything else for a database
 * fault.
 */
public interface SnapshotStore {

  /** Opens (creating or migrating as needed) the store the settings name: SQLite by default, PostgreSQL for a jdbc:postgresql: URL. */
  static Future<SnapshotStore> open(Vertx vertx, StoreSettings settings) {
    return settings.postgres() ? PostgresSnapshotStore.open(vertx, settings) : SqliteSnapshotStore.open(vertx, settings);
  }

  /**
   * Writes the book as the snapshot of {@code slot}, taken at {@code takenAt}. When the slot already
   * has a snapshot nothing is written and the reply says {@code created = false}.
   */
  Future<WriteResult> write(String slot, QuoteBook book, Instant takenAt);

  /**
   * As {@link #write(String, QuoteBook, Instant)}, recording for each vendor in {@code carriedFrom}
   * that its quotes were carried from that earlier snapshot ({@code "carriedFrom": id} in its
   * vendor entry), not fetched for this one.
   */
  default Future<WriteResult> write(String slot, QuoteBook book, Instant takenAt, java.util.Map<String, Long> carriedFrom) {
    return write(slot, book, takenAt);
  }

  /** The snapshot of this slot, if any. */
  Future<Optional<SnapshotMeta>> bySlot(String slot);

  /** Up to {@code limit} snapshots taken before {@code before} (null: no bound), newest first. */
  Future<List<SnapshotMeta>> list(int limit, Instant before);

  /** One snapshot with every quote, in the order written; fails with {@link NoSuchSnapshotException}. */
  Future<Snapshot> get(long id);

  /**
   * What changed from {@code against} (null: the snapshot of the same origin, imported or fetched,
   * taken just before {@code id}) to {@code id}: prices that moved, offers added and removed.
   */
  Future<SnapshotDiff> diff(long id, Long against);

  /** A price series per offer over the snapshots the query selects. */
  Future<List<PriceSeries>> history(HistoryQuery query);

  /**
   * Deletes what the policy no longer keeps, in bounded batches (one transaction each), as of
   * {@code now}; the newest snapshot is always kept.
   */
  Future<RetentionReport> retain(Retention policy, Instant now);

  /** Deletes one snapshot and its quotes in one transaction; false when there was none. */
  Future<Boolean> delete(long id);

  /**
   * The newest complete snapshot of fetched quotes (not imported market history), rebuilt as each
   * vendor's {@link dev.gpurent.quote.VendorQuotes}, for warming a restarted service.
   */
  Future<Optional<LatestSnapshot>> latest();

  // ------------------------------------------------------------------ alert deliveries

  /**
   * Claims an event for delivery by inserting its row under its UNIQUE key: true when this call
   * inserted it (deliver it), false when it was there already (another node, or an earlier run,
   * has it).
   */
  Future<Boolean> claimAlert(AlertDelivery delivery);

  /** Records how a claimed event's delivery stands. */
  Future<Void> updateAlert(String key, String status, int attempts, String lastError, Instant at);

  /** Up to {@code limit} deliveries of a scenario, newest first. */
  Future<List<AlertDelivery>> alerts(String scenario, int limit);

  /** Deletes a scenario's delivery log; the number of rows deleted. */
  Future<Integer> deleteAlerts(String scenario);

  /** The live scenarios kept beside the snapshots, in the same database ({@link ScenarioStore#none()} when there is none). */
  default ScenarioStore scenarios() {
    return ScenarioStore.none();
  }

  /** Why this store cannot be used, or empty when it can (see {@link UnavailableStore}). */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /**
   * Why this store, open, is failing now, or empty when it is not: its integrity check at open
   * found damage (kept until a restart), or its last database operation failed (until a later one
   * succeeds). {@code /health} names it.
   */
  default Optional<String> failing() {
    return Optional.empty();
  }

  /** Where the snapshots live, for messages (never a password). */
  String describe();

  Future<Void> close();

  /** The outcome of {@link #write}. */
  record WriteResult(long id, String slot, int quotes, boolean created, List<String> carried, List<String> left) {
    public WriteResult(long id, String slot, int quotes, boolean created) {
      this(id, slot, quotes, created, List.of(), List.of());
    }

    /** The same, saying which vendors' quotes were carried from the previous snapshot and which were left out. */
    public WriteResult withCarried(java.util.Collection<String> carried, List<String> left) {
      return new WriteResult(id, slot, quotes, created, List.copyOf(carried), List.copyOf(left));
    }

    /** {@code partial}: some vendor is in neither the book nor the previous snapshot ({@code left}), so the snapshot lacks it. */
    public io.vertx.core.json.JsonObject toJson() {
      return new io.vertx.core.json.JsonObject().put("id", id).put("slot", slot).put("quotes", quotes).put("created", created)
          .put("partial", !left.isEmpty())
          .put("carried", new io.vertx.core.json.JsonArray(carried)).put("left", new io.vertx.core.json.JsonArray(left));
    }
  }
}
