package dev.gpurent.store;

import io.vertx.core.json.JsonObject;

/**
 * What one retention pass did.
 *
 * @param examined       snapshots looked at
 * @param deleted        snapshots deleted
 * @param deletedQuotes  quote rows deleted with them
 * @param batches        transactions used
 */
public record RetentionReport(int examined, int deleted, long deletedQuotes, int batches) {

  public JsonObject toJson() {
    return new JsonObject().put("examined", examined).put("deleted", deleted).put("deletedQuotes", deletedQuotes)
        .put("batches", batches);
  }
}
