package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kind {@code runpod}: the {@code gpuTypes} list of RunPod's GraphQL API, either bare (a JSON
 * array, as tools save it) or as the API answers it, {@code {"data":{"gpuTypes":[...]}}}.
 *
 * <p>Every price is USD per GPU-hour, so each quote is for ONE GPU ({@code gpuCount} 1) and unit
 * HOUR. RunPod sells each GPU type in two clouds, which become two offers:
 * {@code "<gpu type id>/secure"} and {@code "<gpu type id>/community"}, with region {@code ""}
 * (gpuTypes prices are not per datacenter). The fields map as follows:
 * <ul>
 *   <li>{@code securePrice} / {@code secureSpotPrice}: secure offer, ON_DEMAND / SPOT;</li>
 *   <li>{@code communityPrice} / {@code communitySpotPrice}: community offer, ON_DEMAND / SPOT;</li>
 *   <li>{@code oneMonthPrice}, {@code threeMonthPrice}, {@code sixMonthPrice}: secure offer,
 *       MONTHLY, THREE_MONTHS, SIX_MONTHS, unit HOUR (an hourly rate committed for the term).
 *       They belong to the Secure Cloud: RunPod's savings plans are a Secure Cloud product, and
 *       in the recorded payload every commitment price is a fixed discount of
 *       {@code securePrice} (RTX 4090: 0.69 secure, 0.649 three months, 0.6 six months).</li>
 *   <li>{@code oneWeekPrice}: there is no weekly {@link Billing}, so a non-null one is rejected
 *       with that reason (null in every recorded row).</li>
 *   <li>{@code clusterPrice}: Instant Clusters (multi-node, per GPU-hour) are not a rental
 *       offer of one machine; ignored.</li>
 * </ul>
 * A {@code null} price means "not offered" and is skipped silently. A price of a cloud whose
 * flag ({@code secureCloud} / {@code communityCloud}) is false is rejected: the API still fills
 * such prices (MI300X has {@code communityPrice} 0.5 with {@code communityCloud} false), but
 * nobody can rent them ({@link Placeholders}, the rule the market observations share). A price of 0 is not an offer. GPU types resolve by {@code id} only:
 * {@code displayName} is ambiguous ("A100 SXM" names no memory size).
 *
 * <p>Live source: POST to {@code https://api.runpod.io/graphql} with the YAML key {@code query}
 * (sent as {@code {"query": ...}}) and an Authorization header from the environment.
 */
public final class RunPodFormat {

  public static final String KIND = "runpod";

  static final String SECURE = "secure";
  static final String COMMUNITY = "community";

  /** One price field: which cloud it belongs to and how it is billed. */
  private record Field(String name, String cloud, Billing billing) {}

  private static final List<Field> FIELDS = List.of(
      new Field("securePrice", SECURE, Billing.ON_DEMAND),
      new Field("secureSpotPrice", SECURE, Billing.SPOT),
      new Field("communityPrice", COMMUNITY, Billing.ON_DEMAND),
      new Field("communitySpotPrice", COMMUNITY, Billing.SPOT),
      new Field("oneMonthPrice", SECURE, Billing.MONTHLY),
      new Field("threeMonthPrice", SECURE, Billing.THREE_MONTHS),
      new Field("sixMonthPrice", SECURE, Billing.SIX_MONTHS));

  private RunPodFormat() {}

  /** Reads a saved or live gpuTypes payload; pure, no I/O. */
  public static VendorQuotes parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    List<Object> types = gpuTypes(JsonValues.document(payload, "RunPod gpuTypes"));
    String cite = KIND + ":" + payload.origin();
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      if (!(types.get(i) instanceof Map<?, ?> t)) {
        rejected.add("gpuTypes[" + i + "]: not an object");
        continue;
      }
      String id = String.valueOf(t.get("id"));
      String where = "gpuTypes[" + i + "] (" + id + ")";
      Optional<Gpu> gpu = catalog.find(id);
      if (gpu.isEmpty()) {
        rejected.add(where + ": unknown GPU '" + id + "' (displayName '" + t.get("displayName") + "')");
        continue;
      }
      if (t.get("oneWeekPrice") != null) {
        rejected.add(where + ": oneWeekPrice " + t.get("oneWeekPrice") + " skipped: there is no weekly billing mode");
      }
      for (Field f : FIELDS) {
        Object v = t.get(f.name());
        if (v == null) continue; // not offered
        BigDecimal price = Decimals.of(v);
        if (price == null) {
          rejected.add(where + ": " + Decimals.notANumber(f.name(), v));
          continue;
        }
        String flag = f.cloud() + "Cloud";
        Optional<String> placeholder = Placeholders.runPod(f.name(), flag, t.get(flag) instanceof Boolean b ? b : null, f.billing(), price);
        if (placeholder.isPresent()) {
          rejected.add(where + ": " + placeholder.get());
          continue;
        }
        if (price.signum() <= 0) {
          rejected.add(where + ": " + f.name() + " " + price.toPlainString() + " is not an offer");
          continue;
        }
        quotes.add(new Quote(def.vendor(), "", id + "/" + f.cloud(), gpu.get().id(), 1, 0, 0, f.billing(),
            new Money(price, "USD"), PriceUnit.HOUR, fetchedAt, cite));
      }
    }
    return new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, fetchedAt, def.note());
  }

  /** The gpuTypes array, bare or inside a GraphQL answer; GraphQL errors fail the whole payload. */
  @SuppressWarnings("unchecked")
  private static List<Object> gpuTypes(Object root) {
    if (root instanceof List<?> list) return (List<Object>) list;
    if (root instanceof Map<?, ?> map) {
      if (map.get("data") instanceof Map<?, ?> data && data.get("gpuTypes") instanceof List<?> list) {
        return (List<Object>) list;
      }
      if (map.get("errors") != null) {
        throw new IllegalArgumentException("RunPod GraphQL answered with errors: " + map.get("errors"));
      }
    }
    throw new IllegalArgumentException("not a RunPod gpuTypes payload: expected a JSON array or {\"data\":{\"gpuTypes\":[...]}}");
  }
}
