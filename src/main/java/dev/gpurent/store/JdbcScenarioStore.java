package dev.gpurent.store;

import io.vertx.core.Future;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The {@code scenarios} table of a JDBC store, each operation one transaction through the store's {@code tx}. */
final class JdbcScenarioStore implements ScenarioStore {

  private final JdbcSnapshotStore store;

  JdbcScenarioStore(JdbcSnapshotStore store) {
    this.store = store;
  }

  @Override
  public Future<Void> save(StoredScenario s) {
    return store.tx(c -> {
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.INSERT_SCENARIO)) {
        SnapshotRows.bind(ps, s.id(), s.client(), s.created().toEpochMilli(), s.body());
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public Future<Boolean> delete(String id) {
    return store.tx(c -> {
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.DELETE_SCENARIO)) {
        ps.setString(1, id);
        return ps.executeUpdate() > 0;
      }
    });
  }

  @Override
  public Future<List<StoredScenario>> all() {
    return store.tx(c -> {
      List<StoredScenario> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(SqlQueries.ALL_SCENARIOS); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new StoredScenario(rs.getString(1), rs.getString(2), Instant.ofEpochMilli(rs.getLong(3)), rs.getString(4)));
        }
      }
      return out;
    });
  }
}
