package dev.gpurent.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * The embedded default: one SQLite file ({@code store.path}, default {@code data/gpurent.db}),
 * created with its folder on first use. WAL journal with {@code synchronous=FULL}: a committed
 * snapshot survives a power cut, and readers never block the writer. One connection, used by one
 * worker thread at a time.
 */
public final class SqliteSnapshotStore extends JdbcSnapshotStore {

  private final Path file;
  private final ReentrantLock lock = new ReentrantLock();
  private Connection connection;

  private SqliteSnapshotStore(Vertx vertx, Path file) {
    super(vertx, 1, true, SqlQueries.Dialect.SQLITE);
    this.file = file;
  }

  /**
   * Opens (creating and migrating as needed) the file the settings name, on the store's worker
   * pool, then runs {@code PRAGMA quick_check}: a file that opens but is damaged serves what it
   * can, and says so in {@link #failing()}.
   */
  public static Future<SnapshotStore> open(Vertx vertx, StoreSettings settings) {
    SqliteSnapshotStore store = new SqliteSnapshotStore(vertx, settings.path());
    return store.run(() -> {
      store.connect();
      return store;
    }).compose(x -> store.read(c -> {
      store.checkIntegrity(c);
      return (SnapshotStore) store;
    })).recover(e -> store.close().transform(x -> Future.failedFuture(e)));
  }

  @Override
  public String describe() {
    return "sqlite:" + file;
  }

  private void connect() throws SQLException {
    lock.lock();
    try {
      if (connection != null) return;
      Path dir = file.toAbsolutePath().getParent();
      try {
        if (dir != null) Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the folder of " + file, e);
      }
      SQLiteConfig cfg = new SQLiteConfig();
      cfg.setJournalMode(SQLiteConfig.JournalMode.WAL);
      cfg.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
      cfg.enforceForeignKeys(true);
      cfg.setBusyTimeout(30_000);
      cfg.setJournalSizeLimit(16 * 1024 * 1024); // a 100,000-quote snapshot grows the WAL to ~25 MB; shrink it back after
      Connection c = cfg.createConnection("jdbc:sqlite:" + file);
      try (Statement st = c.createStatement()) {
        try (ResultSet rs = st.executeQuery(SqlQueries.SQLITE_JOURNAL_MODE)) {
          String mode = rs.next() ? rs.getString(1) : "?";
          if (!"wal".equalsIgnoreCase(mode)) throw new SQLException(describe() + ": cannot use WAL journal (got " + mode + ")");
        }
        // Migrations hold the write lock from the start: two processes opening a new file migrate it once.
        st.execute(SqlQueries.SQLITE_BEGIN_IMMEDIATE);
        try {
          applyMigrations(c);
          st.execute(SqlQueries.SQLITE_COMMIT);
        } catch (SQLException | RuntimeException e) {
          st.execute(SqlQueries.SQLITE_ROLLBACK);
          throw e;
        }
      } catch (SQLException | RuntimeException e) {
        c.close();
        throw e;
      }
      c.setAutoCommit(false); // deferred transactions: an idle connection holds no lock
      connection = c;
    } finally {
      lock.unlock();
    }
  }

  @Override
  Connection acquire() throws SQLException {
    lock.lock();
    try {
      if (connection == null) connect();
      return connection;
    } catch (SQLException | RuntimeException e) {
      lock.unlock();
      throw e;
    }
  }

  @Override
  void release(Connection c, boolean broken) {
    try {
      if (broken) {
        try {
          c.close();
        } catch (SQLException ignored) {
          // replaced on next use
        }
        connection = null;
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  void closeConnections() {
    lock.lock();
    try {
      if (connection != null) connection.close();
    } catch (SQLException ignored) {
      // closing anyway
    } finally {
      connection = null;
      lock.unlock();
    }
  }
}
