package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kind {@code gcp-pricing-yml}: the community {@code pricing.yml} of Cyclenerd's
 * google-cloud-pricing-cost-calculator (built daily from the Cloud Billing Catalog API), which
 * prices WHOLE Compute Engine machines, host VM included:
 *
 * <pre>
 * about: {generated: Thu Jul 30 06:13:17 2026, timestamp: 1785391997, ...}
 * compute:
 *   instance:
 *     a2-highgpu-1g:
 *       a100: 1          # the GPU count, keyed by the GPU; fractional for G4 (rtx6000: 0.25)
 *       cpu: 12
 *       ram: 85
 *       cost:
 *         us-central1: {hour: 3.6730..., hour_spot: ..., month: ..., month_1y: ..., month_3y: ..., month_spot: ...}
 * </pre>
 *
 * All prices are USD for the whole machine. Each machine and region gives up to four quotes:
 * {@code hour} ON_DEMAND and {@code hour_spot} SPOT per {@link PriceUnit#HOUR};
 * {@code month_1y} YEARLY and {@code month_3y} THREE_YEARS per {@link PriceUnit#MONTH} (the
 * monthly bill during the commitment). {@code month} (= hour x 730) and {@code month_spot} say
 * nothing new and are not read. A price that is missing, zero or not a number is rejected with
 * its reason (G4 machines, for instance, have no commitment prices); the other prices of that
 * machine and region are kept.
 *
 * <p>The GPU key is translated by {@link #GPU_KEYS}, this format's own table, before the
 * catalog is asked: {@code rtx6000} here is the RTX PRO 6000 Blackwell of the G4 machines, while
 * the catalog's alias {@code rtx6000} is Lambda's Quadro RTX 6000. Any other key besides
 * {@link #MACHINE_KEYS} whose value is a number is taken as a GPU and resolved through the
 * catalog; an unknown one rejects the machine, so a new accelerator shows up as a rejection.
 * Machines without a GPU key (n2-standard-8, ...) are skipped and counted in
 * {@link Result#cpuMachinesSkipped()}. Fractional counts are kept as they are.
 *
 * <p>Quote.priceDate is the file's {@code about.timestamp} (epoch seconds), else its
 * {@code about.generated} text (read as UTC), else none (undated); observedAt is the fetch time. The file is about 3.9 MB:
 * it is streamed to a temporary file and parsed on a worker thread, decimals kept as text so
 * that prices are exact.
 */
public final class GcpPricingYmlFormat {

  public static final String KIND = "gcp-pricing-yml";

  /**
   * This format's GPU keys and the catalog cards they mean (resource gcp-pricing-yml.yaml, with
   * its sources). {@code h100-80gb-mega} (A3 Mega) is the same H100 SXM card as A3 High's;
   * {@code rtx6000} is the G4's RTX PRO 6000 Blackwell.
   */
  static final Map<String, String> GPU_KEYS = LookupTables.load("gcp-pricing-yml.yaml").strings("gpuKeys");

  /** Machine keys that are not GPUs (as in Cyclenerd's build/gcp.yml). */
  static final Set<String> MACHINE_KEYS = Set.of("cost", "cpu", "ram", "local-ssd", "type");

  private record Field(String key, Billing billing, PriceUnit unit, String meaning) {}

  private static final List<Field> FIELDS = List.of(
      new Field("hour", Billing.ON_DEMAND, PriceUnit.HOUR, "on-demand"),
      new Field("hour_spot", Billing.SPOT, PriceUnit.HOUR, "spot"),
      new Field("month_1y", Billing.YEARLY, PriceUnit.MONTH, "1-year commitment"),
      new Field("month_3y", Billing.THREE_YEARS, PriceUnit.MONTH, "3-year commitment"));

  private static final DateTimeFormatter GENERATED = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ENGLISH);

  /**
   * What one file gave.
   *
   * @param vendorQuotes       the quotes kept and the prices rejected, with reasons
   * @param machines           machine types under compute.instance
   * @param gpuMachines        machine types with a GPU key that resolved
   * @param cpuMachinesSkipped machine types without any GPU key, skipped silently
   * @param generated          the file's own date, or null when it has none
   */
  public record Result(VendorQuotes vendorQuotes, int machines, int gpuMachines, int cpuMachinesSkipped,
                       Instant generated) implements ParsedPayload {}

  private GcpPricingYmlFormat() {}

  /** Fails fast on a vendor whose currency is not USD, the only one pricing.yml has. */
  static void check(VendorDefinition def) {
    if (!"USD".equals(def.currency())) {
      VendorDefinition.fail(def.where(), "currency", "pricing.yml prices are USD, got " + def.currency());
    }
  }

  /** Reads a saved or downloaded pricing.yml; pure, no Vert.x I/O. */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    String where = payload.origin();
    String cite = KIND + ":" + where;
    Object root;
    try (Reader in = payload.reader()) {
      root = YamlFiles.parseDecimalsAsText(in, where);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + where, e);
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("compute") instanceof Map<?, ?> compute)
        || !(compute.get("instance") instanceof Map<?, ?> instances)) {
      throw new IllegalArgumentException(where + ": not a pricing.yml: no compute.instance section");
    }
    Instant generated = generated(top.get("about"));
    Instant dated = generated;  // null: undated, never the fetch's time
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    int gpuMachines = 0;
    int cpuMachines = 0;
    for (Map.Entry<?, ?> e : instances.entrySet()) {
      String machine = String.valueOf(e.getKey());
      String at = "compute.instance." + machine;
      if (!(e.getValue() instanceof Map<?, ?> m)) {
        rejected.add(at + ": not a map");
        continue;
      }
      List<String> gpuKeys = new ArrayList<>();
      for (Map.Entry<?, ?> k : m.entrySet()) {
        String key = String.valueOf(k.getKey());
        if (!MACHINE_KEYS.contains(key) && Decimals.of(k.getValue()) != null) gpuKeys.add(key);
      }
      if (gpuKeys.isEmpty()) {
        cpuMachines++;
        continue;
      }
      if (gpuKeys.size() > 1) {
        rejected.add(at + ": several GPU keys " + gpuKeys + ": one machine, one GPU model expected");
        continue;
      }
      String gpuKey = gpuKeys.get(0);
      Optional<Gpu> gpu = GPU_KEYS.containsKey(gpuKey) ? catalog.find(GPU_KEYS.get(gpuKey)) : catalog.find(gpuKey);
      if (gpu.isEmpty()) {
        rejected.add(at + ": unknown GPU key '" + gpuKey + "' (" + m.get(gpuKey) + " per machine)");
        continue;
      }
      BigDecimal count = Decimals.of(m.get(gpuKey));
      if (count.signum() <= 0) {
        rejected.add(at + ": GPU count " + gpuKey + " = " + m.get(gpuKey) + " is not positive");
        continue;
      }
      if (!(m.get("cost") instanceof Map<?, ?> cost) || cost.isEmpty()) {
        rejected.add(at + ": no cost section");
        continue;
      }
      gpuMachines++;
      double vcpus = orZero(Decimals.of(m.get("cpu")));
      double ram = orZero(Decimals.of(m.get("ram")));
      for (Map.Entry<?, ?> r : cost.entrySet()) {
        String region = String.valueOf(r.getKey());
        String rat = at + ".cost." + region;
        if (!(r.getValue() instanceof Map<?, ?> prices)) {
          rejected.add(rat + ": not a map of prices");
          continue;
        }
        for (Field f : FIELDS) {
          Object v = prices.get(f.key());
          if (v == null) {
            rejected.add(rat + ": no " + f.key() + " (" + f.meaning() + ") price");
            continue;
          }
          BigDecimal price = Decimals.of(v);
          if (price == null) {
            rejected.add(rat + ": " + Decimals.notANumber(f.key(), v));
            continue;
          }
          if (price.signum() <= 0) {
            rejected.add(rat + ": " + f.key() + " price " + v + " is not an offer");
            continue;
          }
          quotes.add(new Quote(def.vendor(), region, machine, gpu.get().id(), count.doubleValue(), vcpus, ram,
              f.billing(), new Money(price, "USD"), f.unit(), fetchedAt, cite).withPriceDate(dated));
        }
      }
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, fetchedAt,
        def.note());
    return new Result(vq, instances.size(), gpuMachines, cpuMachines, generated);
  }

  /** The file's date: {@code about.timestamp} (epoch seconds), else {@code about.generated} as UTC. */
  static Instant generated(Object about) {
    if (!(about instanceof Map<?, ?> a)) return null;
    BigDecimal ts = Decimals.of(a.get("timestamp"));
    if (ts != null && ts.signum() > 0) {
      try {
        return Instant.ofEpochSecond(ts.longValueExact());
      } catch (ArithmeticException | java.time.DateTimeException e) {
        // not whole seconds: fall through to the text
      }
    }
    Object text = a.get("generated");
    if (text == null) return null;
    try {
      return LocalDateTime.parse(text.toString().trim().replaceAll("\\s+", " "), GENERATED).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static double orZero(BigDecimal d) {
    return d == null ? 0 : d.doubleValue();
  }
}
