package dev.gpurent.quote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A quote's stated stock crosses nodes and snapshots as JSON and comes back the same. */
class QuoteJsonStockTest {

  static final Instant AT = Instant.parse("2026-03-22T06:00:00Z");

  static Quote quote() {
    return new Quote("vast", "US", "4x RTX 4090", "RTX4090", 4, 64, 64, Billing.ON_DEMAND, Money.of("1.55", "USD"),
        PriceUnit.HOUR, AT, "vast-api:http://127.0.0.1/bundles");
  }

  @Test
  void each_stated_state_round_trips_with_its_count_and_words() {
    for (Stock s : new Stock[] {Stock.available(3, "available_count=3"), Stock.available(null, "rentable: true"),
        Stock.unavailable("rentable: false")}) {
      Quote q = quote().withStock(s);
      Quote back = QuoteJson.quote(new JsonObject(QuoteJson.toJson(q).encode()));
      assertEquals(q, back);
      assertEquals(s, back.stock());
    }
    JsonObject j = QuoteJson.toJson(quote().withStock(Stock.available(3, "available_count=3")));
    assertEquals(new JsonObject().put("state", "available").put("count", 3).put("said", "available_count=3"), j.getJsonObject("stock"));
  }

  @Test
  void a_quote_without_stated_stock_writes_no_stock_and_older_json_reads_as_unknown() {
    JsonObject j = QuoteJson.toJson(quote());
    assertFalse(j.containsKey("stock"), "nothing stated, nothing written: older readers see the same JSON");
    assertEquals(Stock.UNKNOWN, QuoteJson.quote(j).stock());
  }

  @Test
  void a_count_needs_an_available_state() {
    assertThrows(IllegalArgumentException.class, () -> new Stock(Stock.State.UNAVAILABLE, 2, "sold out"));
    assertThrows(IllegalArgumentException.class, () -> Stock.State.parse("sold-out"));
  }
}
