package dev.gpurent.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The store on PostgreSQL ({@code store.url: jdbc:postgresql://...}), for several gpurent nodes or
 * a shared history. A small pool of {@code store.pool} connections, one per store worker thread;
 * batched inserts are rewritten into multi-row INSERTs by the driver.
 */
public final class PostgresSnapshotStore extends JdbcSnapshotStore {

  private final StoreSettings settings;
  private final BlockingQueue<Connection> idle;
  private final Semaphore permits;

  private PostgresSnapshotStore(Vertx vertx, StoreSettings settings) {
    super(vertx, settings.pool(), false, SqlQueries.Dialect.POSTGRES);
    this.settings = settings;
    this.idle = new ArrayBlockingQueue<>(settings.pool());
    this.permits = new Semaphore(settings.pool());
  }

  /** Connects and migrates, on the store's worker pool. */
  public static Future<SnapshotStore> open(Vertx vertx, StoreSettings settings) {
    PostgresSnapshotStore store = new PostgresSnapshotStore(vertx, settings);
    return store.tx(c -> {
      try (Statement st = c.createStatement()) {
        st.execute(SqlQueries.POSTGRES_MIGRATION_LOCK);
      }
      store.applyMigrations(c);
      store.checkIntegrity(c);
      return (SnapshotStore) store;
    }).recover(e -> store.close().transform(x -> Future.failedFuture(e)));
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  private Connection connect() throws SQLException {
    Properties p = new Properties();
    if (settings.user() != null) p.setProperty("user", settings.user());
    if (settings.password() != null) p.setProperty("password", settings.password());
    p.setProperty("reWriteBatchedInserts", "true");
    p.setProperty("ApplicationName", "gpurent");
    p.setProperty("connectTimeout", "10");
    Connection c = new org.postgresql.Driver().connect(settings.url(), p);
    if (c == null) throw new SQLException("not a PostgreSQL URL: " + describe());
    c.setAutoCommit(false);
    return c;
  }

  @Override
  Connection acquire() throws SQLException {
    try {
      if (!permits.tryAcquire(60, TimeUnit.SECONDS)) throw new SQLException(describe() + ": no free connection in 60 s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted waiting for a connection", e);
    }
    try {
      Connection c = idle.poll();
      return c != null ? c : connect();
    } catch (SQLException | RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  @Override
  void release(Connection c, boolean broken) {
    try {
      if (broken || !idle.offer(c)) c.close();
    } catch (SQLException ignored) {
      // dropped either way
    } finally {
      permits.release();
    }
  }

  @Override
  void closeConnections() {
    Connection c;
    while ((c = idle.poll()) != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
  }
}
