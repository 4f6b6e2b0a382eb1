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
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Kind {@code gcp-billing-catalog}: the SKUs of Google's Cloud Billing Catalog API for Compute
 * Engine ({@code GET https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus}), i.e.
 * the list price of ONE attachable GPU per hour, WITHOUT the host VM (vCPUs, memory, disks are
 * other SKUs and billed on top). A GPU without its host is no machine one can rent, so every
 * GPU SKU that passes the checks below is then REJECTED with {@link #GPU_ONLY_REASON} (it must
 * never rank as a complete machine), unless the vendor YAML says {@code gpuOnlyRows: keep}: then
 * each becomes a quote for one GPU ({@code gpuCount} 1, unit HOUR) whose offer id says
 * "(GPU only, host VM extra)", as the skypilot-catalog kind labels such rows. The host is not
 * priced in from the catalog's vCPU and RAM SKUs: the machine shapes (how many vCPUs and GB come
 * with a GPU) are not in the catalog, and the recorded Jumbo2020 download holds no such SKU.
 *
 * <p>Payload: a {@code skus} page ({@code {"skus": [...], "nextPageToken": "..."}}) or a bare
 * array of SKUs (as tools save them). Per SKU:
 * <ul>
 *   <li><b>Not a GPU</b>: {@code category.resourceGroup} other than {@code GPU} (cores, RAM,
 *       disks...) or, without a category, a description that names no GPU: skipped, counted in
 *       {@link Result#nonGpuSkipped()} and summed up in ONE rejected line (the live catalog has
 *       tens of thousands of them).</li>
 *   <li><b>Rejected with the reason</b>: licence fees charged per GPU ("Licensing Fee for ...
 *       (GPU cost)"), virtual workstation licences, <em>reservation-only</em> prices ("Reserved
 *       ... GPU in X [in Calendar Mode]": capacity booked ahead, not rentable on demand),
 *       DWS (Dynamic Workload Scheduler) "Defined Duration" VMs, unknown GPUs, unknown
 *       locations, prices not per hour and prices of 0.</li>
 *   <li><b>Billing</b> from the description: "X GPU running in L" ON_DEMAND; "X GPU attached to
 *       Spot Preemptible VMs running in L" SPOT; "Commitment v1: X GPU running in L for 1 Year"
 *       YEARLY, "... for 3 Year(s)" THREE_YEARS (an hourly rate paid for every hour of the
 *       term). Where {@code category.usageType} is present (OnDemand, Preemptible, Commit1Yr,
 *       Commit3Yr) it must agree, else the SKU is rejected.</li>
 *   <li><b>GPU</b>: the description's GPU name as Google writes it ("Nvidia Tesla A100 GPU",
 *       "Nvidia H100 80GB Mega GPU", "H200 141GB GPU"), resolved through the catalog.</li>
 *   <li><b>Offer id</b>: that GPU name, then " (GPU only, host VM extra)". It groups the on-demand, spot and commitment SKUs of one
 *       GPU into one offer (the SKU id would split them) and keeps variants with their own price
 *       apart (H100 80GB vs H100 80GB Mega), which {@code gpu:<id>} would merge.</li>
 *   <li><b>Region</b>: {@code serviceRegions} when present (one quote per region: "Americas"
 *       SKUs cover us-central1, us-east1 and us-west1); otherwise the location after "running
 *       in" through {@link #LOCATIONS}.</li>
 *   <li><b>Price</b>: {@code pricingInfo} (the latest {@code effectiveTime} if several),
 *       {@code pricingExpression.usageUnit} must be {@code h}; the tier starting at usage 0:
 *       {@code units + nanos / 10^9} in {@code currencyCode}. Every GPU SKU in the recorded
 *       payloads has exactly one tier starting at 0; a later tier would be a volume discount
 *       that one rental does not reach, so the first tier is what a renter pays.</li>
 *   <li><b>priceDate</b>: the price's {@code effectiveTime} (in each recorded download every SKU
 *       carries the same one, the time of that download), else the fetch time; observedAt is
 *       the fetch time.</li>
 * </ul>
 * Two SKUs giving the same region, offer and billing keep the cheaper one, counted in
 * {@link Result#duplicatesDropped()}.
 *
 * <p>Live source: the API needs an API key, read from the environment variable named by
 * {@code apiKeyEnv} and sent as the {@code key} query parameter. The key never appears in
 * {@code Quote.source} (the URL without it), in error messages or in {@code toString()}, and
 * is refused in the YAML itself. Pages are followed through {@code nextPageToken} (query
 * parameter {@code pageToken}), {@code pageSize} per page (YAML, default 5000), at most
 * {@code maxPages} (default 100); each page is parsed on a worker thread as it arrives. A file
 * source is one saved page: its {@code nextPageToken} cannot be followed and is ignored.
 */
public final class GcpBillingCatalogAdapter {

  public static final String KIND = "gcp-billing-catalog";
  /** Why a GPU SKU is not an offer: the machine it runs in is priced elsewhere. */
  static final String GPU_ONLY_REASON = "GPU-only SKU: the host VM is priced separately and is not in this catalog";
  static final String GPU_ONLY_LABEL = " (GPU only, host VM extra)";

  /**
   * Google's location names in SKU descriptions ("running in Montreal") -> their regions, keyed
   * by {@link #locationKey} (resource gcp-billing-catalog.yaml, which says where the old
   * multi-region names "Americas", "EMEA", "APAC" and "Japan" point and why).
   */
  static final Map<String, List<String>> LOCATIONS = locations(LookupTables.load("gcp-billing-catalog.yaml").map("locations"));

  /**
   * "[Commitment v1: ][Spot ][Preemptible ]MODEL[ attached to [Spot ]Preemptible VMs][ running] in LOCATION[ for N Year(s)]".
   */
  private static final Pattern DESCRIPTION = Pattern.compile(
      "^(?<commit>Commitment(?: v\\d+)?:\\s*)?(?<pre>(?:Spot\\s+)?Preemptible\\s+)?(?<model>.+?)"
          + "(?<attached>\\s+attached\\s+to\\s+(?:Spot\\s+)?Preemptible\\s+VMs)?(?:\\s+running)?\\s+in\\s+(?<loc>.+?)"
          + "(?:\\s+for\\s+(?<years>\\d+)\\s+Years?)?\\s*$", Pattern.CASE_INSENSITIVE);
  private static final Pattern GPU_WORD = Pattern.compile("\\bGPU\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern KEY_PARAM = Pattern.compile("([?&]key=)[^&\\s\"']+");

  /**
   * What one payload, or all pages of a live fetch, gave.
   *
   * @param vendorQuotes      the quotes kept and the SKUs rejected, with reasons
   * @param skus              SKUs read
   * @param nonGpuSkipped     SKUs that are not GPUs (cores, RAM, disks...), skipped
   * @param duplicatesDropped quotes dropped for a cheaper or equal one with the same region, offer and billing
   * @param pages             pages read
   */
  public record Result(VendorQuotes vendorQuotes, int skus, int nonGpuSkipped, int duplicatesDropped, int pages)
      implements ParsedPayload {}

  private GcpBillingCatalogAdapter() {}

  /**
   * The adapter, reading the API key with {@code env} (the process environment in production;
   * tests pass their own lookup instead of touching the environment).
   */
  static Adapter adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env) {
    if (def.config().containsKey("apiKey")) {
      VendorDefinition.fail(def.where(), "apiKey", "API keys do not belong in a vendor file: put the key in an "
          + "environment variable and name that variable in apiKeyEnv");
    }
    PayloadSource source = PayloadSource.of(vertx, def);
    String apiKeyEnv = def.config().getString("apiKeyEnv", "");
    if (source.isHttp() && apiKeyEnv.isBlank()) {
      VendorDefinition.fail(def.where(), "apiKeyEnv", "is required for the live API: the name of the environment "
          + "variable holding the Cloud Billing API key");
    }
    keepGpuOnly(def);
    int pageSize = intKey(def, "pageSize", 5000, 1, 5000);
    int maxPages = intKey(def, "maxPages", 100, 1, 100_000);
    Duration timeout = VendorDefinition.duration(def.where(), def.config().getValue("timeout", "60s").toString());
    return new Adapter(vertx, def, catalog, env, source, apiKeyEnv, pageSize, maxPages, timeout.toMillis());
  }

  /** The YAML key {@code gpuOnlyRows}: reject (the default) or keep. */
  static boolean keepGpuOnly(VendorDefinition def) {
    String v = def.config().getValue("gpuOnlyRows", "reject").toString().strip().toLowerCase(Locale.ROOT);
    if (!v.equals("reject") && !v.equals("keep")) VendorDefinition.fail(def.where(), "gpuOnlyRows", "must be reject or keep, got '" + v + "'");
    return v.equals("keep");
  }

  private static int intKey(VendorDefinition def, String key, int dflt, int min, int max) {
    Object v = def.config().getValue(key);
    if (v == null) return dflt;
    try {
      int n = Integer.parseInt(v.toString().trim());
      if (n >= min && n <= max) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    VendorDefinition.fail(def.where(), key, "must be a whole number from " + min + " to " + max + ", got '" + v + "'");
    return dflt;
  }

  /** One Cloud Billing Catalog vendor: a file (one saved page) or the live, paged API. */
  static final class Adapter implements VendorAdapter {
    private final Vertx vertx;
    private final VendorDefinition def;
    private final GpuCatalog catalog;
    private final Function<String, String> env;
    private final PayloadSource source;
    private final String apiKeyEnv;
    private final int pageSize;
    private final int maxPages;
    private final long timeoutMs;
    private final String cite;
    private WebClient client;

    private Adapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env,
                    PayloadSource source, String apiKeyEnv, int pageSize, int maxPages, long timeoutMs) {
      this.vertx = vertx;
      this.def = def;
      this.catalog = catalog;
      this.env = env;
      this.source = source;
      this.apiKeyEnv = apiKeyEnv;
      this.pageSize = pageSize;
      this.maxPages = maxPages;
      this.timeoutMs = timeoutMs;
      this.cite = KIND + ":" + source.describe();
    }

    @Override
    public Future<VendorQuotes> fetch() {
      return fetchResult().map(Result::vendorQuotes);
    }

    /** As {@link #fetch()}, with the counts. */
    Future<Result> fetchResult() {
      Collector c = new Collector(def, catalog, cite);
      if (!source.isHttp()) {
        return source.fetch().compose(buf -> vertx.executeBlocking(() -> {
          c.addPage(buf, Instant.now());
          return c.finish();
        }));
      }
      String key = env.apply(apiKeyEnv);
      if (key == null || key.isBlank()) {
        return Future.failedFuture(new IllegalStateException("environment variable " + apiKeyEnv
            + " is not set: the Cloud Billing Catalog API needs an API key (" + source.describe() + ")"));
      }
      if (client == null) client = WebClient.create(vertx);
      return page(c, key, null, 1)
          .map(v -> c.finish())
          // every failure passes here: a message (a timeout names the request URI) must not carry the key
          .recover(e -> Future.failedFuture(new IOException(redact(String.valueOf(e.getMessage()), key))));
    }

    private Future<Void> page(Collector c, String key, String token, int n) {
      if (n > maxPages) {
        return Future.failedFuture(new IOException("GET " + source.describe() + ": more than maxPages (" + maxPages
            + ") pages; raise maxPages or pageSize"));
      }
      HttpRequest<Buffer> req = client.getAbs(source.describe()).timeout(timeoutMs)
          .addQueryParam("key", key)
          .addQueryParam("pageSize", Integer.toString(pageSize));
      if (token != null) req.addQueryParam("pageToken", token);
      String what = "GET " + source.describe() + " page " + n;
      return req.send()
          .recover(e -> Future.failedFuture(new IOException(what + ": " + e.getMessage())))
          .compose(resp -> resp.statusCode() == 200
              ? vertx.executeBlocking(() -> c.addPage(resp.body() == null ? Buffer.buffer() : resp.body(), Instant.now()))
              : Future.failedFuture(new IOException(what + ": HTTP " + resp.statusCode() + googleError(resp))))
          .compose(next -> {
            if (next == null || next.isEmpty()) return Future.succeededFuture();
            if (next.equals(token)) return Future.failedFuture(new IOException(what + ": nextPageToken repeats"));
            return page(c, key, next, n + 1);
          });
    }

    @Override
    public String toString() {
      return cite;
    }
  }

  /** The API's own error text ({"error": {"message": ...}}), if the body has one. */
  private static String googleError(HttpResponse<Buffer> resp) {
    try {
      JsonObject err = resp.body() == null ? null : resp.body().toJsonObject().getJsonObject("error");
      return err == null ? "" : ": " + err.getString("message", "");
    } catch (RuntimeException e) {
      return "";
    }
  }

  /** The text with the key (and any key=... query parameter) blanked out. */
  static String redact(String text, String key) {
    String out = key == null || key.isEmpty() ? text : text.replace(key, "***");
    return KEY_PARAM.matcher(out).replaceAll("$1***");
  }

  /** Reads one saved or downloaded payload; pure, no I/O. */
  public static Result parse(Buffer payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    Collector c = new Collector(def, catalog, KIND + ":" + def.config().getString("source", def.where().toString()));
    c.addPage(payload, fetchedAt);
    return c.finish();
  }

  /** Accumulates the quotes of one or more pages; used by one fetch at a time. */
  static final class Collector {
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

    Collector(VendorDefinition def, GpuCatalog catalog, String cite) {
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

  static String locationKey(String name) {
    String plain = Normalizer.normalize(name, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    return plain.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }

  /** The table by {@link #locationKey}, which must tell every name apart. */
  private static Map<String, List<String>> locations(Map<String, Object> table) {
    Map<String, List<String>> m = new HashMap<>();
    table.forEach((name, regions) -> {
      List<String> list = ((List<?>) regions).stream().map(String::valueOf).toList();
      if (m.put(locationKey(name), list) != null) throw new IllegalStateException("location " + name + " listed twice");
    });
    return Map.copyOf(m);
  }
}
