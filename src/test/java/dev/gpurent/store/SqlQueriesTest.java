package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gpurent.quote.Billing;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one schema definition builds, word for word, the tables each database was built with before
 * there was one (a shipped migration must never change), and dynamic statements bind what they say.
 */
class SqlQueriesTest {

  /** Migration 1 for SQLite as shipped, copied from SqliteSnapshotStore before the schema was shared. */
  static final List<String> SQLITE_V1 = List.of(
      "CREATE TABLE snapshots ( id INTEGER PRIMARY KEY AUTOINCREMENT, slot TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
          + " taken_at INTEGER NOT NULL, quote_count INTEGER NOT NULL, complete INTEGER NOT NULL, fx_json TEXT NOT NULL,"
          + " vendors_json TEXT NOT NULL)",
      "CREATE INDEX snapshots_taken_at ON snapshots (taken_at)",
      "CREATE TABLE quotes ( snapshot_id INTEGER NOT NULL REFERENCES snapshots (id), seq INTEGER NOT NULL,"
          + " vendor TEXT NOT NULL, region TEXT NOT NULL, offer TEXT NOT NULL, gpu TEXT NOT NULL,"
          + " gpu_count REAL NOT NULL, vcpus REAL NOT NULL, ram_gib REAL NOT NULL, billing TEXT NOT NULL,"
          + " price TEXT NOT NULL, currency TEXT NOT NULL, unit TEXT NOT NULL, observed_at TEXT, source TEXT NOT NULL,"
          + " PRIMARY KEY (snapshot_id, seq))",
      "CREATE INDEX quotes_gpu ON quotes (gpu)",
      "CREATE INDEX quotes_vendor ON quotes (vendor)");

  /** Migration 1 for PostgreSQL as shipped, copied from PostgresSnapshotStore before the schema was shared. */
  static final List<String> POSTGRES_V1 = List.of(
      "CREATE TABLE snapshots ( id BIGSERIAL PRIMARY KEY, slot TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
          + " taken_at BIGINT NOT NULL, quote_count INTEGER NOT NULL, complete INTEGER NOT NULL, fx_json TEXT NOT NULL,"
          + " vendors_json TEXT NOT NULL)",
      "CREATE INDEX snapshots_taken_at ON snapshots (taken_at)",
      "CREATE TABLE quotes ( snapshot_id BIGINT NOT NULL REFERENCES snapshots (id), seq INTEGER NOT NULL,"
          + " vendor TEXT NOT NULL, region TEXT NOT NULL, offer TEXT NOT NULL, gpu TEXT NOT NULL,"
          + " gpu_count DOUBLE PRECISION NOT NULL, vcpus DOUBLE PRECISION NOT NULL, ram_gib DOUBLE PRECISION NOT NULL,"
          + " billing TEXT NOT NULL, price TEXT NOT NULL, currency TEXT NOT NULL, unit TEXT NOT NULL, observed_at TEXT,"
          + " source TEXT NOT NULL, PRIMARY KEY (snapshot_id, seq))",
      "CREATE INDEX quotes_gpu ON quotes (gpu)",
      "CREATE INDEX quotes_vendor ON quotes (vendor)");

  /** Migration 2, the alert delivery log, in SQLite's words. */
  static final List<String> SQLITE_V2 = List.of(
      "CREATE TABLE alert_deliveries ( id INTEGER PRIMARY KEY AUTOINCREMENT, event_key TEXT NOT NULL UNIQUE,"
          + " scenario TEXT NOT NULL, rule_index INTEGER NOT NULL, rule_kind TEXT NOT NULL, channel TEXT NOT NULL,"
          + " status TEXT NOT NULL, attempts INTEGER NOT NULL, last_error TEXT, created_at INTEGER NOT NULL,"
          + " updated_at INTEGER NOT NULL, event_json TEXT NOT NULL)",
      "CREATE INDEX alert_deliveries_scenario ON alert_deliveries (scenario, created_at)");

  /** Migration 2 in PostgreSQL's words. */
  static final List<String> POSTGRES_V2 = List.of(
      "CREATE TABLE alert_deliveries ( id BIGSERIAL PRIMARY KEY, event_key TEXT NOT NULL UNIQUE,"
          + " scenario TEXT NOT NULL, rule_index INTEGER NOT NULL, rule_kind TEXT NOT NULL, channel TEXT NOT NULL,"
          + " status TEXT NOT NULL, attempts INTEGER NOT NULL, last_error TEXT, created_at BIGINT NOT NULL,"
          + " updated_at BIGINT NOT NULL, event_json TEXT NOT NULL)",
      "CREATE INDEX alert_deliveries_scenario ON alert_deliveries (scenario, created_at)");

  /** Migration 3, the live scenarios, as shipped. */
  static final List<String> SQLITE_V3 = List.of(
      "CREATE TABLE scenarios ( id TEXT PRIMARY KEY, client TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL)");
  static final List<String> POSTGRES_V3 = List.of(
      "CREATE TABLE scenarios ( id TEXT PRIMARY KEY, client TEXT NOT NULL, created_at BIGINT NOT NULL, body TEXT NOT NULL)");

  @Test
  void the_shared_schema_is_each_databases_shipped_migration_word_for_word() {
    assertEquals(List.of(SQLITE_V1, SQLITE_V2, SQLITE_V3), SqlQueries.Dialect.SQLITE.migrations());
    assertEquals(List.of(POSTGRES_V1, POSTGRES_V2, POSTGRES_V3), SqlQueries.Dialect.POSTGRES.migrations());
    for (SqlQueries.Dialect d : SqlQueries.Dialect.values()) {
      assertFalse(d.migrations().stream().flatMap(List::stream).anyMatch(sql -> sql.contains("{")), d + ": a word left unfilled");
    }
  }

  @Test
  void history_binds_only_the_filters_asked_for_in_the_order_of_its_marks() {
    SqlQueries.Bound all = SqlQueries.history(HistoryQuery.all());
    assertEquals(List.of(), all.args());
    assertFalse(all.sql().contains("?"));
    Instant from = Instant.parse("2026-03-01T00:00:00Z");
    Instant to = Instant.parse("2026-04-01T00:00:00Z");
    SqlQueries.Bound some = SqlQueries.history(new HistoryQuery("h100-sxm", null, Billing.SPOT, from, to));
    assertEquals(List.of("h100-sxm", "spot", from.toEpochMilli(), to.toEpochMilli()), some.args());
    assertEquals(some.args().size(), some.sql().chars().filter(ch -> ch == '?').count());
    assertEquals(List.of(" AND q.gpu = ?", " AND q.billing = ?", " AND s.taken_at >= ?", " AND s.taken_at < ?"),
        List.of(some.sql().split("WHERE s.complete = 1")[1].split(" ORDER BY")[0].split("(?= AND )")));
  }

  @Test
  void deletes_have_a_mark_per_id() {
    assertEquals("DELETE FROM quotes WHERE snapshot_id IN (?, ?, ?)", SqlQueries.deleteQuotes(3));
    assertEquals("DELETE FROM snapshots WHERE id IN (?)", SqlQueries.deleteSnapshots(1));
  }
}
