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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kind {@code oci-price-list}: Oracle Cloud's public price list API
 * ({@code https://apexapps.oracle.com/pls/apex/cetools/api/v1/products/?currencyCode=USD}), a JSON
 * object {@code {"items": [...]}} in which each item is one part:
 * {@code {partNumber, displayName, metricName, serviceCategory,
 * currencyCodeLocalizations: [{currencyCode, prices: [{model: PAY_AS_YOU_GO, value, rangeMin?, rangeMax?}]}]}}.
 *
 * <p>Only items whose {@code metricName} is {@code "GPU Per Hour"} are offers here: their price is
 * per GPU-hour, so each becomes ONE quote for ONE GPU ({@code gpuCount} 1), {@link Billing#ON_DEMAND},
 * unit {@link PriceUnit#HOUR}, region {@code ""} (OCI list prices are the same in every commercial
 * region) and offer id the {@code partNumber}. Every other item (OCPU, storage, database, media...)
 * is skipped and counted in {@link Result#nonGpuSkipped()}, never listed as rejected. The payload
 * has no date of its own, so quotes carry the fetch time.
 *
 * <p>The price is the {@code PAY_AS_YOU_GO} value of the localization in the vendor's currency. A
 * GPU item is rejected with its reason when that price is missing, tiered (several ranges: no GPU
 * part has tiers), not above zero, or its GPU cannot be named (see {@link #gpuSpelling(String)}).
 *
 * <p>The same payload also lists OCI's object storage, outbound data transfer and load balancer
 * parts; {@link Result#listed()} reports them for cross-checking the vendor YAML's terms, which
 * remain the figures the engine bills with.
 */
public final class OciPriceListFormat {

  public static final String KIND = "oci-price-list";
  static final String GPU_METRIC = "GPU Per Hour";

  /**
   * What one price list gave.
   *
   * @param vendorQuotes  the GPU quotes kept and the GPU items rejected, with reasons
   * @param items         items read
   * @param nonGpuSkipped items whose metric is not "GPU Per Hour", skipped silently
   * @param listed        storage, egress and load balancer prices the payload lists, where present
   */
  public record Result(VendorQuotes vendorQuotes, int items, int nonGpuSkipped, ListedTerms listed)
      implements ParsedPayload {}

  /** One price range of a tiered part: {@code price} per unit from {@code fromUnits} up to {@code toUnits} (null: no range). */
  public record Tier(BigDecimal fromUnits, BigDecimal toUnits, BigDecimal price) {}

  /**
   * Terms-related parts found in the payload, each null (or empty) where the payload lacks it.
   *
   * @param currency                 the currency they are in
   * @param objectStoragePerGbMonth  "Object Storage - Storage", the paid tier (the first 10 GB are free)
   * @param outboundPerGb            "Outbound Data Transfer - Originating in ...": tiers per origin, keyed by origin
   * @param loadBalancerBasePerHour  "Load Balancer Base", the paid tier (the first 744 hours a month are free)
   * @param loadBalancerPerMbpsHour  "Load Balancer Bandwidth", the paid tier (the first 7,440 Mbps-hours are free)
   */
  public record ListedTerms(String currency, BigDecimal objectStoragePerGbMonth, Map<String, List<Tier>> outboundPerGb,
                            BigDecimal loadBalancerBasePerHour, BigDecimal loadBalancerPerMbpsHour) {}

  private OciPriceListFormat() {}

  /** Reads a price list payload; pure, no I/O. */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    List<Object> items = items(JsonValues.document(payload, "OCI price list"));
    String cite = KIND + ":" + payload.origin();
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    Set<String> parts = new HashSet<>();
    int skipped = 0;
    String currency = def.currency();
    BigDecimal storage = null;
    BigDecimal lbBase = null;
    BigDecimal lbMbps = null;
    Map<String, List<Tier>> outbound = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Map<?, ?> item)) {
        rejected.add("items[" + i + "]: not an object");
        continue;
      }
      String part = String.valueOf(item.get("partNumber"));
      String name = String.valueOf(item.get("displayName"));
      String metric = String.valueOf(item.get("metricName"));
      String where = "items[" + i + "] (" + part + " " + name + ")";
      List<Tier> tiers = tiers(item, currency);
      if (!GPU_METRIC.equalsIgnoreCase(metric.trim())) {
        skipped++;
        // terms parts, for the cross-check only
        if (tiers != null && !tiers.isEmpty()) {
          BigDecimal paid = tiers.get(tiers.size() - 1).price();
          if (name.equals("Object Storage - Storage") && metric.startsWith("Gigabyte Storage Capacity Per Month")) storage = paid;
          else if (name.equals("Load Balancer Base")) lbBase = paid;
          else if (name.equals("Load Balancer Bandwidth")) lbMbps = paid;
          else if (name.startsWith("Outbound Data Transfer - ") && metric.startsWith("Gigabyte Outbound Data Transfer")) {
            outbound.put(name.substring("Outbound Data Transfer - ".length()).replaceFirst("^Originating in ", ""), tiers);
          }
        }
        continue;
      }
      if (!parts.add(part)) {
        rejected.add(where + ": partNumber " + part + " appears twice; the second is ignored");
        continue;
      }
      Optional<String> spelling = gpuSpelling(name);
      Optional<Gpu> gpu = spelling.flatMap(catalog::find);
      if (gpu.isEmpty()) {
        rejected.add(where + ": unknown GPU in displayName '" + name + "'"
            + spelling.map(s -> " (read as '" + s + "')").orElse(""));
        continue;
      }
      if (tiers == null) {
        rejected.add(where + ": no " + currency + " PAY_AS_YOU_GO price");
        continue;
      }
      if (tiers.size() != 1) {
        rejected.add(where + ": " + tiers.size() + " price tiers; a GPU part is expected to have one");
        continue;
      }
      BigDecimal price = tiers.get(0).price();
      if (price.signum() <= 0) {
        rejected.add(where + ": price " + price.toPlainString() + " is not an offer");
        continue;
      }
      quotes.add(new Quote(def.vendor(), "", part, gpu.get().id(), 1, 0, 0, Billing.ON_DEMAND,
          new Money(price, currency), PriceUnit.HOUR, fetchedAt, cite));
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, fetchedAt, def.note());
    return new Result(vq, items.size(), skipped, new ListedTerms(currency, storage, outbound, lbBase, lbMbps));
  }

  /** The PAY_AS_YOU_GO prices of the localization in {@code currency}, in listed order; null when there is none. */
  private static List<Tier> tiers(Map<?, ?> item, String currency) {
    if (!(item.get("currencyCodeLocalizations") instanceof List<?> locs)) return null;
    for (Object o : locs) {
      if (!(o instanceof Map<?, ?> loc) || !currency.equalsIgnoreCase(String.valueOf(loc.get("currencyCode")))) continue;
      if (!(loc.get("prices") instanceof List<?> prices)) return null;
      List<Tier> out = new ArrayList<>();
      for (Object p : prices) {
        if (p instanceof Map<?, ?> pm && "PAY_AS_YOU_GO".equals(pm.get("model")) && pm.get("value") instanceof BigDecimal v) {
          out.add(new Tier(pm.get("rangeMin") instanceof BigDecimal a ? a : null,
              pm.get("rangeMax") instanceof BigDecimal b ? b : null, v));
        }
      }
      return out.isEmpty() ? null : out;
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> items(Object root) {
    if (root instanceof Map<?, ?> map && map.get("items") instanceof List<?> list) return (List<Object>) list;
    throw new IllegalArgumentException("not an OCI price list payload: expected {\"items\": [...]}");
  }

  // ------------------------------------------------------------------ GPU names

  /** A shape name: BM.GPU.H100.8, VM.GPU.A10.1, BM.GPU4.8, BM.GPU.A100-v2.8, BM.GPU.H100 ... */
  private static final Pattern SHAPE = Pattern.compile("\\b(?:BM|VM)\\.GPU(\\d*)(?:\\.([A-Za-z][A-Za-z0-9-]*))?(?:\\.\\d+)?\\b");

  /**
   * OCI's shape generations and price-list codes that do not name the card: {@code GPU2}/"X7" is
   * the P100 (VM.GPU2.1 / BM.GPU2.2: the "GPU Standard - X7" part costs 1.275 per GPU-hour, the
   * price of VM.GPU2.1 in SkyPilot's OCI catalog), {@code GPU3}/"V2" the V100 16 GB (VM.GPU3.x,
   * 2.95 per GPU-hour), {@code GPU4} the A100 40 GB SXM (BM.GPU4.8), {@code A100-v2} the
   * A100 80 GB SXM (BM.GPU.A100-v2.8, 4 per GPU-hour) and {@code RTXPRO} the RTX PRO 6000
   * (BM.GPU.RTXPRO.8).
   */
  private static final Map<String, String> CODES = Map.of(
      "X7", "P100",
      "V2", "V100",
      "GPU2", "P100",
      "GPU3", "V100",
      "GPU4", "A100",
      "A100-V2", "A100-80GB",
      "RTXPRO", "RTX PRO 6000");

  /**
   * The catalog spelling an OCI {@code displayName} names, or empty when no GPU model can be read.
   * Known forms (OCI price list, 2019-2025):
   * <ul>
   *   <li>{@code "Compute - GPU Standard - A10"}, {@code "Compute - Bare Metal GPU Standard - X7"},
   *       {@code "Compute - GPU Standard - V2"}: the model or code follows the part with "GPU";</li>
   *   <li>{@code "Compute - GPU - A100"}, {@code "Compute - GPU - A100 - v2"},
   *       {@code "Oracle Cloud Infrastructure - Compute - GPU - H100"}, {@code "Compute - GPU - L40S"}:
   *       the same, with an optional version part ({@code v2} only known for the A100);</li>
   *   <li>a shape name anywhere in the text, {@code "BM.GPU.H100.8"}, {@code "VM.GPU.A10.1"},
   *       {@code "BM.GPU4.8"}.</li>
   * </ul>
   * Codes that do not name the card translate through {@link #CODES}; everything else is
   * returned as written for the catalog to resolve ("H100" is the SXM card, the only H100 OCI sells).
   */
  public static Optional<String> gpuSpelling(String displayName) {
    if (displayName == null) return Optional.empty();
    Matcher m = SHAPE.matcher(displayName);
    if (m.find()) {
      String gen = m.group(1);
      String model = m.group(2);
      if (!gen.isEmpty()) return Optional.ofNullable(CODES.get("GPU" + gen));
      if (model == null) return Optional.empty();
      return Optional.of(CODES.getOrDefault(model.toUpperCase(Locale.ROOT), model));
    }
    String[] parts = displayName.split("\\s+-\\s+");
    int gpuPart = -1;
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].matches("(?i).*\\bGPU\\b.*")) {
        gpuPart = i;
        break;
      }
    }
    if (gpuPart < 0) return Optional.empty();
    // "GPU A10" in one part: the words after GPU, less "Standard"
    String inPart = parts[gpuPart].replaceFirst("(?i)^.*\\bGPU\\b", "").replaceAll("(?i)\\bStandard\\b", "").trim();
    List<String> rest = new ArrayList<>();
    if (!inPart.isEmpty()) rest.add(inPart);
    for (int i = gpuPart + 1; i < parts.length; i++) rest.add(parts[i].trim());
    if (rest.isEmpty()) return Optional.empty();
    String model = rest.get(0);
    if (rest.size() > 1) {
      String version = rest.get(1);
      if (!version.matches("(?i)v\\d+")) return Optional.of(String.join(" ", rest));
      String code = CODES.get((model + "-" + version).toUpperCase(Locale.ROOT));
      // an unknown version of a known card is not silently read as the first version
      return Optional.of(code != null ? code : model + " " + version);
    }
    return Optional.of(CODES.getOrDefault(model.toUpperCase(Locale.ROOT), model));
  }
}
