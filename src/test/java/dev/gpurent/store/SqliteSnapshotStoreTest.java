package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The store contract on SQLite, in a temporary file. */
class SqliteSnapshotStoreTest extends SnapshotStoreContract {

  @Override
  StoreSettings freshSettings(Path tmp) {
    return StoreSettings.sqlite(tmp.resolve("data/gpurent.db"));
  }

  @Override
  Connection jdbc() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + settings.path());
  }

  @Test
  void creates_its_file_and_folder_in_wal_mode_with_full_sync() throws SQLException {
    await(store.write("2026-03-01", RealBooks.book(T1), T1));
    Path file = settings.path();
    assertEquals(true, Files.isRegularFile(file));
    try (Connection c = jdbc(); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
        rs.next();
        assertEquals("wal", rs.getString(1), "WAL is a property of the file: every later connection gets it");
      }
      try (ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
        rs.next();
        assertEquals("ok", rs.getString(1));
      }
    }
  }
}
