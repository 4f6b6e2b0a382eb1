package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteExpiredException;
import dev.gpurent.quote.QuoteIntegrity;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kind {@code static}: a hand-kept price sheet inside the vendor's YAML, such as a quote a
 * vendor sent before signing. Each offer names a GPU, a count and its prices per billing mode
 * as {@code AMOUNT/UNIT}:
 *
 * <pre>
 * asOf: "2025-06-01"
 * offers:
 *   - gpu: RTX 4090
 *     offer: rtx-4090          # optional, defaults to the GPU id
 *     region: cn-east           # optional
 *     count: 1                  # optional, GPUs per instance
 *     prices: {on-demand: 3/hour, monthly: 1500/month, spot: 0.8/hour}
 *     currency: CNY             # optional, defaults to the vendor's
 *     country: CN               # optional, ISO 3166 code of the region's country
 *     validUntil: "2026-06-30"  # optional, the last day the quote holds
 * </pre>
 *
 * A row naming an unknown GPU, billing mode or malformed price is rejected with its reason;
 * the rest of the sheet is kept. Quotes are observed at the fetch and dated (priceDate) by
 * {@code asOf}, the day the sheet's prices were given (undated when it has none: the fetch is no price's date). An offer past its {@code validUntil} (inclusive, UTC date) is
 * rejected once per price as "quote expired on D" (a withdrawal by the source itself, which
 * {@link QuoteIntegrity} does not count as offers lost); when every offer is past it, the fetch
 * fails with {@link QuoteExpiredException} and the vendor leaves the ranking with that reason
 * instead of being ranked on its last good quotes.
 */
public final class StaticSheetFormat {

  public static final String KIND = "static";

  private StaticSheetFormat() {}

  /** The adapter, telling expired offers by {@code clock}'s UTC date. */
  public static VendorAdapter create(VendorDefinition def, GpuCatalog catalog, Clock clock) {
    JsonArray offers = def.config().getJsonArray("offers");
    if (offers == null || offers.isEmpty()) VendorDefinition.fail(def.where(), "offers", "a static sheet needs a list of offers");
    Instant asOf = def.asOf().orElse(null);
    String source = "static:" + dev.gpurent.config.UserText.vendorFile(def.where());
    return () -> {
      Instant observed = clock.instant();
      LocalDate today = LocalDate.ofInstant(observed, ZoneOffset.UTC);
      List<Quote> quotes = new ArrayList<>();
      List<String> rejected = new ArrayList<>();
      LocalDate latestExpired = null;
      for (int i = 0; i < offers.size(); i++) {
        try {
          JsonObject o = offers.getJsonObject(i);
          List<Quote> priced = offerQuotes(def, catalog, o, observed, source).stream().map(q -> asOf == null ? q : q.withPriceDate(asOf)).toList();
          LocalDate validUntil = validUntil(o);
          if (validUntil != null && validUntil.isBefore(today)) {
            for (Quote q : priced) {
              rejected.add("offers[" + i + "] " + q.offerId() + " " + q.billing().wire() + QuoteIntegrity.EXPIRED_MARK
                  + validUntil.plusDays(1) + " (valid until " + validUntil + ")");
            }
            if (latestExpired == null || validUntil.isAfter(latestExpired)) latestExpired = validUntil;
          } else {
            quotes.addAll(priced);
          }
        } catch (RuntimeException e) {
          rejected.add("offers[" + i + "]: " + e.getMessage());
        }
      }
      if (quotes.isEmpty() && latestExpired != null) return Future.failedFuture(new QuoteExpiredException(latestExpired));
      return Future.succeededFuture(new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected,
          observed, def.note(), def.reference()));
    };
  }

  private static LocalDate validUntil(JsonObject o) {
    Object v = o.getValue("validUntil");
    if (v == null || v.toString().isBlank()) return null;
    try {
      return LocalDate.parse(v.toString().trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("validUntil '" + v + "' is not a date (YYYY-MM-DD)");
    }
  }

  private static List<Quote> offerQuotes(VendorDefinition def, GpuCatalog catalog, JsonObject o, Instant observed,
                                         String source) {
    Gpu gpu = catalog.resolve(o.getValue("gpu", "").toString());
    String offer = o.getString("offer", gpu.id());
    BigDecimal countValue = Decimals.of(o.getValue("count", 1));
    if (countValue == null) throw new IllegalArgumentException(Decimals.notANumber("count", o.getValue("count")));
    double count = countValue.doubleValue();
    if (count <= 0) throw new IllegalArgumentException("count must be > 0");
    JsonObject prices = o.getJsonObject("prices");
    if (prices == null || prices.isEmpty()) throw new IllegalArgumentException("prices are required");
    String currency = o.getString("currency", def.currency()).trim().toUpperCase(Locale.ROOT);
    if (!currency.matches("[A-Z]{3}")) throw new IllegalArgumentException("currency '" + currency + "' is not a 3-letter ISO code");
    String country = o.getString("country", "").trim().toUpperCase(Locale.ROOT);
    if (!country.isEmpty() && !country.matches("[A-Z]{2}")) {
      throw new IllegalArgumentException("country '" + country + "' is not a 2-letter ISO 3166 code");
    }
    List<Quote> out = new ArrayList<>();
    for (Map.Entry<String, Object> p : prices) {
      Billing billing = Billing.parse(p.getKey());
      String text = String.valueOf(p.getValue());
      int slash = text.indexOf('/');
      if (slash < 0) throw new IllegalArgumentException("price '" + text + "' must look like 3/hour or 1500/month");
      BigDecimal amount = Decimals.of(text.substring(0, slash));
      if (amount == null) throw new IllegalArgumentException(Decimals.notANumber("price", text));
      if (amount.signum() <= 0) throw new IllegalArgumentException("price '" + text + "' must be > 0");
      PriceUnit unit = PriceUnit.parse(text.substring(slash + 1));
      Quote q = new Quote(def.vendor(), o.getString("region", ""), offer, gpu.id(), count,
          o.getDouble("vcpus", 0.0), o.getDouble("ramGiB", 0.0), billing, new Money(amount, currency), unit,
          observed, source);
      out.add(country.isEmpty() ? q : q.withCountry(country));
    }
    return out;
  }
}
