package dev.gpurent.store;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How quotes and snapshots are rows, both ways, on the caller's connection and in the caller's
 * transaction. Columns follow {@link SqlQueries#QUOTE_COLUMNS} and {@link SqlQueries#SNAPSHOT_COLUMNS};
 * a price is stored as the exact decimal string, an instant as epoch milliseconds (snapshots) or
 * ISO-8601 (a quote's observed time), as they always have been.
 */
final class SnapshotRows {

  /** Quote rows per executeBatch. */
  static final int BATCH_ROWS = 5_000;

  private static final Map<String, Billing> BILLING = new HashMap<>();
  private static final Map<String, PriceUnit> UNIT = new HashMap<>();

  static {
    for (Billing b : Billing.values()) BILLING.put(b.wire(), b);
    for (PriceUnit u : PriceUnit.values()) UNIT.put(u.wire(), u);
  }

  private SnapshotRows() {}

  /** Inserts every quote of the book under snapshot {@code id}, numbered in book order; returns how many. */
  static int insertQuotes(Connection c, long id, QuoteBook book) throws SQLException {
    int seq = 0;
    try (PreparedStatement ps = c.prepareStatement(SqlQueries.INSERT_QUOTE)) {
      int pending = 0;
      for (QuoteBook.Entry e : book.vendors().values()) {
        for (Quote q : e.quotes().quotes()) {
          ps.setLong(1, id);
          ps.setInt(2, seq++);
          ps.setString(3, q.vendor());
          ps.setString(4, q.region());
          ps.setString(5, q.offerId());
          ps.setString(6, q.gpuId());
          ps.setDouble(7, q.gpuCount());
          ps.setDouble(8, q.vcpus());
          ps.setDouble(9, q.ramGiB());
          ps.setString(10, q.billing().wire());
          ps.setString(11, q.price().amount().toPlainString());
          ps.setString(12, q.price().currency());
          ps.setString(13, q.unit().wire());
          if (q.observedAt() == null) ps.setNull(14, Types.VARCHAR);
          else ps.setString(14, q.observedAt().toString());
          ps.setString(15, q.source());
          ps.addBatch();
          if (++pending == BATCH_ROWS) {
            ps.executeBatch();
            pending = 0;
          }
        }
      }
      if (pending > 0) ps.executeBatch();
    }
    return seq;
  }

  /** Snapshot {@code id}'s quotes, in the order written. */
  static List<Quote> quotes(Connection c, long id) throws SQLException {
    List<Quote> out = new ArrayList<>();
    // a snapshot repeats its sources, times and currencies thousands of times: parse each once, hold each once
    Map<String, Instant> instants = new HashMap<>();
    Map<String, String> strings = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(SqlQueries.QUOTES_OF)) {
      ps.setLong(1, id);
      ps.setFetchSize(5_000);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String billing = rs.getString(8);
          String unit = rs.getString(11);
          String observed = rs.getString(12);
          out.add(new Quote(shared(strings, rs.getString(1)), shared(strings, rs.getString(2)), rs.getString(3),
              shared(strings, rs.getString(4)), rs.getDouble(5), rs.getDouble(6), rs.getDouble(7),
              BILLING.containsKey(billing) ? BILLING.get(billing) : Billing.parse(billing),
              new Money(new BigDecimal(rs.getString(9)), shared(strings, rs.getString(10))),
              UNIT.containsKey(unit) ? UNIT.get(unit) : PriceUnit.parse(unit),
              observed == null ? null : instants.computeIfAbsent(observed, Instant::parse), shared(strings, rs.getString(13))));
        }
      }
    }
    return out;
  }

  private static String shared(Map<String, String> seen, String s) {
    if (s == null) return null;
    String prev = seen.putIfAbsent(s, s);
    return prev == null ? s : prev;
  }

  /** The first snapshot a statement selecting {@link SqlQueries#SNAPSHOT_COLUMNS} finds, with {@code args} bound. */
  static Optional<SnapshotMeta> first(Connection c, String sql, Object... args) throws SQLException {
    List<SnapshotMeta> l = metas(c, sql, args);
    return l.isEmpty() ? Optional.empty() : Optional.of(l.get(0));
  }

  /** The snapshots a statement selecting {@link SqlQueries#SNAPSHOT_COLUMNS} finds, with {@code args} bound. */
  static List<SnapshotMeta> metas(Connection c, String sql, Object... args) throws SQLException {
    List<SnapshotMeta> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new SnapshotMeta(rs.getLong(1), rs.getString(2), rs.getString(3), Instant.ofEpochMilli(rs.getLong(4)),
              rs.getInt(5), new JsonObject(rs.getString(6)), new JsonArray(rs.getString(7))));
        }
      }
    }
    return out;
  }

  /** Every snapshot, finished or not, as {@link RetentionPlan} sees it. */
  static List<RetentionPlan.Stored> stored(Connection c) throws SQLException {
    List<RetentionPlan.Stored> l = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlQueries.RETENTION_CANDIDATES)) {
      while (rs.next()) {
        l.add(new RetentionPlan.Stored(rs.getLong(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getLong(3), rs.getInt(4) == 1));
      }
    }
    return l;
  }

  static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
  }
}
