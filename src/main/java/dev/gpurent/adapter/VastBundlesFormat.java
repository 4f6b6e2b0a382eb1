package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kind {@code vast-bundles}: Vast.ai's search-offers API, {@code POST https://console.vast.ai/api/v0/bundles/}
 * with a JSON query body, as its OpenAPI spec (vast-ai/vast-cli {@code openapi/yaml/search_offers.yaml})
 * describes it: the answer is {@code {"offers": [...]}}, each offer a machine share with
 * (field names from the spec) {@code id}, {@code gpu_name}, {@code num_gpus}, {@code gpu_ram}
 * (MB per GPU), {@code cpu_ram} (MB), {@code cpu_cores_effective}, {@code geolocation}
 * ("City, CC"), {@code dph_total} (USD per hour for the whole offer, all {@code num_gpus}: GPUs and
 * the default disk) and {@code min_bid} (USD per hour, the floor of an interruptible bid). The
 * spec's own example gives {@code offers} as ONE object rather than an array; both are read.
 *
 * <p>Each offer gives a {@link Billing#ON_DEMAND} quote at {@code dph_total} and, when
 * {@code min_bid} is above zero, a {@link Billing#SPOT} quote at {@code min_bid}, both per
 * {@link PriceUnit#HOUR} for {@code num_gpus} GPUs, offer id {@code "vast-<id>"}, region the
 * country code after the last comma of {@code geolocation} ("" when there is none), vCPUs
 * {@code cpu_cores_effective}, RAM {@code cpu_ram} / 1024 as the API reports it. Both carry the
 * offer's {@code rentable} ("Whether machine is rentable", a boolean) as its stock: available when
 * true, unavailable when false (never picked), unknown when absent.
 *
 * <p>GPU names resolve through the catalog; when a name alone is ambiguous or unknown
 * (Vast's "A100 SXM4", "A100 PCIE", "Tesla V100" hide a memory size) it is retried with the card
 * memory {@code gpu_ram} gives, e.g. "A100 SXM4 80GB". An unknown GPU, a missing id, a count not
 * above zero or a {@code dph_total} not above zero rejects the offer with its reason.
 *
 * <p>Vendor YAML keys besides the common ones: {@code query} (a map, the search body POSTed as
 * JSON; required for an http source) and {@code headers.Authorization} ("Bearer env:VAST_API_KEY").
 * A file source (a saved answer) is read as it is.
 */
public final class VastBundlesFormat {

  public static final String KIND = "vast-bundles";
  private static final BigDecimal MB_PER_GB = BigDecimal.valueOf(1024);

  /**
   * What one answer gave.
   *
   * @param vendorQuotes the quotes kept and the offers rejected, with reasons
   * @param offers       offers read
   */
  public record Result(VendorQuotes vendorQuotes, int offers)
      implements ParsedPayload {}

  private VastBundlesFormat() {}

  /** Reads a search-offers answer; pure, no I/O. */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    List<Object> offers = offers(JsonValues.document(payload, "Vast.ai search offers"));
    String cite = KIND + ":" + payload.origin();
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < offers.size(); i++) {
      if (!(offers.get(i) instanceof Map<?, ?> o)) {
        rejected.add("offers[" + i + "]: not an object");
        continue;
      }
      Object id = o.get("id");
      String offerId = "vast-" + (id instanceof BigDecimal n ? n.toPlainString() : String.valueOf(id));
      String where = "offers[" + i + "] (" + offerId + ")";
      if (id == null || String.valueOf(id).isBlank()) {
        rejected.add("offers[" + i + "]: no id");
        continue;
      }
      if (!ids.add(offerId)) {
        rejected.add(where + ": id appears twice; the second is ignored");
        continue;
      }
      String name = o.get("gpu_name") == null ? "" : o.get("gpu_name").toString().trim();
      BigDecimal gpuRam = Decimals.of(o.get("gpu_ram"));
      Optional<Gpu> gpu = resolve(catalog, name, gpuRam);
      if (gpu.isEmpty()) {
        rejected.add(where + ": unknown GPU '" + name + "'"
            + (gpuRam == null ? "" : " (gpu_ram " + gpuRam.toPlainString() + " MB)"));
        continue;
      }
      BigDecimal count = Decimals.of(o.get("num_gpus"));
      if (count == null || count.signum() <= 0) {
        rejected.add(where + ": num_gpus '" + o.get("num_gpus") + "' is not above zero");
        continue;
      }
      BigDecimal dph = Decimals.of(o.get("dph_total"));
      if (dph == null || dph.signum() <= 0) {
        rejected.add(where + ": dph_total '" + o.get("dph_total") + "' is not an offer");
        continue;
      }
      String region = country(o.get("geolocation"));
      BigDecimal cpus = Decimals.of(o.get("cpu_cores_effective"));
      BigDecimal ram = Decimals.of(o.get("cpu_ram"));
      double vcpus = cpus == null ? 0 : cpus.doubleValue();
      double ramGiB = ram == null ? 0 : ram.divide(MB_PER_GB, 3, RoundingMode.HALF_UP).doubleValue();
      Stock stock = stock(o.get("rentable"));
      quotes.add(new Quote(def.vendor(), region, offerId, gpu.get().id(), count.doubleValue(), vcpus, ramGiB,
          Billing.ON_DEMAND, new Money(dph, "USD"), PriceUnit.HOUR, fetchedAt, cite).withStock(stock));
      BigDecimal bid = Decimals.of(o.get("min_bid"));
      if (bid != null && bid.signum() > 0) {
        quotes.add(new Quote(def.vendor(), region, offerId, gpu.get().id(), count.doubleValue(), vcpus, ramGiB,
            Billing.SPOT, new Money(bid, "USD"), PriceUnit.HOUR, fetchedAt, cite).withStock(stock));
      }
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, fetchedAt, def.note());
    return new Result(vq, offers.size());
  }

  /** The card a Vast name names, retried with the memory gpu_ram gives ("A100 SXM4" + 81920 MB: "A100 SXM4 80GB"). */
  static Optional<Gpu> resolve(GpuCatalog catalog, String name, BigDecimal gpuRamMb) {
    Optional<Gpu> gpu = catalog.find(name);
    if (gpu.isPresent() || gpuRamMb == null || gpuRamMb.signum() <= 0) return gpu;
    long gb = gpuRamMb.divide(MB_PER_GB, 0, RoundingMode.HALF_UP).longValue();
    return catalog.find(name + " " + gb + "GB");
  }

  /** An offer's {@code rentable} as its stock: true available, false unavailable, anything else unknown. */
  static Stock stock(Object rentable) {
    if (!(rentable instanceof Boolean b)) return Stock.UNKNOWN;
    return b ? Stock.available(null, "rentable: true") : Stock.unavailable("rentable: false");
  }

  /** "Atlantis, AT" gives "AT"; a bare two-letter code is kept; anything else gives "". */
  static String country(Object geolocation) {
    if (geolocation == null) return "";
    String g = geolocation.toString().trim();
    int comma = g.lastIndexOf(',');
    String cc = (comma >= 0 ? g.substring(comma + 1) : g).trim();
    return cc.matches("[A-Za-z]{2}") ? cc.toUpperCase(java.util.Locale.ROOT) : "";
  }

  @SuppressWarnings("unchecked")
  private static List<Object> offers(Object root) {
    if (root instanceof Map<?, ?> map) {
      Object offers = map.get("offers");
      if (offers instanceof List<?> list) return (List<Object>) list;
      if (offers instanceof Map<?, ?> one) return List.of(one);  // the spec's example: one offer, not an array
      if (map.containsKey("error")) {
        throw new IllegalArgumentException("Vast.ai answered with an error: " + map.get("error") + " " + map.get("msg"));
      }
    }
    throw new IllegalArgumentException("not a Vast.ai search-offers answer: expected {\"offers\": [...]}");
  }
}
