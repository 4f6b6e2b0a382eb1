package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kind {@code skypilot-catalog}: a SkyPilot catalog {@code vms.csv} (schema v5 to v8, and the
 * anycloud-sh daily catalogs of the same shape). One row is one VM type in one region or zone;
 * {@code Price} and {@code SpotPrice} are USD per instance-hour for the whole VM with all of its
 * accelerators, so a row gives one {@link Billing#ON_DEMAND} quote and, when {@code SpotPrice}
 * is a positive number, one {@link Billing#SPOT} quote, both per {@link PriceUnit#HOUR}.
 *
 * <p>Columns are found by header name (their order differs between clouds; unknown columns are
 * ignored). Required: {@code InstanceType}, {@code AcceleratorName}, {@code AcceleratorCount},
 * {@code Price}, {@code Region}. Rows are handled as follows:
 * <ul>
 *   <li>empty {@code AcceleratorName}: a CPU-only VM, skipped and counted in
 *       {@link Result#cpuRowsSkipped()}, never listed as rejected;</li>
 *   <li>empty {@code InstanceType} (GCP): the price of attachable GPUs alone, without the host
 *       VM. Rejected unless the vendor YAML says {@code gpuOnlyRows: keep}; kept rows get the
 *       offer id {@code "<AcceleratorName> x<count> (GPU only, host VM extra)"};</li>
 *   <li>more fields than the header (Azure's unquoted {@code V1,V2} in {@code Generation}): the
 *       surplus is joined back into the last column when the adapter does not read that column,
 *       otherwise the row is rejected;</li>
 *   <li>empty {@code Region}: the region of {@code AvailabilityZone} (its trailing {@code -N}
 *       removed), as IBM needs;</li>
 *   <li>{@code SpotPrice} empty or not above zero (Vast writes {@code 0.00}): no spot offer;</li>
 *   <li>{@code Price} empty but {@code SpotPrice} above zero (primeintellect's {@code __SPOT} types,
 *       spheron's {@code -spot} row): a spot offer only;</li>
 *   <li>unknown GPU, missing or non-positive count or price: rejected with the reason.</li>
 * </ul>
 * The card is the catalog's {@code AcceleratorName} (or a {@code gpuByInstanceType} rule) and the
 * count its {@code AcceleratorCount}. {@code GpuInfo} (a Python literal, JSON, or hyperstack's form
 * with a bare {@code null}: see {@link SkyPilotGpuInfo}) is only checked against them: where the
 * memory it states per GPU is more than 10% off the card's, the row is kept as the catalog's model
 * and count and the disagreement is listed in {@link Result#memoryDisagreements()}. Catalogs write
 * that memory per GPU in one file, as the machine's total in another (primeintellect and verda:
 * {@code SizeInMiB} is the total and {@code TotalGpuMemoryInMiB} count times that), and in GB in a
 * third (shadeform), so the name and count are the more reliable fields.
 * The same offer repeated in several availability zones of one region (RunPod, IBM, GCP) keeps
 * one quote per (region, offer, GPU, billing): the cheapest, or the first of equal ones, since a
 * renter picks the region, not the zone; the others are counted in
 * {@link Result#duplicatesDropped()}, not listed as rejected.
 *
 * <p>Vendor YAML keys besides the common ones:
 * <pre>
 * source: https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8/lambda/vms.csv
 * gpuOnlyRows: reject            # or keep (default reject)
 * gpuByInstanceType:             # optional, first match wins, before AcceleratorName is resolved
 *   - match: "_h100_pcie$"       # regex found in InstanceType, case-insensitive
 *     column: UpstreamCloudId    # optional: look in this column instead of InstanceType
 *     gpu: h100-pcie             # catalog id
 *     memoryGiB: 80              # optional: also require GpuInfo's memory per GPU (see
 *                                #   SkyPilotGpuInfo#perGpuGiB) to be this many GiB, within 10%
 * upstream:                      # optional, for resellers: which cloud each row is resold from
 *   column: InstanceType         # the column naming it (spheron: Provider)
 *   before: "__"                 # optional: only the text before the first "__" ("lambdalabs__8xA100...")
 * regionFrom: AvailabilityZone   # optional: the column holding the region a renter picks (default
 *                                #   Region, else AvailabilityZone without its -N)
 * countryFrom: Region            # optional: a column of ISO 3166 country codes (primeintellect)
 * spotOnly: true                 # optional: every price is an auction's spot price, whatever the
 *                                #   column (mithril writes one figure as Price and SpotPrice):
 *                                #   one spot quote per row, no on-demand quote
 * </pre>
 * SkyPilot files several board variants under one name ("H100" for SXM, PCIe and NVL cards;
 * "A100-80GB" for SXM and PCIe), which {@code gpuByInstanceType} tells apart where the
 * instance type or the memory says which.
 */
public final class SkyPilotCatalogFormat {

  public static final String KIND = "skypilot-catalog";
  static final String GPU_ONLY_REASON = "GPU-only price; the host VM is billed separately";

  private static final List<String> REQUIRED = List.of("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region");
  /** Columns this adapter reads: a surplus of fields may be folded back only into a column outside this set. */
  private static final Set<String> READ = Set.of("InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs",
      "MemoryGiB", "GpuInfo", "Price", "SpotPrice", "Region", "AvailabilityZone");
  private static final Pattern ZONE_SUFFIX = Pattern.compile("-\\d+$");
  private static final Pattern COUNTRY = Pattern.compile("[A-Z]{2}");

  /**
   * What one catalog gave.
   *
   * @param vendorQuotes      the quotes kept and the rows rejected, with reasons
   * @param dataRows          non-blank rows after the header
   * @param cpuRowsSkipped    rows without an accelerator (CPU-only VMs), skipped silently
   * @param duplicatesDropped quotes dropped because a cheaper or equal one for the same region,
   *                          offer, GPU and billing mode was kept (one per extra availability zone)
   * @param memoryDisagreements rows kept as the catalog's card and count although GpuInfo states
   *                          another memory per GPU, each with both figures
   */
  public record Result(VendorQuotes vendorQuotes, int dataRows, int cpuRowsSkipped, int duplicatesDropped,
                       List<String> memoryDisagreements) implements ParsedPayload {

    public Result {
      memoryDisagreements = List.copyOf(memoryDisagreements);
    }
  }

  private SkyPilotCatalogFormat() {}

  /** Fails fast on this kind's own YAML keys (gpuOnlyRows, gpuByInstanceType, upstream, spotOnly...). */
  static void check(VendorDefinition def, GpuCatalog catalog) {
    Options.from(def, catalog);
  }

  /**
   * Reads one {@code vms.csv}. Pure: no Vert.x, no network. Throws IllegalArgumentException when
   * the payload as a whole is not a SkyPilot catalog (empty, no such header, unterminated quote);
   * a bad row is only rejected. A full catalog (Azure's is tens of thousands of rows) is read row
   * by row, never held whole.
   */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    Options opts = Options.from(def, catalog);
    try (CsvRows csv = CsvRows.of(payload.reader())) {
      return rows(csv, def, catalog, fetchedAt, opts, KIND + ":" + payload.origin());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + payload.origin(), e);
    }
  }

  private static Result rows(CsvRows csv, VendorDefinition def, GpuCatalog catalog, Instant observedAt, Options opts,
                             String source) {
    CsvRows.Row first = csv.next();
    while (first != null && first.blank()) first = csv.next();
    if (first == null) throw new IllegalArgumentException("not a SkyPilot vms.csv: the payload is empty");
    List<String> header = first.cells();
    Map<String, Integer> col = new HashMap<>();
    for (int i = 0; i < header.size(); i++) col.putIfAbsent(header.get(i).strip(), i);
    List<String> missing = REQUIRED.stream().filter(c -> !col.containsKey(c)).toList();
    if (!missing.isEmpty()) {
      String shown = String.join(",", header);
      throw new IllegalArgumentException("not a SkyPilot vms.csv: the header lacks " + String.join(", ", missing)
          + " (header: " + (shown.length() > 200 ? shown.substring(0, 200) + "..." : shown) + ")");
    }
    int width = header.size();
    Set<String> read = new HashSet<>(READ);
    read.addAll(opts.columns());
    boolean lastColumnFree = !read.contains(header.get(width - 1).strip());

    Map<String, Quote> kept = new LinkedHashMap<>();
    List<String> rejected = new ArrayList<>();
    int dataRows = 0;
    int cpuRows = 0;
    int duplicates = 0;
    List<String> memory = new ArrayList<>();
    for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) {
      if (r.blank()) continue;
      dataRows++;
      int line = r.line();
      List<String> f = r.cells();
      if (f.size() > width && lastColumnFree) {
        // Azure's Generation holds an unquoted "V1,V2": the surplus belongs to that last column.
        List<String> joined = new ArrayList<>(f.subList(0, width - 1));
        joined.add(String.join(",", f.subList(width - 1, f.size())));
        f = joined;
      }
      Row row = new Row(f, col);
      String instance = row.get("InstanceType");
      String accel = row.get("AcceleratorName");
      String region = opts.regionFrom.isEmpty() || row.get(opts.regionFrom).isEmpty()
          ? region(row.get("Region"), row.get("AvailabilityZone")) : row.get(opts.regionFrom);
      String where = "line " + line + " (" + (instance.isEmpty() ? accel : instance) + (region.isEmpty() ? "" : ", " + region) + ")";
      if (f.size() != width) {
        rejected.add(where + ": " + f.size() + " fields for a " + width + "-column header");
        continue;
      }
      if (accel.isEmpty()) {
        cpuRows++;
        continue;
      }
      if (instance.isEmpty() && !opts.keepGpuOnly) {
        rejected.add(where + ": " + GPU_ONLY_REASON);
        continue;
      }
      try {
        for (Quote q : rowQuotes(row, instance, accel, region, def, catalog, opts, observedAt, source, where, rejected, memory)) {
          // The card is part of the key so that two boards a catalog files under one
          // instance type (Vast's A100_SXM4 with 40 or 80 GB) are never merged.
          String key = q.key() + '|' + q.gpuId();
          Quote old = kept.get(key);
          if (old == null) {
            kept.put(key, q);
          } else {
            duplicates++;
            if (q.price().compareTo(old.price()) < 0) kept.put(key, q);
          }
        }
      } catch (IllegalArgumentException e) {
        rejected.add(where + ": " + e.getMessage());
      }
    }
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), new ArrayList<>(kept.values()),
        rejected, observedAt, def.note());
    return new Result(vq, dataRows, cpuRows, duplicates, memory);
  }

  private static List<Quote> rowQuotes(Row row, String instance, String accel, String region, VendorDefinition def,
                                       GpuCatalog catalog, Options opts, Instant observedAt, String source,
                                       String where, List<String> rejected, List<String> memory) {
    double count = positive(row.get("AcceleratorCount"), "AcceleratorCount");
    Optional<SkyPilotGpuInfo> info = SkyPilotGpuInfo.parse(row.get("GpuInfo"));
    Gpu gpu = gpu(row, instance, accel, count, info, catalog, opts);
    BigDecimal price = price(row.get("Price"), "Price");
    BigDecimal spot;
    String spotError = null;
    try {
      spot = price(row.get("SpotPrice"), "SpotPrice");
    } catch (IllegalArgumentException e) {
      spotError = e.getMessage();
      spot = null;
    }
    if (opts.spotOnly) {
      if (spot == null && spotError == null) spot = price;
      price = null;
    }
    // Empty means no spot market; Vast writes 0.00 for the same.
    boolean spotOffer = spot != null && spot.signum() > 0;
    if (price == null) {
      if (spotError != null) throw new IllegalArgumentException("no Price, and " + spotError);
      if (!spotOffer) throw new IllegalArgumentException(spot == null ? "no Price" : "no Price, and SpotPrice "
          + spot.toPlainString() + " is not an offer (must be > 0)");
    } else if (price.signum() <= 0) {
      throw new IllegalArgumentException("Price " + price.toPlainString() + " is not an offer (must be > 0)");
    }
    if (spotError != null) rejected.add(where + ": " + spotError + "; spot quote dropped, on-demand kept");
    info.flatMap(i -> disagreement(i, gpu, count)).ifPresent(d -> memory.add(where + ": " + d));

    String offerId = instance.isEmpty() ? accel + " x" + plain(count) + " (GPU only, host VM extra)" : instance;
    double vcpus = optionalNumber(row.get("vCPUs"));
    double ram = optionalNumber(row.get("MemoryGiB"));
    String upstream = opts.upstream(row);
    String country = opts.countryFrom.isEmpty() ? "" : row.get(opts.countryFrom);
    if (!COUNTRY.matcher(country).matches()) country = "";
    List<Quote> out = new ArrayList<>(2);
    if (price != null) {
      out.add(new Quote(def.vendor(), region, offerId, gpu.id(), count, vcpus, ram, Billing.ON_DEMAND,
          new Money(price, def.currency()), PriceUnit.HOUR, observedAt, source));
    }
    if (spotOffer) {
      out.add(new Quote(def.vendor(), region, offerId, gpu.id(), count, vcpus, ram, Billing.SPOT,
          new Money(spot, def.currency()), PriceUnit.HOUR, observedAt, source));
    }
    for (int i = 0; i < out.size(); i++) {
      Quote q = out.get(i);
      if (!upstream.isEmpty()) q = q.withUpstream(upstream);
      if (!country.isEmpty()) q = q.withCountry(country);
      out.set(i, q);
    }
    return out;
  }

  /** "GpuInfo states 640 GiB per GPU ..." when the cell's memory is more than 10% off the card's. */
  private static Optional<String> disagreement(SkyPilotGpuInfo info, Gpu gpu, double count) {
    OptionalDouble stated = info.perGpuGiB(count);
    if (stated.isEmpty() || Math.abs(stated.getAsDouble() - gpu.memoryGiB()) <= 0.1 * gpu.memoryGiB()) return Optional.empty();
    return Optional.of("GpuInfo states " + plain(Math.round(stated.getAsDouble() * 10) / 10.0) + " GiB per GPU ("
        + info.memoryField(count) + "), "
        + gpu.id() + " has " + plain(gpu.memoryGiB()) + "; kept as " + plain(count) + " x " + gpu.id()
        + " (the catalog's card and count)");
  }

  private static Gpu gpu(Row row, String instance, String accel, double count, Optional<SkyPilotGpuInfo> info,
                         GpuCatalog catalog, Options opts) {
    OptionalDouble perGpuGiB = null;
    for (GpuRule o : opts.rules) {
      if (!o.match.matcher(o.column.isEmpty() ? instance : row.get(o.column)).find()) continue;
      if (o.memoryGiB != null) {
        if (perGpuGiB == null) perGpuGiB = info.map(i -> i.perGpuGiB(count)).orElse(OptionalDouble.empty());
        if (perGpuGiB.isEmpty() || Math.abs(perGpuGiB.getAsDouble() - o.memoryGiB) > 0.1 * o.memoryGiB) continue;
      }
      return o.gpu;
    }
    try {
      return catalog.resolve(accel);
    } catch (UnknownGpuException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  /** Region, or else the zone without its trailing {@code -N} (IBM's us-south-1 is in us-south). */
  static String region(String region, String zone) {
    String r = tidyRegion(region);
    if (!r.isEmpty() || zone.isEmpty()) return r;
    return ZONE_SUFFIX.matcher(zone).replaceFirst("");
  }

  /** Vast writes "State, CC, Continent" with an empty state as ", CA, NA": drop the empty parts. */
  private static String tidyRegion(String region) {
    if (region.indexOf(',') < 0) return region;
    return String.join(", ", Arrays.stream(region.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList());
  }

  private static double positive(String text, String field) {
    BigDecimal d = price(text, field);
    if (d == null) throw new IllegalArgumentException("no " + field);
    double v = d.doubleValue();
    if (!Double.isFinite(v) || v <= 0) throw new IllegalArgumentException(field + " '" + text + "' must be > 0");
    return v;
  }

  private static double optionalNumber(String text) {
    BigDecimal d = Decimals.of(text);
    double v = d == null ? 0 : d.doubleValue();
    return Double.isFinite(v) && v > 0 ? v : 0;
  }

  /** The cell's decimal, or null when it is empty; a cell that is not a number fails the row. */
  private static BigDecimal price(String text, String field) {
    if (text.isEmpty()) return null;
    BigDecimal d = Decimals.of(text);
    if (d == null) throw new IllegalArgumentException(Decimals.notANumber(field, text));
    return d;
  }

  private static String plain(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  /** One data row, read by column name; a column the file lacks reads as "". */
  private record Row(List<String> fields, Map<String, Integer> col) {
    String get(String name) {
      Integer i = col.get(name);
      return i == null || i >= fields.size() ? "" : fields.get(i).strip();
    }
  }

  /** One {@code gpuByInstanceType} entry; column "" is InstanceType. */
  private record GpuRule(Pattern match, String column, Gpu gpu, Double memoryGiB) {}

  /** The kind's own YAML keys, validated once; "" for a column not configured. */
  private record Options(boolean keepGpuOnly, List<GpuRule> rules, String upstreamColumn, String upstreamBefore,
                         String regionFrom, String countryFrom, boolean spotOnly) {

    /** Columns these options read, beyond the usual ones. */
    List<String> columns() {
      List<String> all = new ArrayList<>(List.of(upstreamColumn, regionFrom, countryFrom));
      rules.forEach(r -> all.add(r.column));
      return all.stream().filter(c -> !c.isEmpty()).toList();
    }

    /** The cloud a reseller's row is resold from, or "" when the vendor sells its own machines. */
    String upstream(Row row) {
      if (upstreamColumn.isEmpty()) return "";
      String cell = row.get(upstreamColumn);
      if (upstreamBefore.isEmpty()) return cell;
      int at = cell.indexOf(upstreamBefore);
      return at > 0 ? cell.substring(0, at) : "";
    }

    static Options from(VendorDefinition def, GpuCatalog catalog) {
      JsonObject c = def.config();
      String gpuOnly = c.getValue("gpuOnlyRows", "reject").toString().strip().toLowerCase(Locale.ROOT);
      if (!gpuOnly.equals("reject") && !gpuOnly.equals("keep")) {
        VendorDefinition.fail(def.where(), "gpuOnlyRows", "must be reject or keep, got '" + gpuOnly + "'");
      }
      List<GpuRule> rules = new ArrayList<>();
      Object raw = c.getValue("gpuByInstanceType");
      if (raw != null && !(raw instanceof JsonArray)) {
        VendorDefinition.fail(def.where(), "gpuByInstanceType", "must be a list of {match, gpu, memoryGiB}");
      }
      JsonArray list = raw == null ? new JsonArray() : (JsonArray) raw;
      for (int i = 0; i < list.size(); i++) {
        String at = "gpuByInstanceType[" + i + "]";
        if (!(list.getValue(i) instanceof JsonObject o)) {
          VendorDefinition.fail(def.where(), at, "must be a map {match, gpu, memoryGiB}");
          continue;
        }
        String match = o.getString("match", "");
        if (match.isBlank()) VendorDefinition.fail(def.where(), at + ".match", "is required (a regex)");
        Pattern p = null;
        try {
          p = Pattern.compile(match, Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
          VendorDefinition.fail(def.where(), at + ".match", "is not a valid regex: " + e.getDescription());
        }
        String id = o.getString("gpu", "");
        Optional<Gpu> gpu = catalog.byId(id);
        if (gpu.isEmpty()) VendorDefinition.fail(def.where(), at + ".gpu", "'" + id + "' is not a catalog id in config/gpus.yaml");
        Object mem = o.getValue("memoryGiB");
        Double memoryGiB = null;
        if (mem != null) {
          try {
            memoryGiB = Double.parseDouble(mem.toString());
          } catch (NumberFormatException e) {
            VendorDefinition.fail(def.where(), at + ".memoryGiB", "must be a number, got '" + mem + "'");
          }
        }
        rules.add(new GpuRule(p, o.getString("column", "").strip(), gpu.get(), memoryGiB));
      }
      String upstreamColumn = "";
      String upstreamBefore = "";
      Object up = c.getValue("upstream");
      if (up != null) {
        if (!(up instanceof JsonObject u) || u.getString("column", "").isBlank()) {
          VendorDefinition.fail(def.where(), "upstream", "must be a map {column, before}: the column naming the cloud a row is resold from");
        } else {
          upstreamColumn = u.getString("column").strip();
          upstreamBefore = String.valueOf(u.getValue("before", ""));
        }
      }
      Object spotOnly = c.getValue("spotOnly", false);
      if (!(spotOnly instanceof Boolean)) VendorDefinition.fail(def.where(), "spotOnly", "must be true or false, got '" + spotOnly + "'");
      return new Options(gpuOnly.equals("keep"), List.copyOf(rules), upstreamColumn, upstreamBefore,
          c.getString("regionFrom", "").strip(), c.getString("countryFrom", "").strip(), Boolean.TRUE.equals(spotOnly));
    }
  }
}
