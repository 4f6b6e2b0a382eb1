package dev.gpurent.store;

import io.vertx.core.Future;
import java.util.List;

/**
 * The live scenarios, kept in the store's {@code scenarios} table so that a restart (and, on
 * PostgreSQL, every node of a cluster) finds them with the same ids. Work runs on the store's
 * worker pool, as {@link SnapshotStore}'s does.
 */
public interface ScenarioStore {

  /** Keeps a new scenario; fails if its id is taken. */
  Future<Void> save(StoredScenario scenario);

  /** Forgets one; false when there was none. */
  Future<Boolean> delete(String id);

  /** Every live scenario, oldest first. */
  Future<List<StoredScenario>> all();

  /** Where nothing can be kept (the store could not be opened): scenarios then live in memory only, until a restart. */
  static ScenarioStore none() {
    return new ScenarioStore() {
      @Override
      public Future<Void> save(StoredScenario scenario) {
        return Future.succeededFuture();
      }

      @Override
      public Future<Boolean> delete(String id) {
        return Future.succeededFuture(true);
      }

      @Override
      public Future<List<StoredScenario>> all() {
        return Future.succeededFuture(List.of());
      }
    };
  }
}
