package dev.gpurent.service.snapshots;

import dev.gpurent.quote.FxRates;
import dev.gpurent.store.PriceSeries;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code /api/history} answers, from the store's series: each series under its vendor's
 * canonical id and, when a currency is asked for, in that currency at the book's FX rates.
 *
 * <p>Why canonical ids: imported market history names a provider by its own spelling ("vast.ai",
 * slugged {@code vast-ai}) while fetched snapshots use the adapter's id ({@code vast}, shown as
 * "Vast.ai"), so one vendor would be two lines. An imported id is mapped to the configured vendor
 * whose id or display name spells the same letters and digits; the id as stored stays in
 * {@code listedAs}. A converted series carries {@code fx}: from, rate, asOf and source, so the
 * page can say which day's rate it used; a series in a currency the rates lack is left as it is.
 */
final class HistoryAnswer {

  /** Conversions keep 10 significant digits: far past a cent on any GPU price. */
  private static final MathContext PRICE = new MathContext(10);

  private final Map<String, String> canonical;
  private final FxRates fx;
  private final String currency;

  /**
   * @param vendorNames configured vendor id -> display name (the quote book's)
   * @param fx          the book's rates, or null for no conversion
   * @param currency    the currency asked for, or null for the prices as quoted
   */
  HistoryAnswer(Map<String, String> vendorNames, FxRates fx, String currency) {
    this.canonical = new HashMap<>();
    vendorNames.forEach((id, name) -> {
      canonical.putIfAbsent(key(id), id);
      if (name != null) canonical.putIfAbsent(key(name), id);
    });
    this.fx = fx;
    this.currency = currency == null ? null : currency.toUpperCase(Locale.ROOT);
  }

  /** "Vast.ai", "vast-ai" and "VAST_AI" are one key. */
  static String key(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
  }

  /** The vendor id a stored id stands for: a configured one spelled alike, else itself. */
  String vendor(String stored) {
    return canonical.getOrDefault(key(stored), stored);
  }

  JsonArray toJson(List<PriceSeries> series) {
    JsonArray out = new JsonArray();
    for (PriceSeries s : series) out.add(toJson(s));
    return out;
  }

  private JsonObject toJson(PriceSeries s) {
    JsonObject j = s.toJson();
    String id = vendor(s.vendor());
    if (!id.equals(s.vendor())) j.put("vendor", id).put("listedAs", s.vendor());
    if (currency == null || fx == null || currency.equalsIgnoreCase(s.currency())) return j;
    var rate = fx.rate(s.currency(), currency);
    if (rate.isEmpty()) return j;
    JsonArray pts = new JsonArray();
    for (PriceSeries.Point p : s.points()) {
      pts.add(new JsonObject().put("at", p.at().toString())
          .put("price", p.price().multiply(rate.get(), PRICE).stripTrailingZeros().toPlainString()));
    }
    return j.put("currency", currency).put("points", pts).put("fx", new JsonObject().put("from", s.currency())
        .put("rate", rate.get().round(new MathContext(6)).stripTrailingZeros().toPlainString())
        .put("asOf", fx.asOf() == null ? null : fx.asOf().toString()).put("source", dev.gpurent.config.UserText.withoutPaths(fx.source())));
  }
}
