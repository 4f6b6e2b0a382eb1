package dev.gpurent.adapter;

import static dev.gpurent.adapter.GcpBillingCatalogAdapter.GPU_ONLY_LABEL;
import static dev.gpurent.adapter.GcpBillingCatalogAdapter.GPU_ONLY_REASON;
import static dev.gpurent.adapter.GcpBillingCatalogAdapter.LOCATIONS;
import static dev.gpurent.adapter.GcpBillingCatalogAdapter.keepGpuOnly;
import static dev.gpurent.adapter.GcpBillingCatalogAdapter.locationKey;

import dev.gpurent.adapter.GcpBillingCatalogAdapter.Result;
import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Cloud Billing Catalog's SKUs read into quotes, page after page of one fetch (or one recorded
 * payload): which SKUs are GPUs, where and how each is billed, and its price; the format is
 * {@link GcpBillingCatalogAdapter}'s to describe. Used by one fetch at a time.
 */
final class GcpSkuCollector {

  /**
   * "[Commitment v1: ][Spot ][Preemptible ]MODEL[ attached to [Spot ]Preemptible VMs][ running] in LOCATION[ for N Year(s)]".
   */
  private static final Pattern DESCRIPTION = Pattern.compile(
      "^(?<commit>Commitment(?: v\\d+)?:\\s*)?(?<pre>(?:Spot\\s+)?Preemptible\\s+)?(?<model>.+?)"
          + "(?<attached>\\s+attached\\s+to\\s+(?:Spot\\s+)?Preemptible\\s+VMs)?(?:\\s+running)?\\s+in\\s+(?<loc>.+?)"
          + "(?:\\s+for\\s+(?<years>\\d+)\\s+Years?)?\\s*$", Pattern.CASE_INSENSITIVE);
  private static final Pattern GPU_WORD = Pattern.compile("\\bGPU\\b", Pattern.CASE_INSENSITIVE);

  private final VendorDefinition def;
  private final GpuCatalog catalog;
  private final String cite;
  private final boolean keepGpuOnly;
  private final Map<String, Quote> quotes = new LinkedHashMap<>();
  private final List<String> rejected = new ArrayList<>();
  private final Map<String, Integer> nonGpu = new TreeMap<>();
  private int skus;
  private int nonGpuSkipped;
  private int duplicates;
  private int pages;
  /** The first page's fetch time: the book's, as the caller's clock gave it. */
  private Instant fetchedAt;

  GcpSkuCollector(VendorDefinition def, GpuCatalog catalog, String cite) {
    this.def = def;
    this.catalog = catalog;
    this.cite = cite;
    this.keepGpuOnly = keepGpuOnly(def);
  }

  /** Reads one page (or a bare SKU array) and returns its nextPageToken, or null. */
  String addPage(Buffer payload, Instant fetchedAt) {
    if (this.fetchedAt == null) this.fetchedAt = fetchedAt;
    Object root;
    try {
      root = payload.toJsonValue();
    } catch (DecodeException e) {
      throw new IllegalArgumentException("not a Cloud Billing Catalog skus page: not JSON");
    }
    JsonArray list;
    String next = null;
    if (root instanceof JsonArray a) {
      list = a;
    } else if (root instanceof JsonObject o && o.getValue("skus") instanceof JsonArray a) {
      list = a;
      next = o.getValue("nextPageToken") == null ? null : o.getValue("nextPageToken").toString();
    } else if (root instanceof JsonObject o && o.getValue("error") instanceof JsonObject err) {
      throw new IllegalArgumentException("Cloud Billing Catalog error: " + err.getString("message", err.encode()));
    } else if (root instanceof JsonObject o && o.isEmpty()) {
      list = new JsonArray(); // the API answers {} for a service without SKUs
    } else {
      throw new IllegalArgumentException("not a Cloud Billing Catalog skus page: no 'skus' list");
    }
    pages++;
    for (int i = 0; i < list.size(); i++) {
      int n = skus++;
      if (!(list.getValue(i) instanceof JsonObject sku)) {
        rejected.add("skus[" + n + "]: not an object");
        continue;
      }
      sku(n, sku, fetchedAt);
    }
    return next;
  }

  Result finish() {
    List<String> out = new ArrayList<>(rejected);
    if (nonGpuSkipped > 0) {
      out.add(nonGpuSkipped + " non-GPU SKUs skipped (" + nonGpu.entrySet().stream()
          .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")");
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), new ArrayList<>(quotes.values()),
        out, fetchedAt, def.note());
    return new Result(vq, skus, nonGpuSkipped, duplicates, pages);
  }

  private void sku(int n, JsonObject sku, Instant fetchedAt) {
    String id = String.valueOf(sku.getValue("skuId", "?"));
    String desc = String.valueOf(sku.getValue("description", "")).trim();
    String where = "skus[" + n + "] " + id + " '" + desc + "'";
    JsonObject category = sku.getValue("category") instanceof JsonObject o ? o : null;
    if (category != null) {
      String group = String.valueOf(category.getValue("resourceGroup", ""));
      if (!"GPU".equalsIgnoreCase(group)) {
        nonGpuSkipped++;
        nonGpu.merge("resourceGroup " + (group.isEmpty() ? "(none)" : group), 1, Integer::sum);
        return;
      }
    } else if (!GPU_WORD.matcher(desc).find()) {
      nonGpuSkipped++;
      nonGpu.merge("no GPU in the description", 1, Integer::sum);
      return;
    }
    String lower = desc.toLowerCase(Locale.ROOT);
    if (lower.startsWith("licensing fee")) {
      rejected.add(where + ": a licence fee charged per GPU, not the price of a GPU");
      return;
    }
    if (lower.contains("vws") || lower.contains("virtual workstation") || lower.contains("vworkstation")) {
      rejected.add(where + ": a virtual workstation licence, not the price of a GPU");
      return;
    }
    if (lower.startsWith("reserved ") || lower.contains("calendar mode")) {
      rejected.add(where + ": reservation-only: capacity reserved ahead"
          + (lower.contains("calendar mode") ? " in DWS Calendar mode" : "")
          + ", not rentable on demand or as a commitment");
      return;
    }
    if (lower.contains("dws")) {
      rejected.add(where + ": DWS (Dynamic Workload Scheduler) defined-duration VMs: capacity for a fixed run "
          + "through the scheduler, not a plain rental");
      return;
    }
    Matcher m = DESCRIPTION.matcher(desc);
    if (!m.matches()) {
      rejected.add(where + ": description not understood (expected 'GPU running in <location>')");
      return;
    }
    Billing billing;
    boolean spot = m.group("pre") != null || m.group("attached") != null;
    if (m.group("commit") != null) {
      String years = m.group("years");
      if (spot || years == null || !(years.equals("1") || years.equals("3"))) {
        rejected.add(where + ": commitment term " + (years == null ? "missing" : years + " years")
            + (spot ? " on spot VMs" : "") + ": not a 1- or 3-year commitment");
        return;
      }
      billing = years.equals("1") ? Billing.YEARLY : Billing.THREE_YEARS;
    } else {
      if (m.group("years") != null) {
        rejected.add(where + ": a term of " + m.group("years") + " years without 'Commitment'");
        return;
      }
      billing = spot ? Billing.SPOT : Billing.ON_DEMAND;
    }
    if (category != null && category.getValue("usageType") != null) {
      String usage = String.valueOf(category.getValue("usageType"));
      Billing byUsage = switch (usage) {
        case "OnDemand" -> Billing.ON_DEMAND;
        case "Preemptible" -> Billing.SPOT;
        case "Commit1Yr" -> Billing.YEARLY;
        case "Commit3Yr" -> Billing.THREE_YEARS;
        default -> null;
      };
      if (byUsage == null) {
        rejected.add(where + ": usageType " + usage + " is not on-demand, spot or a 1-/3-year commitment");
        return;
      }
      if (byUsage != billing) {
        rejected.add(where + ": usageType " + usage + " contradicts the description (" + billing.wire() + ")");
        return;
      }
    }
    String model = m.group("model").trim();
    Optional<Gpu> gpu = catalog.find(model);
    if (gpu.isEmpty()) {
      rejected.add(where + ": unknown GPU '" + model + "'");
      return;
    }
    List<String> regions = new ArrayList<>();
    if (sku.getValue("serviceRegions") instanceof JsonArray sr) {
      for (Object r : sr) if (r != null && !r.toString().isBlank()) regions.add(r.toString().trim());
    }
    if (regions.isEmpty()) {
      String loc = m.group("loc").trim();
      List<String> known = LOCATIONS.get(locationKey(loc));
      if (known == null) {
        rejected.add(where + ": unknown location '" + loc + "'");
        return;
      }
      regions.addAll(known);
    }
    Price price;
    try {
      price = price(sku);
    } catch (IllegalArgumentException e) {
      rejected.add(where + ": " + e.getMessage());
      return;
    }
    if (price.amount().signum() <= 0) {
      rejected.add(where + ": price " + price.amount().stripTrailingZeros().toPlainString() + " " + price.currency()
          + " is not an offer");
      return;
    }
    if (!keepGpuOnly) {
      rejected.add(where + ": " + GPU_ONLY_REASON);
      return;
    }
    Instant dated = price.effective();  // null: undated, never the fetch's time
    for (String region : regions) {
      Quote q = new Quote(def.vendor(), region, model + GPU_ONLY_LABEL, gpu.get().id(), 1, 0, 0, billing,
          new Money(price.amount(), price.currency()), PriceUnit.HOUR, fetchedAt, cite).withPriceDate(dated);
      Quote old = quotes.get(q.key());
      if (old == null) {
        quotes.put(q.key(), q);
      } else {
        duplicates++;
        if (old.price().currency().equals(q.price().currency()) && q.price().compareTo(old.price()) < 0) {
          quotes.put(q.key(), q);
        }
      }
    }
  }

  private record Price(BigDecimal amount, String currency, Instant effective) {}

  private Price price(JsonObject sku) {
    if (!(sku.getValue("pricingInfo") instanceof JsonArray infos) || infos.isEmpty()) {
      throw new IllegalArgumentException("no pricingInfo");
    }
    JsonObject info = null;
    for (Object o : infos) {  // the latest effectiveTime (ISO-8601 UTC text sorts by time)
      if (o instanceof JsonObject j && (info == null
          || j.getString("effectiveTime", "").compareTo(info.getString("effectiveTime", "")) > 0)) {
        info = j;
      }
    }
    if (info == null || !(info.getValue("pricingExpression") instanceof JsonObject expr)) {
      throw new IllegalArgumentException("no pricingExpression");
    }
    String unit = String.valueOf(expr.getValue("usageUnit", ""));
    if (!"h".equals(unit)) throw new IllegalArgumentException("priced per '" + unit + "', not per hour");
    if (!(expr.getValue("tieredRates") instanceof JsonArray tiers) || tiers.isEmpty()) {
      throw new IllegalArgumentException("no tieredRates");
    }
    JsonObject first = null;
    BigDecimal firstStart = null;
    for (Object o : tiers) {
      if (!(o instanceof JsonObject t)) continue;
      BigDecimal start = new BigDecimal(String.valueOf(t.getValue("startUsageAmount", 0)));
      if (first == null || start.compareTo(firstStart) < 0) {
        first = t;
        firstStart = start;
      }
    }
    if (first == null || !(first.getValue("unitPrice") instanceof JsonObject up)) {
      throw new IllegalArgumentException("no unitPrice");
    }
    BigDecimal units;
    BigDecimal nanos;
    try {
      units = new BigDecimal(String.valueOf(up.getValue("units", "0")));
      nanos = BigDecimal.valueOf(Long.parseLong(String.valueOf(up.getValue("nanos", 0))), 9);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unitPrice " + up.encode() + " is not units + nanos");
    }
    String currency = up.getString("currencyCode", def.currency());
    Instant effective = null;
    try {
      if (info.getValue("effectiveTime") != null) effective = Instant.parse(info.getString("effectiveTime"));
    } catch (DateTimeParseException | ClassCastException e) {
      effective = null;
    }
    return new Price(units.add(nanos), currency, effective);
  }
}
