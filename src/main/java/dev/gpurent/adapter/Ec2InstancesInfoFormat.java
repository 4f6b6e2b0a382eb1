package dev.gpurent.adapter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kind {@code ec2instances-info}: the {@code instances.json} of ec2instances.info
 * (instances.vantage.sh), in either of the two shapes it has had:
 *
 * <ul>
 *   <li><b>www / live</b> (and the tsaol/aws-gpu China file): a top-level array of instance types,
 *       each with {@code instance_type}, {@code GPU} (count), optionally {@code GPU_model} and
 *       {@code GPU_memory} (GiB for the whole instance), {@code vCPU}, {@code memory}, and
 *       {@code pricing[region][os] = {ondemand, reserved: {"yrTerm1Standard.allUpfront": ...}, spot_avg?}}.
 *   <li><b>flat</b> (the opszero-app export): {@code {"data": [...]}} with one record per
 *       (instance type, region): {@code instance-type}, {@code region}, {@code GPU},
 *       {@code GPU_memory}, {@code vCPU}, {@code memory}, {@code ondemand}, {@code spot_avg}.
 * </ul>
 *
 * <p>All prices are decimal strings per instance-hour. There is no currency field: regions
 * whose code starts with {@code cn-} are priced in CNY (AWS China), all others in USD; each
 * quote carries its region's currency. Only the {@code linux} operating system is read.
 *
 * <p>Billing modes (one quote per instance type, region and mode):
 * <ul>
 *   <li>{@code ondemand} -> ON_DEMAND, unit HOUR.
 *   <li>{@code reserved}: the keys are EFFECTIVE hourly rates (any upfront fee already spread
 *       over the term), which the cost model charges for every hour of the term. Of the
 *       Standard keys of a term ({@code yrTerm1Standard.noUpfront}, {@code .partialUpfront},
 *       {@code .allUpfront}) the cheapest is kept -> YEARLY (1 year) / THREE_YEARS (3 years),
 *       unit HOUR. In every sample row that is {@code allUpfront}, whose whole term is paid the
 *       day it starts: the quote carries that upfront amount, the rate x the term's 8760 h a year
 *       (a partial-upfront rate does not say its split, so carries none). Convertible and Savings
 *       Plan keys are not read.
 *   <li>spot -> SPOT, unit HOUR: {@code spot_avg}, else {@code spot_min}, else {@code spot}.
 *       ec2instances.info computes {@code spot_avg} as on-demand x (100 - advisor saving %) / 100,
 *       an estimate rather than a market price.
 * </ul>
 * A price of 0 means "unknown" in this feed and is refused with its reason; an absent or null
 * price is simply not offered.
 *
 * <p>GPU model: the record's {@code GPU_model} text resolved through the catalog, else the
 * instance family through {@link AwsPriceListFormat#GPU_FAMILIES} (extended by the YAML key
 * {@code gpuFamilies: {family: catalog id}}). When {@code GPU_memory} is given, the per-GPU
 * memory must match the card: "NVIDIA A100" with 80 GiB per GPU (p4de) becomes the family's
 * card (a100-80g-sxm), a "NVIDIA Tesla V100" with 32 GiB (p3dn) v100-32g. When the memory is a
 * whole multiple of the card's, the feed counted dual-GPU boards (p2.8xlarge: "GPU": 4 with
 * 96 GiB of K80) and the count is multiplied to the GPUs AWS and the catalog count (8 x 12 GiB).
 * Inferentia, Trainium, Gaudi and other non-GPU accelerators that the catalog does not know are
 * refused with their reason. Records without GPUs are counted in one "skipped" line.
 *
 * <p>The live file lists every instance type with every region's prices (tens of MB), so it is
 * streamed to a temporary file and read record by record with Jackson's streaming parser.
 */
public final class Ec2InstancesInfoFormat {

  public static final String KIND = "ec2instances-info";
  private static final JsonFactory JSON = new JsonFactory();
  private static final BigDecimal MEMORY_TOLERANCE = new BigDecimal("0.1");

  private Ec2InstancesInfoFormat() {}

  /**
   * Reads one instances.json (either shape); pure, no Vert.x. The files carry no date of their
   * own, so every quote's observedAt is {@code fetchedAt} (the fetch time).
   */
  public static VendorQuotes parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    Reader r = new Reader(def, catalog, families(def, catalog), fetchedAt, KIND + ":" + payload.origin());
    try (InputStream in = payload.open(); JsonParser p = JSON.createParser(in)) {
      JsonToken first = p.nextToken();
      if (first == JsonToken.START_ARRAY) {
        r.records(p);
      } else if (first == JsonToken.START_OBJECT) {
        boolean found = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken t = p.nextToken();
          if (t == JsonToken.START_ARRAY && !found && (field.equals("data") || field.equals("instances"))) {
            r.records(p);
            found = true;
          } else {
            p.skipChildren();
          }
        }
        if (!found) throw new IllegalArgumentException("not an instances.json: an object without a 'data' array of instances");
      } else {
        throw new IllegalArgumentException("not an instances.json: expected an array of instances or {\"data\": [...]}");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(payload.origin() + ": not a readable instances.json: " + e.getMessage(), e);
    }
    return r.result();
  }

  /** The built-in family table with the YAML's {@code gpuFamilies} on top, each id checked. */
  static Map<String, String> families(VendorDefinition def, GpuCatalog catalog) {
    Map<String, String> m = new HashMap<>(AwsPriceListFormat.GPU_FAMILIES);
    JsonObject extra = def.config().getJsonObject("gpuFamilies", new JsonObject());
    for (Map.Entry<String, Object> e : extra) {
      String id = String.valueOf(e.getValue());
      if (catalog.find(id).isEmpty()) VendorDefinition.fail(def.where(), "gpuFamilies." + e.getKey(), "unknown GPU '" + id + "'");
      m.put(e.getKey().toLowerCase(Locale.ROOT), id);
    }
    return m;
  }

  /** The GPUs of one instance type: the card and how many. */
  record Accelerators(Gpu gpu, BigDecimal count) {}

  /** The state of one parse. */
  private static final class Reader {
    final VendorDefinition def;
    final GpuCatalog catalog;
    final Map<String, String> families;
    final Instant observedAt;
    final String cite;
    final List<Quote> quotes = new ArrayList<>();
    final Set<String> quoted = new HashSet<>();
    final RowLog log = new RowLog();

    Reader(VendorDefinition def, GpuCatalog catalog, Map<String, String> families, Instant observedAt, String cite) {
      this.def = def;
      this.catalog = catalog;
      this.families = families;
      this.observedAt = observedAt;
      this.cite = cite;
    }

    void records(JsonParser p) throws IOException {
      int row = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        Object v = JsonValues.read(p);
        if (v instanceof Map<?, ?> m) {
          @SuppressWarnings("unchecked") Map<String, Object> rec = (Map<String, Object>) m;
          record(row, rec);
        } else {
          log.reject("row " + row + ": not a JSON object");
        }
        row++;
      }
    }

    private void record(int row, Map<String, Object> rec) {
      String type = text(rec.get("instance_type"));
      if (type == null) type = text(rec.get("instance-type"));
      boolean flat = !(rec.get("pricing") instanceof Map<?, ?>);
      String flatRegion = flat ? text(rec.get("region")) : null;
      String at = "row " + row + " (" + (type == null ? "?" : type) + (flatRegion == null ? "" : ", " + flatRegion) + ")";
      if (type == null) {
        log.reject(at + ": no instance_type");
        return;
      }
      BigDecimal gpus = Decimals.of(rec.get("GPU"));
      if (gpus == null || gpus.signum() <= 0) {
        log.skip("instance types without GPUs", at);
        return;
      }
      Object acc = accelerators(type, gpus, rec);
      if (acc instanceof String why) {
        log.reject(at + ": " + why);
        return;
      }
      Accelerators a = (Accelerators) acc;
      double vcpus = number(rec.get("vCPU"));
      double ram = number(rec.get("memory"));
      if (flat) {
        if (flatRegion == null) {
          log.reject(at + ": no region");
          return;
        }
        prices(at, type, flatRegion, a, vcpus, ram, rec, false);
        return;
      }
      @SuppressWarnings("unchecked") Map<String, Object> pricing = (Map<String, Object>) rec.get("pricing");
      if (pricing.isEmpty()) {
        log.reject(at + ": no prices in any region (pricing is empty)");
        return;
      }
      for (Map.Entry<String, Object> region : pricing.entrySet()) {
        String where = "row " + row + " (" + type + ", " + region.getKey() + ")";
        if (!(region.getValue() instanceof Map<?, ?> oses) || !(oses.get("linux") instanceof Map<?, ?> linux)) {
          log.reject(where + ": no linux prices");
          continue;
        }
        @SuppressWarnings("unchecked") Map<String, Object> l = (Map<String, Object>) linux;
        prices(where, type, region.getKey(), a, vcpus, ram, l, true);
      }
    }

    /** The on-demand, reserved and spot prices of one instance type in one region. */
    private void prices(String at, String type, String region, Accelerators a, double vcpus, double ram,
                        Map<String, Object> p, boolean reservedToo) {
      String currency = region.toLowerCase(Locale.ROOT).startsWith("cn-") ? "CNY" : "USD";
      List<String> problems = new ArrayList<>();
      int before = quotes.size();
      price(at, type, region, a, vcpus, ram, currency, Billing.ON_DEMAND, "ondemand", p.get("ondemand"), false, problems);
      if (reservedToo && p.get("reserved") instanceof Map<?, ?> reserved) {
        reserved(at, type, region, a, vcpus, ram, currency, Billing.YEARLY, "yrTerm1Standard.", reserved, problems);
        reserved(at, type, region, a, vcpus, ram, currency, Billing.THREE_YEARS, "yrTerm3Standard.", reserved, problems);
      }
      for (String key : List.of("spot_avg", "spot_min", "spot")) {
        if (p.get(key) != null) {
          price(at, type, region, a, vcpus, ram, currency, Billing.SPOT, key, p.get(key), false, problems);
          break;
        }
      }
      if (quotes.size() == before) {
        log.reject(at + ": no usable price" + (problems.isEmpty() ? " (no ondemand, reserved or spot field)" : ": " + String.join("; ", problems)));
      } else if (!problems.isEmpty()) {
        log.reject(at + ": " + String.join("; ", problems) + " (the other prices were kept)");
      }
    }

    private void price(String at, String type, String region, Accelerators a, double vcpus, double ram, String currency,
                       Billing billing, String key, Object value, boolean allUpfront, List<String> problems) {
      if (value == null) return;
      BigDecimal d = Decimals.of(value);
      if (d == null) {
        problems.add(Decimals.notANumber(key, value));
      } else if (d.signum() <= 0) {
        problems.add(key + " '" + value + "' (0 means unknown)");
      } else {
        Quote q = new Quote(def.vendor(), region, type, a.gpu().id(), a.count().doubleValue(), vcpus, ram, billing,
            new Money(d, currency), PriceUnit.HOUR, observedAt, cite);
        // all upfront: the whole term is paid the day it starts, the effective rate times the term's hours
        add(at, allUpfront ? q.withUpfront(new Money(d.multiply(PriceUnit.YEAR.hours())
            .multiply(BigDecimal.valueOf(billing.commitmentMonths() / 12)), currency)) : q);
      }
    }

    /** The cheapest positive Standard effective hourly rate of one term. */
    private void reserved(String at, String type, String region, Accelerators a, double vcpus, double ram, String currency,
                          Billing billing, String prefix, Map<?, ?> reserved, List<String> problems) {
      String bestKey = null;
      BigDecimal best = null;
      for (Map.Entry<?, ?> e : reserved.entrySet()) {
        String k = String.valueOf(e.getKey());
        if (!k.startsWith(prefix)) continue;
        BigDecimal d = Decimals.of(e.getValue());
        if (d == null || d.signum() <= 0) {
          problems.add("reserved " + k + " '" + e.getValue() + "' ignored");
          continue;
        }
        if (best == null || d.compareTo(best) < 0) {
          best = d;
          bestKey = k;
        }
      }
      if (bestKey != null) {
        price(at, type, region, a, vcpus, ram, currency, billing, "reserved " + bestKey, best, bestKey.endsWith(".allUpfront"), problems);
      }
    }

    private void add(String at, Quote q) {
      if (!quoted.add(q.key())) {
        log.reject(at + ": a second " + q.billing() + " price for " + q.offerId() + " in " + q.region() + " ignored");
        return;
      }
      quotes.add(q);
    }

    /** The card and count of one instance type, or the reason there is none. */
    private Object accelerators(String type, BigDecimal gpus, Map<String, Object> rec) {
      String family = type.contains(".") ? type.substring(0, type.indexOf('.')).toLowerCase(Locale.ROOT) : type;
      String model = text(rec.get("GPU_model"));
      if (model == null) model = text(rec.get("gpu_model"));
      BigDecimal totalMem = Decimals.of(rec.get("GPU_memory"));
      BigDecimal perGpu = totalMem == null || totalMem.signum() <= 0 ? null : totalMem.divide(gpus, 3, RoundingMode.HALF_UP);
      Optional<Gpu> byModel = model == null ? Optional.empty() : catalog.find(model);
      String familyId = families.get(family);
      Optional<Gpu> byFamily = familyId == null ? Optional.empty() : catalog.find(familyId);
      if (byModel.isEmpty() && AwsPriceListFormat.NON_GPU_FAMILIES.containsKey(family)) {
        return AwsPriceListFormat.NON_GPU_FAMILIES.get(family) + " accelerators" + (model == null ? "" : " (GPU_model '" + model + "')")
            + " are not GPUs in the catalog";
      }
      if (byModel.isEmpty() && model != null && byFamily.isEmpty()) {
        return "unknown GPU '" + model + "' (instance family '" + family + "' is not in the family table either)";
      }
      List<Gpu> candidates = new ArrayList<>();
      byModel.ifPresent(candidates::add);
      byFamily.filter(g -> !candidates.contains(g)).ifPresent(candidates::add);
      if (candidates.isEmpty()) {
        return "no GPU model: GPU_model is absent and instance family '" + family
            + "' is not in the family table (add it to gpuFamilies)";
      }
      if (perGpu == null) return new Accelerators(candidates.get(0), gpus);
      for (Gpu g : candidates) {
        if (matches(perGpu, g.memoryGiB())) return new Accelerators(g, gpus);
      }
      for (Gpu g : candidates) {
        BigDecimal ratio = perGpu.divide(BigDecimal.valueOf(g.memoryGiB()), 3, RoundingMode.HALF_UP);
        BigDecimal k = ratio.setScale(0, RoundingMode.HALF_UP);
        if (k.compareTo(BigDecimal.ONE) > 0 && matches(perGpu, g.memoryGiB() * k.doubleValue())) {
          return new Accelerators(g, gpus.multiply(k));  // dual-GPU boards counted as one
        }
      }
      Gpu g = candidates.get(0);
      return (model == null ? "instance family '" + family + "'" : "GPU_model '" + model + "'") + " is " + g.id()
          + " (" + strip(g.memoryGiB()) + " GiB) but GPU_memory " + totalMem.toPlainString() + " GiB / " + gpus.toPlainString()
          + " GPUs = " + perGpu.stripTrailingZeros().toPlainString() + " GiB per GPU";
    }

    private static boolean matches(BigDecimal perGpu, double cardGiB) {
      BigDecimal card = BigDecimal.valueOf(cardGiB);
      return perGpu.subtract(card).abs().compareTo(card.multiply(MEMORY_TOLERANCE)) <= 0;
    }


    VendorQuotes result() {
      return new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, log.lines("record"), observedAt, def.note());
    }
  }

  private static String strip(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  /** A non-blank string value, or null. */
  static String text(Object v) {
    if (v == null) return null;
    String s = v.toString().trim();
    return s.isEmpty() ? null : s;
  }

  private static double number(Object v) {
    BigDecimal d = Decimals.of(v);
    return d == null ? 0 : d.doubleValue();
  }
}
