package dev.gpurent.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Every statement the snapshot store runs, and its schema, written once for both databases. SQLite
 * and PostgreSQL read the same SQL here except for the few words a {@link Dialect} fills in (the
 * types of an id, a 64-bit integer and a double) and the statements only one of them has (SQLite's
 * journal check and write lock, PostgreSQL's advisory lock). The JDBC code names a statement;
 * it never builds one.
 *
 * <p>Columns are read by position: a statement that selects {@link #SNAPSHOT_COLUMNS} or
 * {@link #QUOTE_COLUMNS} yields them in that order.
 */
final class SqlQueries {

  private SqlQueries() {}

  /**
   * The tables, as migrations oldest first: element {@code v} takes the schema from version v to
   * v+1. Never edit a shipped one (databases out there were built by it): append a new list. The
   * words in braces are the {@link Dialect}'s.
   */
  private static final List<List<String>> MIGRATIONS = List.of(
      List.of(
          "CREATE TABLE snapshots ("
              + " id {id}," // never reused, even after retention deletes
              + " slot TEXT NOT NULL UNIQUE,"
              + " kind TEXT NOT NULL,"
              + " taken_at {int64} NOT NULL," // milliseconds since the epoch (UTC)
              + " quote_count INTEGER NOT NULL,"
              + " complete INTEGER NOT NULL,"
              + " fx_json TEXT NOT NULL,"
              + " vendors_json TEXT NOT NULL)",
          "CREATE INDEX snapshots_taken_at ON snapshots (taken_at)",
          "CREATE TABLE quotes ("
              + " snapshot_id {int64} NOT NULL REFERENCES snapshots (id),"
              + " seq INTEGER NOT NULL,"
              + " vendor TEXT NOT NULL, region TEXT NOT NULL, offer TEXT NOT NULL, gpu TEXT NOT NULL,"
              + " gpu_count {double} NOT NULL, vcpus {double} NOT NULL, ram_gib {double} NOT NULL,"
              + " billing TEXT NOT NULL,"
              + " price TEXT NOT NULL," // the exact decimal, as published
              + " currency TEXT NOT NULL, unit TEXT NOT NULL,"
              + " observed_at TEXT," // ISO-8601 instant
              + " source TEXT NOT NULL,"
              + " PRIMARY KEY (snapshot_id, seq))",
          "CREATE INDEX quotes_gpu ON quotes (gpu)",
          "CREATE INDEX quotes_vendor ON quotes (vendor)"),
      // alert deliveries: the UNIQUE event key is how the nodes of a cluster agree on who delivers an event
      List.of(
          "CREATE TABLE alert_deliveries ("
              + " id {id},"
              + " event_key TEXT NOT NULL UNIQUE,"
              + " scenario TEXT NOT NULL,"
              + " rule_index INTEGER NOT NULL,"
              + " rule_kind TEXT NOT NULL,"
              + " channel TEXT NOT NULL,"
              + " status TEXT NOT NULL," // pending, delivered, failed
              + " attempts INTEGER NOT NULL,"
              + " last_error TEXT,"
              + " created_at {int64} NOT NULL," // milliseconds since the epoch (UTC)
              + " updated_at {int64} NOT NULL,"
              + " event_json TEXT NOT NULL)",
          "CREATE INDEX alert_deliveries_scenario ON alert_deliveries (scenario, created_at)"),
      // live scenarios, kept across restarts and shared by a cluster's nodes
      List.of(
          "CREATE TABLE scenarios ("
              + " id TEXT PRIMARY KEY,"
              + " client TEXT NOT NULL,"
              + " created_at {int64} NOT NULL," // milliseconds since the epoch (UTC)
              + " body TEXT NOT NULL)")); // the registration body as received, JSON

  /**
   * SQLite's own check of every page and index, short of matching index entries to rows (that is
   * {@code integrity_check}, much slower); "ok" or up to 100 lines of damage.
   */
  static final String SQLITE_QUICK_CHECK = "PRAGMA quick_check";
  /** PostgreSQL checks its pages itself; what a start can cheaply ask is that every table answers a read. */
  static final String POSTGRES_READ_EVERY_TABLE = "SELECT 'ok' WHERE"
      + " (SELECT count(*) FROM (SELECT 1 FROM schema_version LIMIT 1) a) >= 0"
      + " AND (SELECT count(*) FROM (SELECT 1 FROM snapshots LIMIT 1) b) >= 0"
      + " AND (SELECT count(*) FROM (SELECT 1 FROM quotes LIMIT 1) c) >= 0"
      + " AND (SELECT count(*) FROM (SELECT 1 FROM scenarios LIMIT 1) d) >= 0"
      + " AND (SELECT count(*) FROM (SELECT 1 FROM alert_deliveries LIMIT 1) e) >= 0";

  /** What differs between the two databases: a few type words in the schema, and how migrations are locked. */
  enum Dialect {
    // SQLite: INTEGER PRIMARY KEY is the 64-bit rowid, AUTOINCREMENT keeps deleted ids from coming back
    SQLITE(Map.of("id", "INTEGER PRIMARY KEY AUTOINCREMENT", "int64", "INTEGER", "double", "REAL"), SQLITE_QUICK_CHECK),
    POSTGRES(Map.of("id", "BIGSERIAL PRIMARY KEY", "int64", "BIGINT", "double", "DOUBLE PRECISION"), POSTGRES_READ_EVERY_TABLE);

    private final List<List<String>> migrations;
    private final String integrityCheck;

    Dialect(Map<String, String> words, String integrityCheck) {
      this.migrations = MIGRATIONS.stream().map(step -> step.stream().map(sql -> fill(sql, words)).toList()).toList();
      this.integrityCheck = integrityCheck;
    }

    /** A query whose rows are the single word {@code ok} when the database reads whole, else what is wrong. */
    String integrityCheck() {
      return integrityCheck;
    }

    /** {@link SqlQueries#MIGRATIONS} in this dialect's words. */
    List<List<String>> migrations() {
      return migrations;
    }

    private static String fill(String sql, Map<String, String> words) {
      String out = sql;
      for (Map.Entry<String, String> w : words.entrySet()) out = out.replace("{" + w.getKey() + "}", w.getValue());
      if (out.contains("{")) throw new IllegalStateException("a schema word this dialect lacks: " + out);
      return out;
    }
  }

  // ------------------------------------------------------------------ schema version

  static final String CREATE_SCHEMA_VERSION =
      "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)";
  static final String SCHEMA_VERSION = "SELECT COALESCE(MAX(version), 0) FROM schema_version";
  static final String RECORD_SCHEMA_VERSION = "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)";

  // ------------------------------------------------------------------ SQLite only

  /** Answers the journal mode the file is in (WAL is a property of the file). */
  static final String SQLITE_JOURNAL_MODE = "PRAGMA journal_mode";
  /** Takes the write lock at once, so two processes opening a new file migrate it once. */
  static final String SQLITE_BEGIN_IMMEDIATE = "BEGIN IMMEDIATE";
  static final String SQLITE_COMMIT = "COMMIT";
  static final String SQLITE_ROLLBACK = "ROLLBACK";

  // ------------------------------------------------------------------ PostgreSQL only

  /** Serialises migrations across processes until the transaction ends (the key spells "gpurent"). */
  static final String POSTGRES_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(" + 0x67707572656e74L + ")";

  // ------------------------------------------------------------------ write

  static final String SNAPSHOT_COLUMNS = "id, slot, kind, taken_at, quote_count, fx_json, vendors_json";
  static final String QUOTE_COLUMNS =
      "vendor, region, offer, gpu, gpu_count, vcpus, ram_gib, billing, price, currency, unit, observed_at, source";

  /** Claims the slot (UNIQUE: a second write of it inserts nothing), not yet complete. Binds slot, kind, taken_at, fx, vendors. */
  static final String INSERT_SNAPSHOT = "INSERT INTO snapshots (slot, kind, taken_at, quote_count, complete, "
      + "fx_json, vendors_json) VALUES (?, ?, ?, 0, 0, ?, ?) ON CONFLICT (slot) DO NOTHING";
  /** The slot's id and quote count, complete or not: the writer's own row, or the one it lost to. */
  static final String SLOT_ID_AND_COUNT = "SELECT id, quote_count FROM snapshots WHERE slot = ?";
  /** Binds snapshot_id, seq, then {@link #QUOTE_COLUMNS}. */
  static final String INSERT_QUOTE = "INSERT INTO quotes (snapshot_id, seq, " + QUOTE_COLUMNS
      + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  /** Makes a written snapshot visible to readers. Binds quote_count, id. */
  static final String COMPLETE_SNAPSHOT = "UPDATE snapshots SET complete = 1, quote_count = ? WHERE id = ?";

  // ------------------------------------------------------------------ read (complete snapshots only)

  private static final String COMPLETE = "SELECT " + SNAPSHOT_COLUMNS + " FROM snapshots WHERE complete = 1";
  private static final String NEWEST_FIRST = " ORDER BY taken_at DESC, id DESC";

  static final String SNAPSHOT_BY_ID = COMPLETE + " AND id = ?";
  static final String SNAPSHOT_BY_SLOT = COMPLETE + " AND slot = ?";
  /** Binds the limit. */
  static final String LIST = COMPLETE + NEWEST_FIRST + " LIMIT ?";
  /** Binds taken_at's bound (exclusive), then the limit. */
  static final String LIST_BEFORE = COMPLETE + " AND taken_at < ?" + NEWEST_FIRST + " LIMIT ?";
  /**
   * The one just before a snapshot and of the same origin (imported market history, or fetched:
   * scheduled and manual alike), ties on taken_at broken by id: a diff across origins compares
   * market medians with list prices, which is noise. Binds kind, kind, taken_at, taken_at, id.
   */
  static final String PREVIOUS = COMPLETE + " AND (kind = ? OR (? <> '" + SnapshotMeta.IMPORT + "' AND kind <> '"
      + SnapshotMeta.IMPORT + "')) AND (taken_at < ? OR (taken_at = ? AND id < ?))" + NEWEST_FIRST + " LIMIT 1";
  /** The newest not of the kind bound (imported history is no restart's quotes). */
  static final String NEWEST_NOT_OF_KIND = COMPLETE + " AND kind <> ?" + NEWEST_FIRST + " LIMIT 1";
  /** A snapshot's quotes in the order written. Binds snapshot_id. */
  static final String QUOTES_OF = "SELECT " + QUOTE_COLUMNS + " FROM quotes WHERE snapshot_id = ? ORDER BY seq";

  // ------------------------------------------------------------------ live scenarios

  static final String SCENARIO_COLUMNS = "id, client, created_at, body";
  /** Binds {@link #SCENARIO_COLUMNS}. */
  static final String INSERT_SCENARIO = "INSERT INTO scenarios (" + SCENARIO_COLUMNS + ") VALUES (?, ?, ?, ?)";
  /** Binds id. */
  static final String DELETE_SCENARIO = "DELETE FROM scenarios WHERE id = ?";
  /** Every live scenario, oldest first. */
  static final String ALL_SCENARIOS = "SELECT " + SCENARIO_COLUMNS + " FROM scenarios ORDER BY created_at, id";

  /** A statement with the values to bind to it, in order. */
  record Bound(String sql, List<Object> args) {}

  /**
   * History: taken_at, then the series key (vendor, region, offer, gpu, billing, currency, unit),
   * then price and GPUs per instance, of the complete snapshots the query selects; grouped by key,
   * oldest first within each.
   */
  static Bound history(HistoryQuery q) {
    StringBuilder sql = new StringBuilder("SELECT s.taken_at, q.vendor, q.region, q.offer, q.gpu, q.billing, q.currency, q.unit,"
        + " q.price, q.gpu_count FROM quotes q JOIN snapshots s ON s.id = q.snapshot_id WHERE s.complete = 1");
    List<Object> args = new ArrayList<>();
    if (q.gpu() != null) {
      sql.append(" AND q.gpu = ?");
      args.add(q.gpu());
    }
    if (q.vendor() != null) {
      sql.append(" AND q.vendor = ?");
      args.add(q.vendor());
    }
    if (q.billing() != null) {
      sql.append(" AND q.billing = ?");
      args.add(q.billing().wire());
    }
    if (q.from() != null) {
      sql.append(" AND s.taken_at >= ?");
      args.add(q.from().toEpochMilli());
    }
    if (q.to() != null) {
      sql.append(" AND s.taken_at < ?");
      args.add(q.to().toEpochMilli());
    }
    sql.append(" ORDER BY q.vendor, q.region, q.offer, q.gpu, q.billing, q.currency, q.unit, s.taken_at, s.id");
    return new Bound(sql.toString(), args);
  }

  // ------------------------------------------------------------------ alert deliveries

  static final String ALERT_COLUMNS =
      "event_key, scenario, rule_index, rule_kind, channel, status, attempts, last_error, created_at, updated_at, event_json";
  /** Claims an event: one row per key, a second claim inserts nothing. Binds {@link #ALERT_COLUMNS}. */
  static final String CLAIM_ALERT = "INSERT INTO alert_deliveries (" + ALERT_COLUMNS
      + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_key) DO NOTHING";
  /** Binds status, attempts, last_error, updated_at, event_key. */
  static final String UPDATE_ALERT =
      "UPDATE alert_deliveries SET status = ?, attempts = ?, last_error = ?, updated_at = ? WHERE event_key = ?";
  /** A scenario's log, newest first. Binds scenario, limit. */
  static final String ALERTS_OF = "SELECT " + ALERT_COLUMNS
      + " FROM alert_deliveries WHERE scenario = ? ORDER BY created_at DESC, id DESC LIMIT ?";
  /** Binds scenario. */
  static final String DELETE_ALERTS = "DELETE FROM alert_deliveries WHERE scenario = ?";

  // ------------------------------------------------------------------ retention and deletes

  /** Every snapshot, complete or not (a half-written one is retention's to drop), oldest first. */
  static final String RETENTION_CANDIDATES = "SELECT id, taken_at, quote_count, complete FROM snapshots ORDER BY taken_at, id";

  /** Deletes the quotes of {@code n} snapshots (bind their ids); run before {@link #deleteSnapshots}, whose rows they reference. */
  static String deleteQuotes(int n) {
    return "DELETE FROM quotes WHERE snapshot_id IN (" + marks(n) + ")";
  }

  /** Deletes {@code n} snapshots (bind their ids). */
  static String deleteSnapshots(int n) {
    return "DELETE FROM snapshots WHERE id IN (" + marks(n) + ")";
  }

  private static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
