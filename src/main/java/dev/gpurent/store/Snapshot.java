package dev.gpurent.store;

import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A snapshot with every quote, in the order written. JSON: its metadata plus {@code quotes}, the list. */
public record Snapshot(SnapshotMeta meta, List<Quote> quotes) {

  public Snapshot {
    quotes = List.copyOf(quotes);
  }

  public JsonObject toJson() {
    JsonArray arr = new JsonArray();
    for (Quote q : quotes) arr.add(QuoteJson.toJson(q));
    return meta.toJson().put("quotes", arr);
  }
}
