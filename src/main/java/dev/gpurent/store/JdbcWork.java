package dev.gpurent.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * How a JDBC store reaches its database: each piece of work on one connection, in one transaction
 * (or a read ended by a rollback), on the shared {@code gpurent-store} worker pool, never on an
 * event loop; the outcome kept for {@link #failing}; the integrity check and the migrations. The
 * stores say how they connect ({@link #acquire}, {@link #release}); what they ask is theirs.
 */
abstract class JdbcWork {

  /** The shared worker pool every store's JDBC work runs on. */
  public static final String WORKER_POOL = "gpurent-store";

  private final WorkerExecutor worker;
  private final boolean ordered;
  private final SqlQueries.Dialect dialect;
  /** What the integrity check at open found wrong (kept until a restart), or null. */
  private volatile String damaged;
  /** Why the last operation that reached the database failed, or null once one succeeds. */
  private volatile String lastFailure;

  /**
   * @param threads worker threads (one per connection)
   * @param ordered whether the pool runs this store's work one task after the other
   */
  JdbcWork(Vertx vertx, int threads, boolean ordered, SqlQueries.Dialect dialect) {
    this.worker = vertx.createSharedWorkerExecutor(WORKER_POOL, threads);
    this.ordered = ordered;
    this.dialect = dialect;
  }

  // ------------------------------------------------------------------ dialect

  abstract Connection acquire() throws SQLException;

  /** Gives a connection back; {@code broken} ones are closed and replaced. */
  abstract void release(Connection c, boolean broken);

  abstract void closeConnections();

  /** Whether the failure means the connection is unusable. */
  boolean broken(SQLException e) {
    String state = e.getSQLState();
    return state != null && state.startsWith("08");
  }

  // ------------------------------------------------------------------ plumbing

  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} on the store's worker pool: never on an event loop. The one place store work
   * is dispatched, so also where its outcome is kept for {@link #failing}: a database fault
   * (an {@link SQLException}, or a file that cannot be read or written) marks the store failing,
   * any success clears it; a refused request (no such snapshot, a bad argument) says nothing.
   */
  final <T> Future<T> run(Callable<T> work) {
    return worker.executeBlocking(work, ordered).andThen(ar -> {
      if (ar.succeeded()) lastFailure = null;
      else if (databaseFault(ar.cause())) lastFailure = dev.gpurent.config.UserText.withoutPaths(String.valueOf(ar.cause().getMessage()));
    });
  }

  private static boolean databaseFault(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException || t instanceof java.io.IOException || t instanceof java.io.UncheckedIOException) return true;
    }
    return false;
  }

  /** Why the store is failing now (see {@link SnapshotStore#failing}), or empty. */
  public Optional<String> failing() {
    String d = damaged, f = lastFailure;
    // never describe(): it holds the file's absolute path
    if (d != null) return Optional.of("the store failed its integrity check at start (" + d + ")");
    return Optional.ofNullable(f).map(why -> "the store's last operation failed (" + why + ")");
  }

  /**
   * Runs the dialect's integrity check ({@code PRAGMA quick_check} on SQLite, a read of every
   * table on PostgreSQL) on an open connection; what it finds is kept for {@link #failing}.
   */
  final void checkIntegrity(Connection c) throws SQLException {
    List<String> found = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(dialect.integrityCheck())) {
      while (rs.next() && found.size() < 5) found.add(rs.getString(1));
    } catch (SQLException e) {
      // the check itself stopped at the damage (SQLite does so on a page it cannot read at all)
      if (broken(e)) throw e;
      found.add(dev.gpurent.config.UserText.withoutPaths(String.valueOf(e.getMessage())));
    }
    damaged = found.equals(List.of("ok")) ? null : found.isEmpty() ? "no answer" : String.join("; ", found);
  }

  /** {@code work} as one transaction, on the worker pool: committed when it returns, rolled back when it throws. */
  final <T> Future<T> tx(SqlWork<T> work) {
    return run(() -> inTransaction(work));
  }

  /**
   * {@code work} that only reads, on the worker pool, ended by a rollback: a read of a damaged file
   * (the integrity check) can leave SQLite refusing a commit, which a read never needed.
   */
  final <T> Future<T> read(SqlWork<T> work) {
    return run(() -> {
      Connection c = acquire();
      boolean broken = false;
      try {
        return work.run(c);
      } catch (SQLException e) {
        broken = broken(e);
        throw e;
      } finally {
        try {
          c.rollback();
        } catch (SQLException nothingToEnd) {
          // SQLite ended the read itself at the damage: nothing is held
        }
        release(c, broken);
      }
    });
  }

  /** {@code work} as one transaction on the calling (worker) thread. */
  final <T> T inTransaction(SqlWork<T> work) throws SQLException {
    Connection c = acquire();
    boolean broken = false;
    try {
      T result = work.run(c);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException r) {
        broken = true;
        e.addSuppressed(r);
      }
      if (e instanceof SQLException s && broken(s)) broken = true;
      throw e;
    } finally {
      release(c, broken);
    }
  }

  /** Applies every migration the database has not had, in the caller's (locked) transaction. */
  final void applyMigrations(Connection c) throws SQLException {
    List<List<String>> all = dialect.migrations();
    try (Statement st = c.createStatement()) {
      st.execute(SqlQueries.CREATE_SCHEMA_VERSION);
    }
    int current;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SqlQueries.SCHEMA_VERSION)) {
      rs.next();
      current = rs.getInt(1);
    }
    if (current > all.size()) {
      throw new IllegalStateException(describe() + ": schema version " + current + " is newer than this gpurent knows ("
          + all.size() + "); upgrade gpurent");
    }
    for (int v = current; v < all.size(); v++) {
      try (Statement st = c.createStatement()) {
        for (String sql : all.get(v)) st.execute(sql);
      }
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.RECORD_SCHEMA_VERSION)) {
        ps.setInt(1, v + 1);
        ps.setLong(2, System.currentTimeMillis());
        ps.executeUpdate();
      }
    }
  }

  /** Ends the worker pool's use by this store, once its connections are closed. */
  final Future<Void> closeWorker() {
    return worker.close();
  }

  /** The store as the operator knows it, in errors (never with a password). */
  public abstract String describe();
}
