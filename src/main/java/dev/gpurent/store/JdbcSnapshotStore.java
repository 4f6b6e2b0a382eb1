package dev.gpurent.store;

import dev.gpurent.quote.QuoteBook;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The snapshot store over plain JDBC; the two databases differ only in how they connect and lock
 * for migrations, and in the few words of their {@link SqlQueries.Dialect}. Each operation is
 * written once, as blocking JDBC on one connection in one transaction, and reaches the database
 * only through {@link #tx}, on the {@code gpurent-store} worker pool. Its statements are
 * {@link SqlQueries}', its rows {@link SnapshotRows}', its JSON columns {@link SnapshotJson}'s and
 * what retention drops {@link RetentionPlan}'s.
 *
 * <p>A snapshot's row is inserted first (its UNIQUE slot makes a second write of the slot a no-op),
 * then its quotes in batches of {@value SnapshotRows#BATCH_ROWS}, then it is marked complete with
 * its quote count; all in one transaction, so a crash at any point leaves the snapshot absent or
 * whole. Readers only ever see complete snapshots.
 */
abstract class JdbcSnapshotStore extends JdbcWork implements SnapshotStore {

  /** Retention deletes at most this many snapshots per transaction... */
  static final int RETENTION_BATCH_SNAPSHOTS = 500;
  /** ...and at most about this many quote rows (but always at least one snapshot). */
  static final long RETENTION_BATCH_ROWS = 200_000;

  JdbcSnapshotStore(Vertx vertx, int threads, boolean ordered, SqlQueries.Dialect dialect) {
    super(vertx, threads, ordered, dialect);
  }

  // ------------------------------------------------------------------ write

  @Override
  public Future<WriteResult> write(String slot, QuoteBook book, Instant takenAt) {
    return write(slot, book, takenAt, Map.of());
  }

  @Override
  public Future<WriteResult> write(String slot, QuoteBook book, Instant takenAt, Map<String, Long> carriedFrom) {
    return run(() -> {
      SnapshotMeta.checkSlot(slot);
      // encoded before the transaction: the connection is held for SQL only
      String fx = SnapshotJson.fx(book.fx()).encode();
      String vendors = SnapshotJson.vendors(book, carriedFrom).encode();
      return inTransaction(c -> {
        int inserted;
        try (PreparedStatement ps = c.prepareStatement(SqlQueries.INSERT_SNAPSHOT)) {
          ps.setString(1, slot);
          ps.setString(2, SnapshotMeta.kindOf(slot));
          ps.setLong(3, takenAt.toEpochMilli());
          ps.setString(4, fx);
          ps.setString(5, vendors);
          inserted = ps.executeUpdate();
        }
        long id;
        int existingCount;
        try (PreparedStatement ps = c.prepareStatement(SqlQueries.SLOT_ID_AND_COUNT)) {
          ps.setString(1, slot);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) throw new SQLException("snapshot of slot '" + slot + "' vanished while being written");
            id = rs.getLong(1);
            existingCount = rs.getInt(2);
          }
        }
        if (inserted == 0) return new WriteResult(id, slot, existingCount, false);
        int n = SnapshotRows.insertQuotes(c, id, book);
        try (PreparedStatement ps = c.prepareStatement(SqlQueries.COMPLETE_SNAPSHOT)) {
          ps.setInt(1, n);
          ps.setLong(2, id);
          ps.executeUpdate();
        }
        return new WriteResult(id, slot, n, true);
      });
    });
  }

  // ------------------------------------------------------------------ read

  @Override
  public Future<Optional<SnapshotMeta>> bySlot(String slot) {
    return tx(c -> SnapshotRows.first(c, SqlQueries.SNAPSHOT_BY_SLOT, slot));
  }

  @Override
  public Future<List<SnapshotMeta>> list(int limit, Instant before) {
    return tx(c -> {
      if (limit < 1 || limit > 1000) throw new IllegalArgumentException("limit: 1 to 1000 snapshots, was " + limit);
      return before == null ? SnapshotRows.metas(c, SqlQueries.LIST, limit)
          : SnapshotRows.metas(c, SqlQueries.LIST_BEFORE, before.toEpochMilli(), limit);
    });
  }

  @Override
  public Future<Snapshot> get(long id) {
    return tx(c -> new Snapshot(byId(c, id), SnapshotRows.quotes(c, id)));
  }

  @Override
  public Future<SnapshotDiff> diff(long id, Long against) {
    return tx(c -> {
      SnapshotMeta now = byId(c, id);
      SnapshotMeta then;
      if (against != null) {
        if (against == id) throw new IllegalArgumentException("against: a snapshot cannot be compared with itself (" + id + ")");
        then = byId(c, against);
      } else {
        long at = now.takenAt().toEpochMilli();
        then = SnapshotRows.first(c, SqlQueries.PREVIOUS, now.kind(), now.kind(), at, at, now.id()).orElseThrow(() -> new NoSuchSnapshotException(
            "snapshot " + id + " (" + now.slot() + ") is the oldest of its origin: nothing before it to compare with"));
      }
      return SnapshotDiff.of(now, SnapshotRows.quotes(c, now.id()), then, SnapshotRows.quotes(c, then.id()));
    });
  }

  @Override
  public Future<List<PriceSeries>> history(HistoryQuery query) {
    return tx(c -> {
      SqlQueries.Bound sql = SqlQueries.history(query);
      List<PriceSeries> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql.sql())) {
        SnapshotRows.bind(ps, sql.args().toArray());
        ps.setFetchSize(5_000);
        try (ResultSet rs = ps.executeQuery()) {
          String[] key = null;
          double gpus = 0;
          List<PriceSeries.Point> points = new ArrayList<>();
          int n = 0;
          while (rs.next()) {
            if (++n > HistoryQuery.MAX_POINTS) {
              throw new IllegalArgumentException("history: more than " + HistoryQuery.MAX_POINTS
                  + " prices match; narrow it by gpu, vendor, billing, from or to");
            }
            String[] k = {rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                rs.getString(8)};
            if (key != null && !Arrays.equals(key, k)) {
              out.add(series(key, gpus, points));
              points = new ArrayList<>();
            }
            key = k;
            gpus = rs.getDouble(10);
            points.add(new PriceSeries.Point(Instant.ofEpochMilli(rs.getLong(1)), new BigDecimal(rs.getString(9))));
          }
          if (key != null) out.add(series(key, gpus, points));
        }
      }
      return out;
    });
  }

  private static PriceSeries series(String[] k, double gpuCount, List<PriceSeries.Point> points) {
    return new PriceSeries(k[0], k[1], k[2], k[3], gpuCount, k[4], k[5], k[6], points);
  }

  @Override
  public Future<Optional<LatestSnapshot>> latest() {
    return tx(c -> {
      Optional<SnapshotMeta> newest = SnapshotRows.first(c, SqlQueries.NEWEST_NOT_OF_KIND, SnapshotMeta.IMPORT);
      if (newest.isEmpty()) return Optional.empty();
      SnapshotMeta m = newest.get();
      return Optional.of(new LatestSnapshot(m.id(), m.slot(), m.takenAt(),
          SnapshotJson.vendorQuotes(m, SnapshotRows.quotes(c, m.id())), SnapshotJson.fxRates(m.fx())));
    });
  }

  private static SnapshotMeta byId(Connection c, long id) throws SQLException {
    return SnapshotRows.first(c, SqlQueries.SNAPSHOT_BY_ID, id)
        .orElseThrow(() -> new NoSuchSnapshotException("no snapshot " + id + " (never taken, or deleted by retention)"));
  }

  // ------------------------------------------------------------------ retention and deletes

  @Override
  public Future<Boolean> delete(long id) {
    return tx(c -> deleteIds(c, List.of(id))[0] > 0);
  }

  /**
   * Plans in one read, then deletes batch by batch, each batch a transaction of its own and a task
   * of its own on the worker pool, so other store work runs between batches.
   */
  @Override
  public Future<RetentionReport> retain(Retention policy, Instant now) {
    return tx(c -> RetentionPlan.of(policy, SnapshotRows.stored(c), now)).compose(plan -> {
      Future<RetentionReport> done = Future.succeededFuture(new RetentionReport(plan.examined(), 0, 0, 0));
      for (List<RetentionPlan.Doomed> batch : plan.batches(RETENTION_BATCH_SNAPSHOTS, RETENTION_BATCH_ROWS)) {
        List<Long> ids = batch.stream().map(RetentionPlan.Doomed::id).toList();
        done = done.compose(r -> tx(c -> {
          long[] n = deleteIds(c, ids);
          return new RetentionReport(r.examined(), r.deleted() + (int) n[0], r.deletedQuotes() + n[1], r.batches() + 1);
        }));
      }
      return done;
    });
  }

  /**
   * Deletes snapshots and their quotes in the caller's transaction (a write first, so that SQLite
   * takes its write lock at once); returns {snapshots, quote rows} deleted.
   */
  private static long[] deleteIds(Connection c, List<Long> ids) throws SQLException {
    try (PreparedStatement q = c.prepareStatement(SqlQueries.deleteQuotes(ids.size()));
         PreparedStatement s = c.prepareStatement(SqlQueries.deleteSnapshots(ids.size()))) {
      for (int i = 0; i < ids.size(); i++) {
        q.setLong(i + 1, ids.get(i));
        s.setLong(i + 1, ids.get(i));
      }
      long quotes = q.executeUpdate();
      return new long[] {s.executeUpdate(), quotes};
    }
  }

  // ------------------------------------------------------------------ alert deliveries

  @Override
  public Future<Boolean> claimAlert(AlertDelivery d) {
    return tx(c -> {
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.CLAIM_ALERT)) {
        SnapshotRows.bind(ps, d.key(), d.scenario(), d.rule(), d.when(), d.channel(), d.status(), d.attempts(), d.lastError(),
            d.createdAt().toEpochMilli(), d.updatedAt().toEpochMilli(), d.eventJson());
        return ps.executeUpdate() == 1;
      }
    });
  }

  @Override
  public Future<Void> updateAlert(String key, String status, int attempts, String lastError, Instant at) {
    return tx(c -> {
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.UPDATE_ALERT)) {
        SnapshotRows.bind(ps, status, attempts, lastError, at.toEpochMilli(), key);
        ps.executeUpdate();
        return null;
      }
    });
  }

  @Override
  public Future<List<AlertDelivery>> alerts(String scenario, int limit) {
    return tx(c -> {
      if (limit < 1 || limit > 1000) throw new IllegalArgumentException("limit: 1 to 1000 deliveries, was " + limit);
      List<AlertDelivery> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.ALERTS_OF)) {
        SnapshotRows.bind(ps, scenario, limit);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new AlertDelivery(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), rs.getString(8), Instant.ofEpochMilli(rs.getLong(9)),
                Instant.ofEpochMilli(rs.getLong(10)), rs.getString(11)));
          }
        }
      }
      return out;
    });
  }

  @Override
  public Future<Integer> deleteAlerts(String scenario) {
    return tx(c -> {
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.DELETE_ALERTS)) {
        ps.setString(1, scenario);
        return ps.executeUpdate();
      }
    });
  }

  // ------------------------------------------------------------------ live scenarios

  @Override
  public ScenarioStore scenarios() {
    return new JdbcScenarioStore(this);
  }

  @Override
  public Future<Void> close() {
    return run(() -> {
      closeConnections();
      return null;
    }).<Void>mapEmpty().eventually(this::closeWorker);
  }
}
