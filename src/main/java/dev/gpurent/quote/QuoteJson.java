package dev.gpurent.quote;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** JSON forms of quotes and vendor payloads: for the API, the last-good cache and snapshots. Money stays exact (decimal strings). */
public final class QuoteJson {

  private QuoteJson() {}

  public static JsonObject toJson(Quote q) {
    JsonObject j = new JsonObject()
        .put("vendor", q.vendor()).put("region", q.region()).put("offer", q.offerId()).put("gpu", q.gpuId())
        .put("gpuCount", q.gpuCount()).put("vcpus", q.vcpus()).put("ramGiB", q.ramGiB())
        .put("billing", q.billing().wire()).put("price", q.price().amount().toPlainString())
        .put("currency", q.price().currency()).put("unit", q.unit().wire())
        .put("observedAt", q.observedAt() == null ? null : q.observedAt().toString())
        .put("priceDate", q.priceDate() == null ? null : q.priceDate().toString()).put("source", q.source());
    if (!q.upstream().isEmpty()) j.put("upstream", q.upstream());
    if (!q.country().isEmpty()) j.put("country", q.country());
    if (q.upfront() != null) j.put("upfront", q.upfront().amount().toPlainString());
    if (q.stock().isKnown()) j.put("stock", toJson(q.stock()));
    return j;
  }

  public static Quote quote(JsonObject j) {
    String at = j.getString("observedAt");
    String dated = j.getString("priceDate");
    return new Quote(j.getString("vendor"), j.getString("region"), j.getString("offer"), j.getString("gpu"),
        j.getDouble("gpuCount"), j.getDouble("vcpus", 0.0), j.getDouble("ramGiB", 0.0), Billing.parse(j.getString("billing")),
        new Money(new BigDecimal(j.getString("price")), j.getString("currency")), PriceUnit.parse(j.getString("unit")),
        at == null ? null : Instant.parse(at), j.getString("source"), dated == null ? null : Instant.parse(dated),
        j.getString("upstream", ""), j.getString("country", ""),
        j.getString("upfront") == null ? null : new Money(new BigDecimal(j.getString("upfront")), j.getString("currency")),
        j.getJsonObject("stock") == null ? Stock.UNKNOWN : stock(j.getJsonObject("stock")));
  }

  /** A stated availability as JSON: {@code {"state": "available", "count": 3, "said": "available_count=3"}} (count only when stated). */
  public static JsonObject toJson(Stock s) {
    return new JsonObject(s.toMap());
  }

  public static Stock stock(JsonObject j) {
    return new Stock(Stock.State.parse(j.getString("state")), j.getInteger("count"), j.getString("said", ""));
  }

  /** A service term as JSON: {@code {"availability": "price", "price": "0.023", "source": ..., "typical": true}} (typical only when so). */
  public static JsonObject toJson(ServicePrice p) {
    JsonObject j = new JsonObject().put("availability", p.availability().wire());
    if (p.isPriced()) j.put("price", p.price().amount().toPlainString());
    if (!p.source().isEmpty()) j.put("source", p.source());
    if (p.typical()) j.put("typical", true);
    return j;
  }

  /** Reads {@link #toJson(ServicePrice)}, and the plain decimal string that older files hold. */
  public static ServicePrice servicePrice(Object v, String currency) {
    if (v instanceof JsonObject j) {
      ServicePrice.Availability a = ServicePrice.Availability.parse(j.getString("availability"));
      return new ServicePrice(a, a == ServicePrice.Availability.PRICED ? Money.of(j.getString("price"), currency) : null,
          j.getString("source", ""), j.getBoolean("typical", false));
    }
    return ServicePrice.priced(Money.of(String.valueOf(v), currency), "");
  }

  public static JsonObject toJson(VendorTerms t) {
    JsonArray tiers = new JsonArray();
    for (VendorTerms.EgressTier tier : t.egressTiers()) {
      tiers.add(new JsonObject().put("upToGb", tier.upToGb() == null ? null : tier.upToGb().toPlainString())
          .put("perGb", tier.perGb().amount().toPlainString()));
    }
    return new JsonObject().put("currency", t.currency())
        .put("storagePerGbMonth", toJson(t.storagePerGbMonth())).put("egress", toJson(t.egress())).put("egressTiers", tiers)
        .put("ingressPerGb", toJson(t.ingressPerGb())).put("loadBalancerPerMonth", toJson(t.loadBalancerPerMonth()))
        .put("granularity", t.granularity()).put("discount", t.discount().toPlainString()).put("source", t.source())
        .put("migrationInPerGb", toJson(t.migrationInPerGb())).put("migrationOutPerGb", toJson(t.migrationOutPerGb()))
        .put("bandwidthMbps", t.bandwidthMbps());
  }

  public static VendorTerms terms(JsonObject j) {
    String cur = j.getString("currency");
    List<VendorTerms.EgressTier> tiers = new ArrayList<>();
    for (Object o : j.getJsonArray("egressTiers")) {
      JsonObject t = (JsonObject) o;
      String upTo = t.getString("upToGb");
      tiers.add(new VendorTerms.EgressTier(upTo == null ? null : new BigDecimal(upTo), Money.of(t.getString("perGb"), cur)));
    }
    ServicePrice egress = j.getValue("egress") == null
        ? ServicePrice.priced(tiers.get(0).perGb(), "") : servicePrice(j.getValue("egress"), cur);
    return new VendorTerms(cur, servicePrice(j.getValue("storagePerGbMonth"), cur), egress, tiers,
        servicePrice(j.getValue("ingressPerGb"), cur), servicePrice(j.getValue("loadBalancerPerMonth"), cur),
        j.getString("granularity"), new BigDecimal(j.getString("discount")), j.getString("source"),
        j.getValue("migrationInPerGb") == null ? ServicePrice.unknown("") : servicePrice(j.getValue("migrationInPerGb"), cur),
        j.getValue("migrationOutPerGb") == null ? ServicePrice.unknown("") : servicePrice(j.getValue("migrationOutPerGb"), cur),
        j.getDouble("bandwidthMbps", 0.0));
  }

  public static JsonObject toJson(VendorQuotes v) {
    JsonArray quotes = new JsonArray();
    v.quotes().forEach(q -> quotes.add(toJson(q)));
    return new JsonObject().put("vendor", v.vendor()).put("displayName", v.displayName()).put("terms", toJson(v.terms()))
        .put("quotes", quotes).put("rejected", new JsonArray(new ArrayList<>(v.rejected())))
        .put("fetchedAt", v.fetchedAt().toString()).put("note", v.note()).put("reference", v.reference());
  }

  public static VendorQuotes vendorQuotes(JsonObject j) {
    List<Quote> quotes = new ArrayList<>();
    for (Object o : j.getJsonArray("quotes")) quotes.add(quote((JsonObject) o));
    List<String> rejected = new ArrayList<>();
    for (Object o : j.getJsonArray("rejected", new JsonArray())) rejected.add(String.valueOf(o));
    return new VendorQuotes(j.getString("vendor"), j.getString("displayName"), terms(j.getJsonObject("terms")), quotes, rejected,
        Instant.parse(j.getString("fetchedAt")), j.getString("note", ""), j.getBoolean("reference", false));
  }
}
