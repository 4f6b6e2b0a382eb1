package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.text.Normalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

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
      GcpSkuCollector c = new GcpSkuCollector(def, catalog, cite);
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

    private Future<Void> page(GcpSkuCollector c, String key, String token, int n) {
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
    GcpSkuCollector c = new GcpSkuCollector(def, catalog, KIND + ":" + def.config().getString("source", def.where().toString()));
    c.addPage(payload, fetchedAt);
    return c.finish();
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
