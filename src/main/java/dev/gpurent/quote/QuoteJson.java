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
    return new JsonObject()
        .put("vendor", q.vendor()).put("region", q.region()).put("offer", q.offerId()).put("gpu", q.gpuId())
        .put("gpuCount", q.gpuCount()).put("vcpus", q.vcpus()).put("ramGiB", q.ramGiB())
        .put("billing", q.billing().wire()).put("price", q.price().amount().toPlainString())
        .put("currency", q.price().currency()).put("unit", q.unit().wire())
        .put("observedAt", q.observedAt() == null ? null : q.observedAt().toString()).put("source", q.source());
  }

  public static Quote quote(JsonObject j) {
    String at = j.getString("observedAt");
    return new Quote(j.getString("vendor"), j.getString("region"), j.getString("offer"), j.getString("gpu"),
        j.getDouble("gpuCount"), j.getDouble("vcpus", 0.0), j.getDouble("ramGiB", 0.0), Billing.parse(j.getString("billing")),
        new Money(new BigDecimal(j.getString("price")), j.getString("currency")), PriceUnit.parse(j.getString("unit")),
        at == null ? null : Instant.parse(at), j.getString("source"));
  }

  public static JsonObject toJson(VendorTerms t) {
    JsonArray tiers = new JsonArray();
    for (VendorTerms.EgressTier tier : t.egress()) {
      tiers.add(new JsonObject().put("upToGb", tier.upToGb() == null ? null : tier.upToGb().toPlainString())
          .put("perGb", tier.perGb().amount().toPlainString()));
    }
    return new JsonObject().put("currency", t.storagePerGbMonth().currency())
        .put("storagePerGbMonth", t.storagePerGbMonth().amount().toPlainString()).put("egressTiers", tiers)
        .put("ingressPerGb", t.ingressPerGb().amount().toPlainString())
        .put("loadBalancerPerMonth", t.loadBalancerPerMonth().amount().toPlainString())
        .put("granularity", t.granularity()).put("discount", t.discount().toPlainString()).put("source", t.source());
  }

  public static VendorTerms terms(JsonObject j) {
    String cur = j.getString("currency");
    List<VendorTerms.EgressTier> tiers = new ArrayList<>();
    for (Object o : j.getJsonArray("egressTiers")) {
      JsonObject t = (JsonObject) o;
      String upTo = t.getString("upToGb");
      tiers.add(new VendorTerms.EgressTier(upTo == null ? null : new BigDecimal(upTo), Money.of(t.getString("perGb"), cur)));
    }
    return new VendorTerms(Money.of(j.getString("storagePerGbMonth"), cur), tiers, Money.of(j.getString("ingressPerGb"), cur),
        Money.of(j.getString("loadBalancerPerMonth"), cur), j.getString("granularity"), new BigDecimal(j.getString("discount")),
        j.getString("source"));
  }

  public static JsonObject toJson(VendorQuotes v) {
    JsonArray quotes = new JsonArray();
    v.quotes().forEach(q -> quotes.add(toJson(q)));
    return new JsonObject().put("vendor", v.vendor()).put("displayName", v.displayName()).put("terms", toJson(v.terms()))
        .put("quotes", quotes).put("rejected", new JsonArray(new ArrayList<>(v.rejected())))
        .put("fetchedAt", v.fetchedAt().toString()).put("note", v.note());
  }

  public static VendorQuotes vendorQuotes(JsonObject j) {
    List<Quote> quotes = new ArrayList<>();
    for (Object o : j.getJsonArray("quotes")) quotes.add(quote((JsonObject) o));
    List<String> rejected = new ArrayList<>();
    for (Object o : j.getJsonArray("rejected", new JsonArray())) rejected.add(String.valueOf(o));
    return new VendorQuotes(j.getString("vendor"), j.getString("displayName"), terms(j.getJsonObject("terms")), quotes, rejected,
        Instant.parse(j.getString("fetchedAt")), j.getString("note", ""));
  }
}
