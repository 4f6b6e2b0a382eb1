package dev.gpurent.store;

import dev.gpurent.config.UserText;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The store a service runs with when the configured one cannot be opened: every history call
 * fails with {@link StoreUnavailableException} naming the file and what to do, so that a corrupt
 * {@code data/gpurent.db} turns history off instead of stopping the service (ranking needs none).
 */
public final class UnavailableStore implements SnapshotStore {

  private final String reason;

  /**
   * @param name  the store as the operator configured it (for SQLite the path relative to the root)
   * @param cause why it could not be opened
   */
  public UnavailableStore(String name, Throwable cause) {
    String why = UserText.withoutPaths(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
    this.reason = name + " cannot be opened (" + why + "): move it aside or restore it from a backup, then restart;"
        + " ranking and live prices work without it";
  }

  @Override
  public Optional<String> unavailable() {
    return Optional.of(reason);
  }

  private <T> Future<T> refused() {
    return Future.failedFuture(new StoreUnavailableException("history unavailable: " + reason));
  }

  @Override
  public Future<WriteResult> write(String slot, QuoteBook book, Instant takenAt) {
    return refused();
  }

  @Override
  public Future<Optional<SnapshotMeta>> bySlot(String slot) {
    return refused();
  }

  @Override
  public Future<List<SnapshotMeta>> list(int limit, Instant before) {
    return refused();
  }

  @Override
  public Future<Snapshot> get(long id) {
    return refused();
  }

  @Override
  public Future<SnapshotDiff> diff(long id, Long against) {
    return refused();
  }

  @Override
  public Future<List<PriceSeries>> history(HistoryQuery query) {
    return refused();
  }

  @Override
  public Future<RetentionReport> retain(Retention policy, Instant now) {
    return refused();
  }

  @Override
  public Future<Boolean> delete(long id) {
    return refused();
  }

  @Override
  public Future<Optional<LatestSnapshot>> latest() {
    return Future.succeededFuture(Optional.empty());
  }

  @Override
  public Future<Boolean> claimAlert(AlertDelivery delivery) {
    return refused();
  }

  @Override
  public Future<Void> updateAlert(String key, String status, int attempts, String lastError, Instant at) {
    return refused();
  }

  @Override
  public Future<List<AlertDelivery>> alerts(String scenario, int limit) {
    return refused();
  }

  @Override
  public Future<Integer> deleteAlerts(String scenario) {
    return refused();
  }

  @Override
  public String describe() {
    return "unavailable store";
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
