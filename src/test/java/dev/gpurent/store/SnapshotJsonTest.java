package dev.gpurent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON a snapshot row keeps beside its quotes, read back without a database. */
class SnapshotJsonTest {

  static final Instant T1 = Instant.parse("2026-02-28T18:30:00Z");

  static Map<String, JsonObject> byVendor(JsonArray vendors) {
    Map<String, JsonObject> out = new java.util.HashMap<>();
    for (Object o : vendors) out.put(((JsonObject) o).getString("vendor"), (JsonObject) o);
    return out;
  }

  @Test
  void fx_rates_come_back_exact_and_a_missing_as_of_stays_missing() {
    FxRates back = SnapshotJson.fxRates(new JsonObject(SnapshotJson.fx(RealBooks.FX).encode()));
    assertEquals(RealBooks.FX.base(), back.base());
    assertEquals(RealBooks.FX.asOf(), back.asOf());
    assertEquals(RealBooks.FX.source(), back.source());
    assertEquals(new BigDecimal("1.1252"), back.rate("EUR", "USD").orElseThrow(), "as written, scale and all");
    FxRates none = SnapshotJson.fxRates(SnapshotJson.fx(FxRates.none("USD")));
    assertNull(none.asOf());
    assertEquals("USD", none.base());
  }

  @Test
  void vendors_keep_status_counts_the_first_rejected_rows_and_where_carried_quotes_came_from() {
    JsonArray vendors = SnapshotJson.vendors(RealBooks.book(T1), Map.of("lambda", 41L, "vast", 41L));
    Map<String, JsonObject> v = byVendor(new JsonArray(vendors.encode()));
    assertEquals(41L, v.get("lambda").getLong("carriedFrom"));
    assertFalse(v.get("runpod").containsKey("carriedFrom"));
    assertFalse(v.get("vast").containsKey("carriedFrom"), "an unavailable vendor carried nothing");
    assertEquals("unavailable", v.get("vast").getString("status"));
    assertEquals(29, v.get("runpod").getInteger("rejectedCount"));
    assertEquals(SnapshotJson.REJECTED_KEPT, v.get("runpod").getJsonArray("rejected").size());
    assertEquals(RealBooks.RUNPOD_QUOTES.rejected().subList(0, SnapshotJson.REJECTED_KEPT),
        v.get("runpod").getJsonArray("rejected").getList());
  }

  @Test
  void vendor_quotes_are_rebuilt_from_their_entries_and_quotes_leaving_out_the_unavailable() {
    QuoteBook book = RealBooks.book(T1);
    JsonArray vendors = new JsonArray(SnapshotJson.vendors(book, Map.of()).encode());
    SnapshotMeta meta = new SnapshotMeta(7, "2026-03-01", SnapshotMeta.SCHEDULED, T1, 538, SnapshotJson.fx(book.fx()), vendors);
    List<Quote> quotes = book.vendors().values().stream().flatMap(e -> e.quotes().quotes().stream()).toList();
    Map<String, VendorQuotes> back = SnapshotJson.vendorQuotes(meta, quotes);
    assertEquals(List.of("runpod", "lambda").stream().sorted().toList(), back.keySet().stream().sorted().toList());
    for (VendorQuotes original : List.of(RealBooks.RUNPOD_QUOTES, RealBooks.LAMBDA_QUOTES)) {
      VendorQuotes b = back.get(original.vendor());
      assertEquals(original.quotes(), b.quotes());
      assertEquals(original.terms(), b.terms());
      assertEquals(original.displayName(), b.displayName());
      assertEquals(original.fetchedAt(), b.fetchedAt());
    }
    // an entry an older writer left without fetchedAt or note: the snapshot's time, and no note
    JsonObject old = vendors.getJsonObject(0).copy();
    old.remove("fetchedAt");
    old.remove("note");
    VendorQuotes aged = SnapshotJson.vendorQuotes(new SnapshotMeta(7, "s", SnapshotMeta.SCHEDULED, T1, 0, new JsonObject(),
        new JsonArray().add(old)), List.of()).get(old.getString("vendor"));
    assertEquals(T1, aged.fetchedAt());
    assertEquals("", aged.note());
    assertEquals(List.of(), aged.quotes());
  }
}
