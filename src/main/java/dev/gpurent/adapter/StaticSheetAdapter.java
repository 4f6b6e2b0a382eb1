package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * </pre>
 *
 * A row naming an unknown GPU, billing mode or malformed price is rejected with its reason;
 * the rest of the sheet is kept. Quotes are observed at the fetch and dated (priceDate) by
 * {@code asOf}, the day the sheet's prices were given (the fetch when it has none).
 */
public final class StaticSheetAdapter implements VendorAdapterFactory {

  @Override
  public String name() {
    return "static";
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    JsonArray offers = def.config().getJsonArray("offers");
    if (offers == null || offers.isEmpty()) VendorDefinition.fail(def.where(), "offers", "a static sheet needs a list of offers");
    Instant asOf = def.asOf().orElse(null);
    String source = "static:" + def.where();
    return () -> {
      Instant observed = Instant.now();
      Instant dated = asOf != null ? asOf : observed;
      List<Quote> quotes = new ArrayList<>();
      List<String> rejected = new ArrayList<>();
      for (int i = 0; i < offers.size(); i++) {
        try {
          quotes.addAll(offerQuotes(def, catalog, offers.getJsonObject(i), observed, source).stream()
              .map(q -> q.withPriceDate(dated)).toList());
        } catch (RuntimeException e) {
          rejected.add("offers[" + i + "]: " + e.getMessage());
        }
      }
      return Future.succeededFuture(new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected,
          Instant.now(), def.note(), def.reference()));
    };
  }

  private static List<Quote> offerQuotes(VendorDefinition def, GpuCatalog catalog, JsonObject o, Instant observed,
                                         String source) {
    Gpu gpu = catalog.resolve(o.getValue("gpu", "").toString());
    String offer = o.getString("offer", gpu.id());
    double count = Double.parseDouble(o.getValue("count", 1).toString());
    if (count <= 0) throw new IllegalArgumentException("count must be > 0");
    JsonObject prices = o.getJsonObject("prices");
    if (prices == null || prices.isEmpty()) throw new IllegalArgumentException("prices are required");
    List<Quote> out = new ArrayList<>();
    for (Map.Entry<String, Object> p : prices) {
      Billing billing = Billing.parse(p.getKey());
      String text = String.valueOf(p.getValue());
      int slash = text.indexOf('/');
      if (slash < 0) throw new IllegalArgumentException("price '" + text + "' must look like 3/hour or 1500/month");
      BigDecimal amount = new BigDecimal(text.substring(0, slash).trim());
      if (amount.signum() <= 0) throw new IllegalArgumentException("price '" + text + "' must be > 0");
      PriceUnit unit = PriceUnit.parse(text.substring(slash + 1));
      out.add(new Quote(def.vendor(), o.getString("region", ""), offer, gpu.id(), count,
          o.getDouble("vcpus", 0.0), o.getDouble("ramGiB", 0.0), billing, new Money(amount, def.currency()), unit,
          observed, source));
    }
    return out;
  }
}
