package dev.gpurent.store;

import dev.gpurent.Slow;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The store contract on a real PostgreSQL, started by the test (see {@link EmbeddedPg}), one schema per test. */
@Slow
class PostgresSnapshotStoreTest extends SnapshotStoreContract {

  private String url;

  @Override
  StoreSettings freshSettings(Path tmp) {
    url = EmbeddedPg.freshUrl();
    return new StoreSettings(null, url, null, null, 3, Retention.defaults(SHANGHAI));
  }

  @Override
  Connection jdbc() throws SQLException {
    return DriverManager.getConnection(url);
  }
}
