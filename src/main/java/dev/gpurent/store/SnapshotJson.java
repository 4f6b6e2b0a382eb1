package dev.gpurent.store;

import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two JSON documents a snapshot row carries beside its quote rows ({@code fx_json} and
 * {@code vendors_json}), both ways. Stored JSON outlives the code that wrote it: a reader takes
 * what an older writer left (absent keys have defaults) and a writer never renames a key.
 */
final class SnapshotJson {

  /** A vendor's rejected-row reasons kept with a snapshot (the count is always kept). */
  static final int REJECTED_KEPT = 20;

  private SnapshotJson() {}

  /** The FX rates: base, asOf, source and each currency's units per base, exact (as strings, so no double rounds them). */
  static JsonObject fx(FxRates fx) {
    JsonObject rates = new JsonObject();
    fx.currencies().stream().sorted().forEach(cur -> rates.put(cur, fx.rate(fx.base(), cur).orElseThrow().toPlainString()));
    return new JsonObject().put("base", fx.base()).put("asOf", fx.asOf() == null ? null : fx.asOf().toString())
        .put("source", fx.source()).put("rates", rates);
  }

  static FxRates fxRates(JsonObject j) {
    Map<String, BigDecimal> rates = new HashMap<>();
    j.getJsonObject("rates", new JsonObject()).forEach(e -> rates.put(e.getKey(), new BigDecimal(String.valueOf(e.getValue()))));
    String asOf = j.getString("asOf");
    return new FxRates(j.getString("base"), rates, asOf == null ? null : LocalDate.parse(asOf), j.getString("source"));
  }

  /**
   * Each vendor's status when the snapshot was taken, with what it takes to rebuild its
   * {@link VendorQuotes} (display name, note, terms, fetch time, the first rejected rows); a vendor
   * in {@code carriedFrom} is marked {@code "carriedFrom": id}, its quotes not fetched for this one.
   */
  static JsonArray vendors(QuoteBook book, Map<String, Long> carriedFrom) {
    JsonArray out = new JsonArray();
    for (QuoteBook.Entry e : book.vendors().values()) {
      VendorQuotes v = e.quotes();
      Freshness f = e.freshness();
      List<String> rejected = v.rejected();
      JsonObject j = new JsonObject().put("vendor", v.vendor()).put("displayName", v.displayName()).put("note", v.note())
          .put("status", f.state().name().toLowerCase()).put("ageSeconds", f.age().toSeconds())
          .put("fetchedAt", v.fetchedAt() == null ? null : v.fetchedAt().toString())
          .put("quotes", v.quotes().size()).put("rejectedCount", rejected.size())
          .put("rejected", new JsonArray(new ArrayList<>(rejected.subList(0, Math.min(REJECTED_KEPT, rejected.size())))))
          .put("terms", v.terms() == null ? null : QuoteJson.toJson(v.terms()));
      Long from = carriedFrom.get(v.vendor());
      if (from != null) j.put("carriedFrom", from);
      out.add(j);
    }
    book.unavailable().forEach((vendor, why) -> out.add(new JsonObject().put("vendor", vendor).put("status", "unavailable")
        .put("reason", why)));
    return out;
  }

  /**
   * Each vendor of a snapshot rebuilt from its entry in {@link #vendors} and its quotes, in the
   * order of the entries; vendors that were unavailable, or that had no terms, are left out.
   */
  static Map<String, VendorQuotes> vendorQuotes(SnapshotMeta m, List<Quote> quotes) {
    Map<String, List<Quote>> byVendor = new LinkedHashMap<>();
    for (Quote q : quotes) byVendor.computeIfAbsent(q.vendor(), v -> new ArrayList<>()).add(q);
    Map<String, VendorQuotes> vendors = new LinkedHashMap<>();
    for (Object o : m.vendors()) {
      JsonObject v = (JsonObject) o;
      JsonObject terms = v.getJsonObject("terms");
      if ("unavailable".equals(v.getString("status")) || terms == null) continue;
      String id = v.getString("vendor");
      List<String> rejected = new ArrayList<>();
      for (Object r : v.getJsonArray("rejected", new JsonArray())) rejected.add(String.valueOf(r));
      String fetched = v.getString("fetchedAt");
      vendors.put(id, new VendorQuotes(id, v.getString("displayName"), QuoteJson.terms(terms), byVendor.getOrDefault(id, List.of()),
          rejected, fetched == null ? m.takenAt() : Instant.parse(fetched), v.getString("note", "")));
    }
    return vendors;
  }
}
