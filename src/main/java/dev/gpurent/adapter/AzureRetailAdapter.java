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
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kind {@code azure-retail}: the Azure Retail Prices API
 * ({@code https://prices.azure.com/api/retail/prices?$filter=...}), which answers pages of
 * {@code {"BillingCurrency", "CustomerEntityId", "CustomerEntityType", "Items": [...],
 * "NextPageLink": url or null, "Count"}}; every page's {@code NextPageLink} is followed until it is
 * null (or empty), at most {@code maxPages} pages (YAML key, default 500; more fails the fetch
 * rather than quietly dropping offers). A file source is one page: its link is not followed.
 *
 * <p>One item is one meter: {@code armSkuName} (the VM size), {@code armRegionName},
 * {@code meterName}, {@code skuName}, {@code productName}, {@code type}, {@code unitPrice},
 * {@code currencyCode}, {@code unitOfMeasure} and, for reservations, {@code reservationTerm}. Items
 * are handled as follows (skipped items are counted in {@link Result#skipped()} by reason, never
 * listed as rejected):
 * <ul>
 *   <li>{@code serviceName} other than "Virtual Machines": skipped;</li>
 *   <li>{@code productName} containing "Windows": skipped (the licence is billed into the meter;
 *       we quote Linux);</li>
 *   <li>{@code type} "DevTestConsumption": skipped (Dev/Test subscriptions only);</li>
 *   <li>"Low Priority" in {@code meterName} or {@code skuName}: skipped. Low-priority VMs are the
 *       Azure Batch / scale-set precursor of Spot (Microsoft retired them in 2025), they are
 *       evicted like Spot, and the same size also has a Spot meter, so quoting both would give
 *       two SPOT prices for one offer;</li>
 *   <li>a size outside the N series (Azure's GPU series): skipped; an N-series size that
 *       {@link #SIZES} does not know, or a size whose GPU the catalog does not know: rejected;</li>
 *   <li>{@code type} "Consumption": {@link Billing#SPOT} when "Spot" is in {@code meterName} or
 *       {@code skuName}, else {@link Billing#ON_DEMAND}; {@code unitPrice} per
 *       {@link PriceUnit#HOUR} ({@code unitOfMeasure} must be "1 Hour");</li>
 *   <li>{@code type} "Reservation": {@code unitPrice} is the TOTAL paid for the term (its
 *       {@code unitOfMeasure} still says "1 Hour"). {@code reservationTerm} "1 Year" gives
 *       {@link Billing#YEARLY} at that total per {@link PriceUnit#YEAR}; "3 Years" gives
 *       {@link Billing#THREE_YEARS} at total / 3 per {@link PriceUnit#YEAR} (there is no 3-year
 *       unit; the division is exact where it terminates, else kept to 10 decimal places, as the
 *       AWS adapter does);</li>
 *   <li>a price not above zero, a missing currency or an unknown type or term: rejected; a second
 *       price for the same size, region and billing mode: rejected, the first is kept.</li>
 * </ul>
 * A quote's offer id is the {@code armSkuName}, its region the {@code armRegionName}, its
 * currency the item's {@code currencyCode}, its vCPUs the size's number. A quote is observed at
 * the fetch and dated (priceDate) by the item's {@code effectiveStartDate}, the day the price took
 * effect (the fetch time when that is missing or not an ISO instant).
 */
public final class AzureRetailAdapter implements VendorAdapter {

  public static final String KIND = "azure-retail";
  static final int DEFAULT_MAX_PAGES = 500;
  private static final BigDecimal THREE = BigDecimal.valueOf(3);

  /**
   * One VM size family: the {@code armSkuName} pattern (group 1 = vCPUs), the catalog spelling of
   * its GPU and the GPUs of each size by vCPU count (fractions are shared GPUs).
   */
  record Family(String series, Pattern match, String gpu, Map<Integer, Double> gpusByVcpus) {}

  private static Family family(String series, String regex, String gpu, Object... vcpusThenGpus) {
    Map<Integer, Double> sizes = new LinkedHashMap<>();
    for (int i = 0; i < vcpusThenGpus.length; i += 2) {
      sizes.put((Integer) vcpusThenGpus[i], ((Number) vcpusThenGpus[i + 1]).doubleValue());
    }
    return new Family(series, Pattern.compile(regex), gpu, sizes);
  }

  /**
   * Azure's GPU sizes, from Microsoft's VM size pages (learn.microsoft.com/azure/virtual-machines/sizes,
   * "GPU - accelerated compute"), as known in 2025. The board variants agree with adapters/azure.yaml's
   * {@code gpuByInstanceType}: NCv3 is the V100 PCIe 16 GB (NDv2 the SXM2 32 GB), NC A100 v4 the
   * A100 80 GB PCIe (NDm A100 v4 the SXM), NC/NCC H100 v5 the H100 NVL (ND H100 v5 the SXM).
   * NVv4, NVadsA10 v5 and NGads V620 sizes are GPU partitions (1/8 ... 1 GPU). The P40 (ND) and
   * Radeon PRO V620 (NGads) are not in config/gpus.yaml, so their meters are rejected by name.
   */
  static final List<Family> SIZES = List.of(
      family("NC (K80, retired)", "^Standard_NC(\\d+)r?$", "K80", 6, 1, 12, 2, 24, 4),
      family("NCv2 (P100, retired)", "^Standard_NC(\\d+)r?s_v2$", "P100", 6, 1, 12, 2, 24, 4),
      family("NCv3", "^Standard_NC(\\d+)r?s_v3$", "v100-pcie-16g", 6, 1, 12, 2, 24, 4),
      family("NCasT4_v3", "^Standard_NC(\\d+)as_T4_v3$", "T4", 4, 1, 8, 1, 16, 1, 64, 4),
      family("NC A10 v4", "^Standard_NC(\\d+)ads_A10_v4$", "A10", 8, 1, 16, 1, 32, 2),
      family("NC A100 v4", "^Standard_NC(\\d+)ads_A100_v4$", "a100-80g-pcie", 24, 1, 48, 2, 96, 4),
      family("NC / NCC H100 v5", "^Standard_NCC?(\\d+)adi?s_H100_v5$", "h100-nvl", 40, 1, 80, 2),
      family("ND (P40, retired)", "^Standard_ND(\\d+)r?s$", "Tesla P40", 6, 1, 12, 2, 24, 4),
      family("NDv2", "^Standard_ND(\\d+)rs_v2$", "v100-32g", 40, 8),
      family("ND A100 v4", "^Standard_ND(\\d+)asr_v4$", "a100-40g-sxm", 96, 8),
      family("NDm A100 v4", "^Standard_ND(\\d+)amsr_A100_v4$", "a100-80g-sxm", 96, 8),
      family("ND H100 v5", "^Standard_ND(\\d+)isr_H100_v5$", "h100-sxm", 96, 8),
      family("ND H200 v5", "^Standard_ND(\\d+)isr_H200_v5$", "h200", 96, 8),
      family("ND MI300X v5", "^Standard_ND(\\d+)isr_MI300X_v5$", "mi300x", 96, 8),
      family("ND GB200 v6", "^Standard_ND(\\d+)isr_NDR_GB200_v6$", "gb200", 128, 4),
      family("NV (M60, retired)", "^Standard_NV(\\d+)$", "M60", 6, 1, 12, 2, 24, 4),
      family("NVv3", "^Standard_NV(\\d+)s_v3$", "M60", 12, 1, 24, 2, 48, 4),
      family("NVv4", "^Standard_NV(\\d+)as_v4$", "MI25", 4, 0.125, 8, 0.25, 16, 0.5, 32, 1),
      family("NVadsA10 v5", "^Standard_NV(\\d+)adm?s_A10_v5$", "A10", 6, 1.0 / 6, 12, 1.0 / 3, 18, 0.5, 36, 1, 72, 2),
      family("NGads V620", "^Standard_NG(\\d+)adm?s_V620_v1$", "Radeon PRO V620", 8, 0.25, 16, 0.5, 32, 1));

  private static final Pattern N_SERIES = Pattern.compile("^Standard_N[A-Z]*\\d");

  /**
   * What the pages gave.
   *
   * @param vendorQuotes the quotes kept and the items rejected, with reasons
   * @param items        items read over all pages
   * @param pages        pages read
   * @param skipped      items skipped silently, counted by reason
   */
  public record Result(VendorQuotes vendorQuotes, int items, int pages, Map<String, Integer> skipped)
      implements ParsedPayload {}

  /** One page: its items and the link to the next page (null on the last). */
  public record Page(List<Object> items, String nextPageLink) {}

  private final Vertx vertx;
  private final VendorDefinition def;
  private final GpuCatalog catalog;
  private final PayloadSource source;
  private final int maxPages;
  private final String cite;

  /** The adapter of one vendor; fails fast on a bad {@code source} or {@code maxPages}, performs no I/O. */
  AzureRetailAdapter(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    this.source = PayloadSource.of(vertx, def);
    int pages;
    try {
      pages = Integer.parseInt(def.config().getValue("maxPages", DEFAULT_MAX_PAGES).toString().trim());
    } catch (NumberFormatException e) {
      pages = 0;
    }
    if (pages < 1) VendorDefinition.fail(def.where(), "maxPages", "must be a whole number >= 1");
    this.maxPages = pages;
    this.cite = KIND + ":" + source.describe();
    this.vertx = vertx;
    this.def = def;
    this.catalog = catalog;
  }

  @Override
  public Future<VendorQuotes> fetch() {
    List<Object> items = new ArrayList<>();
    return pages(source.fetch(), items, 1, new HashSet<>())
        .compose(n -> vertx.executeBlocking(() -> build(items, n, def, catalog, Instant.now(), cite).vendorQuotes()));
  }

  /** Reads one page on a worker, adds its items, and follows its link; completes with the number of pages read. */
  private Future<Integer> pages(Future<Buffer> body, List<Object> items, int n, Set<String> seen) {
    return body.compose(buf -> vertx.executeBlocking(() -> readPage(buf))).compose(page -> {
      items.addAll(page.items());
      String next = page.nextPageLink();
      if (next == null || !source.isHttp()) return Future.succeededFuture(n);
      if (n >= maxPages) {
        return Future.failedFuture(new IllegalStateException("Azure Retail Prices: more than " + maxPages
            + " pages (maxPages); narrow the $filter or raise maxPages"));
      }
      if (!seen.add(next)) return Future.failedFuture(new IllegalStateException("Azure Retail Prices: NextPageLink loops back to " + next));
      return pages(source.fetchUrl(next), items, n + 1, seen);
    });
  }

  /** One page of the API; pure. Fails when the payload is not such a page. */
  @SuppressWarnings("unchecked")
  public static Page readPage(Buffer payload) {
    Object root = JsonValues.document(Payload.of(payload, "an Azure Retail Prices page"), "Azure Retail Prices");
    if (!(root instanceof Map<?, ?> map) || !(map.get("Items") instanceof List<?> list)) {
      throw new IllegalArgumentException("not an Azure Retail Prices page: expected {\"Items\": [...], \"NextPageLink\": ...}");
    }
    Object next = map.get("NextPageLink");
    String link = next == null || next.toString().isBlank() ? null : next.toString();
    return new Page((List<Object>) list, link);
  }

  /** Reads saved pages in order (their links are not followed); pure, no I/O. */
  public static Result parse(List<Buffer> pages, VendorDefinition def, GpuCatalog catalog, Instant observedAt) {
    List<Object> items = new ArrayList<>();
    for (Buffer b : pages) items.addAll(readPage(b).items());
    return build(items, pages.size(), def, catalog, observedAt, KIND + ":" + def.config().getString("source", def.where().toString()));
  }

  public static Result parse(Buffer page, VendorDefinition def, GpuCatalog catalog, Instant observedAt) {
    return parse(List.of(page), def, catalog, observedAt);
  }

  static Result build(List<Object> items, int pages, VendorDefinition def, GpuCatalog catalog, Instant observedAt,
                      String cite) {
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    Map<String, Integer> skipped = new LinkedHashMap<>();
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Map<?, ?> item)) {
        rejected.add("Items[" + i + "]: not an object");
        continue;
      }
      String sku = text(item, "armSkuName");
      String region = text(item, "armRegionName");
      String meter = text(item, "meterName");
      String skuName = text(item, "skuName");
      String type = text(item, "type");
      String where = "Items[" + i + "] (" + sku + " " + region + " '" + meter + "' " + type + ")";
      String skip = skipReason(item, sku, meter, skuName, type);
      if (skip != null) {
        skipped.merge(skip, 1, Integer::sum);
        continue;
      }
      Family fam = null;
      Matcher m = null;
      for (Family f : SIZES) {
        Matcher fm = f.match().matcher(sku);
        if (fm.matches()) {
          fam = f;
          m = fm;
          break;
        }
      }
      if (fam == null) {
        rejected.add(where + ": GPU size '" + sku + "' is not in the adapter's size table");
        continue;
      }
      int vcpus = Integer.parseInt(m.group(1));
      Double gpus = fam.gpusByVcpus().get(vcpus);
      if (gpus == null) {
        rejected.add(where + ": size '" + sku + "' is not among the " + fam.series() + " sizes the adapter knows "
            + fam.gpusByVcpus().keySet() + " (vCPUs)");
        continue;
      }
      Optional<Gpu> gpu = catalog.find(fam.gpu());
      if (gpu.isEmpty()) {
        rejected.add(where + ": unknown GPU '" + fam.gpu() + "' (" + fam.series() + ")");
        continue;
      }
      if (!(item.get("unitPrice") instanceof BigDecimal price)) {
        rejected.add(where + ": " + Decimals.notANumber("unitPrice", item.get("unitPrice")));
        continue;
      }
      if (price.signum() <= 0) {
        rejected.add(where + ": price " + price.toPlainString() + " is not an offer");
        continue;
      }
      String currency = text(item, "currencyCode");
      if (!currency.matches("[A-Za-z]{3}")) {
        rejected.add(where + ": currencyCode '" + currency + "' is not a currency");
        continue;
      }
      Billing billing;
      BigDecimal amount = price;
      PriceUnit unit;
      if (type.equals("Consumption")) {
        String uom = text(item, "unitOfMeasure");
        if (!uom.equals("1 Hour")) {
          rejected.add(where + ": unitOfMeasure '" + uom + "' is not '1 Hour'");
          continue;
        }
        billing = meter.contains("Spot") || skuName.contains("Spot") ? Billing.SPOT : Billing.ON_DEMAND;
        unit = PriceUnit.HOUR;
      } else if (type.equals("Reservation")) {
        String term = text(item, "reservationTerm");
        unit = PriceUnit.YEAR;
        if (term.equals("1 Year")) {
          billing = Billing.YEARLY;
        } else if (term.equals("3 Years")) {
          billing = Billing.THREE_YEARS;
          amount = perYear(price);
        } else {
          rejected.add(where + ": reservationTerm '" + term + "' is neither '1 Year' nor '3 Years'");
          continue;
        }
      } else {
        rejected.add(where + ": unknown price type '" + type + "'");
        continue;
      }
      Quote q = new Quote(def.vendor(), region, sku, gpu.get().id(), gpus, vcpus, 0, billing,
          new Money(amount, currency), unit, observedAt, cite).withPriceDate(effective(item, null));
      if (!keys.add(q.key())) {
        rejected.add(where + ": a second " + billing + " price for " + sku + " in " + region + " ignored");
        continue;
      }
      quotes.add(q);
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, observedAt, def.note());
    return new Result(vq, items.size(), pages, skipped);
  }

  /** Why an item is skipped silently, or null when it is a candidate offer. */
  private static String skipReason(Map<?, ?> item, String sku, String meter, String skuName, String type) {
    if (!text(item, "serviceName").equals("Virtual Machines")) return "not a Virtual Machines meter";
    if (text(item, "productName").contains("Windows")) return "Windows meter (Linux prices only)";
    if (type.equals("DevTestConsumption")) return "DevTestConsumption (Dev/Test subscriptions only)";
    if (meter.contains("Low Priority") || skuName.contains("Low Priority")) return "Low Priority meter (Spot is quoted instead)";
    if (!N_SERIES.matcher(sku).find()) return "not a GPU (N-series) size";
    return null;
  }

  /** A 3-year total as a price per year: exact where the division terminates, else 10 decimal places. */
  static BigDecimal perYear(BigDecimal threeYearTotal) {
    try {
      return threeYearTotal.divide(THREE);
    } catch (ArithmeticException nonTerminating) {
      return threeYearTotal.divide(THREE, 10, RoundingMode.HALF_UP);
    }
  }

  /** The item's effectiveStartDate, or {@code otherwise} when it has none that reads as an instant. */
  private static Instant effective(Map<?, ?> item, Instant otherwise) {
    try {
      String t = text(item, "effectiveStartDate");
      return t.isEmpty() ? otherwise : Instant.parse(t);
    } catch (java.time.format.DateTimeParseException e) {
      return otherwise;
    }
  }

  private static String text(Map<?, ?> item, String field) {
    Object v = item.get(field);
    return v == null ? "" : v.toString().trim();
  }
}
