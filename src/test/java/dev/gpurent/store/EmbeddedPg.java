package dev.gpurent.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL server (zonky's binaries from Maven Central) for the whole test JVM, started
 * on first use and stopped by zonky's shutdown hook. Running as root works: zonky starts the
 * binaries under {@code unshare -U} when it finds itself root (initdb refuses uid 0). Durability
 * is off (fsync, synchronous_commit): these tests are about SQL, not disks.
 */
public final class EmbeddedPg {

  private static EmbeddedPostgres pg;
  private static final AtomicInteger SCHEMAS = new AtomicInteger();

  private EmbeddedPg() {}

  static synchronized EmbeddedPostgres server() {
    if (pg == null) {
      try {
        pg = EmbeddedPostgres.builder()
            .setServerConfig("fsync", "off")
            .setServerConfig("synchronous_commit", "off")
            .setServerConfig("full_page_writes", "off")
            .start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
      }
    }
    return pg;
  }

  /** A URL whose tables land in a new, empty schema: every test gets a database of its own. */
  public static String freshUrl() {
    EmbeddedPostgres s = server();
    String schema = "t" + SCHEMAS.incrementAndGet();
    try (Connection c = s.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return s.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema;
  }
}
