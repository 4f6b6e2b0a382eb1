package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Kind {@code market-observations}: the daily multi-provider GPU price observations CSV of
 * cherielilili/gpu-pricing-tracker ({@code data/observations.csv}), with the header
 * {@code date,provider,gpu_model,gpu_count,region,rental_type,price_min_usd,price_median_usd,
 * price_max_usd,n_offers,source_url,fetched_at} (CRLF line ends; columns found by name). One row
 * is the min / median / max USD-per-hour of the offers one provider listed for one GPU model,
 * GPU count, region and rental type ({@code on_demand} or {@code spot}) on one day, from
 * getdeploying.com or the provider's own API or page.
 *
 * <p><b>Price basis: the file changed it on 2026-02-19.</b> Up to 2026-02-18 a row's prices are
 * for the WHOLE {@code gpu_count} bundle (lambda H100_SXM on 2026-02-11: 3.29 for 1 GPU, 23.92
 * for 8). From 2026-02-19 they are per GPU (lambda H100_SXM x8: 23.92 until 02-17, 27.52 on
 * 02-18, 3.44 from 02-19; vultr H100_SXM x8: 2.99 since 02-19; runpod A100_SXM_80GB 1.39 for 1,
 * 2, 4 and 8 GPUs). Over the recorded getdeploying rows that have a 1-GPU row beside an n-GPU one
 * on the same day, 1,058 of 1,180 n-GPU medians before 2026-02-19 are about n times the 1-GPU
 * median, and 3,990 of 4,174 from 2026-02-19 on are about equal to it (the rest are volume
 * discounts and market noise). The source README's "price_per_gpu_hour" is therefore right only
 * from 2026-02-19. Rows dated on or after {@code perGpuFrom} (YAML key, default 2026-02-19;
 * "never" reads every row as a bundle price) are read as per-GPU prices and multiplied by
 * {@code gpu_count} for a quote, which always prices the whole offer. 2026-02-18 is a mixed day:
 * its min column already looks per GPU (lambda H100_SXM x8: min 3.44, median 27.52) while its
 * median and max are bundle prices; it is read as a bundle day.
 *
 * <p>As a quote source for ONE provider (YAML key {@code provider}, matched case-insensitively):
 * the latest date present for that provider, one quote per (gpu_model, gpu_count, region,
 * rental_type) at the day's MEDIAN (on_demand: {@link Billing#ON_DEMAND}, spot:
 * {@link Billing#SPOT}; unit {@link PriceUnit#HOUR}), offer id {@code "<gpu_model> x<count>"},
 * region as written except "global" and "any", which become "" (no region), dated (priceDate)
 * by that observation day (00:00 UTC) and observed at the fetch. Rows of that provider and day that cannot be read (unknown GPU, bad count,
 * price or rental type, a repeated key, a vendor's placeholder by the rule of {@link Placeholders}:
 * RunPod's "any" 0.50 MI300X) are rejected with their reason; other days and
 * providers are not this vendor's business. {@link #parseAll} gives every row of the file, for
 * price history.
 */
public final class MarketObservationsFormat {

  public static final String KIND = "market-observations";
  /** The first day whose prices are per GPU rather than per bundle (see the class comment). */
  public static final LocalDate PER_GPU_FROM = LocalDate.of(2026, 2, 19);

  static final List<String> COLUMNS = List.of("date", "provider", "gpu_model", "gpu_count", "region", "rental_type",
      "price_min_usd", "price_median_usd", "price_max_usd", "n_offers");

  /** Whether a row's prices are for the whole bundle or for each GPU of it. */
  public enum Basis { BUNDLE, PER_GPU }

  /**
   * One row of the file, as published.
   *
   * @param line      the row's line number in the file (header = 1)
   * @param gpuModel  the file's spelling, e.g. "H100_SXM"
   * @param gpuId     the catalog id it resolves to
   * @param billing   ON_DEMAND for on_demand, SPOT for spot
   * @param min       price_min_usd as written, per {@link #basis()}
   * @param median    price_median_usd as written, per {@link #basis()}
   * @param max       price_max_usd as written, per {@link #basis()}
   * @param basis     what the three prices cover
   */
  public record Observation(int line, LocalDate date, String provider, String gpuModel, String gpuId, int gpuCount,
                            String region, Billing billing, BigDecimal min, BigDecimal median, BigDecimal max,
                            int nOffers, String sourceUrl, Basis basis) {

    /** A price of this row for the whole gpuCount bundle. */
    public BigDecimal forBundle(BigDecimal price) {
      return basis == Basis.PER_GPU ? price.multiply(BigDecimal.valueOf(gpuCount)) : price;
    }

    /** A price of this row per GPU (bundle prices divided exactly where they divide, else to 10 places). */
    public BigDecimal perGpu(BigDecimal price) {
      if (basis == Basis.PER_GPU) return price;
      BigDecimal n = BigDecimal.valueOf(gpuCount);
      try {
        return price.divide(n);
      } catch (ArithmeticException e) {
        return price.divide(n, 10, java.math.RoundingMode.HALF_UP);
      }
    }

    public BigDecimal medianForBundle() {
      return forBundle(median);
    }
  }

  /**
   * Every row of a file.
   *
   * @param observations the rows read, in file order
   * @param rejected     the rows refused, each with its line and reason
   * @param dataRows     non-blank rows after the header
   */
  public record Parsed(List<Observation> observations, List<String> rejected, int dataRows) {}

  /**
   * What one provider's quotes came from.
   *
   * @param vendorQuotes the quotes kept and this provider's latest-day rows rejected
   * @param latestDate   the provider's latest date in the file, or null when it has no row
   * @param providerRows rows of this provider over all dates (read or rejected)
   * @param dataRows     rows in the whole file
   */
  public record Result(VendorQuotes vendorQuotes, LocalDate latestDate, int providerRows, int dataRows)
      implements ParsedPayload {}

  private MarketObservationsFormat() {}

  /** Fails fast on this kind's YAML keys {@code provider} and {@code perGpuFrom}. */
  static void check(VendorDefinition def) {
    provider(def);
    perGpuFrom(def);
  }

  /** The YAML key {@code provider}, required. */
  static String provider(VendorDefinition def) {
    String p = def.config().getString("provider");
    if (p == null || p.isBlank()) {
      VendorDefinition.fail(def.where(), "provider", "is required: the provider column's value to quote (e.g. crusoe)");
    }
    return p.trim();
  }

  /** The YAML key {@code perGpuFrom}: a date, or "never"; default {@link #PER_GPU_FROM}. */
  static LocalDate perGpuFrom(VendorDefinition def) {
    Object v = def.config().getValue("perGpuFrom");
    if (v == null) return PER_GPU_FROM;
    String s = v.toString().trim();
    if (s.equalsIgnoreCase("never")) return LocalDate.MAX;
    try {
      return LocalDate.parse(s);
    } catch (DateTimeParseException e) {
      VendorDefinition.fail(def.where(), "perGpuFrom", "must be a date (YYYY-MM-DD) or never, got '" + s + "'");
      return null;
    }
  }

  /** Reads the file for the definition's provider, its quotes observed at {@code fetchedAt}; pure. */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    provider(def);
    return slice(feed(payload), payload.origin(), def, catalog, fetchedAt);
  }

  /** The file's rows by provider, read once for every vendor that quotes one of them ({@link SharedFeeds}). */
  static ProviderFeed feed(Payload payload) {
    try (Reader in = payload.reader()) {
      return feed(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + payload.origin(), e);
    }
  }

  private static ProviderFeed feed(Reader in) {
    return ProviderFeed.read(in, "empty observations file: no header", (header, col) -> {
      List<String> missing = COLUMNS.stream().filter(c -> !col.containsKey(c)).toList();
      if (!missing.isEmpty()) {
        throw new IllegalArgumentException("not a market observations CSV: header lacks " + String.join(", ", missing)
            + " (found: " + String.join(",", header).strip() + ")");
      }
    });
  }

  /** The definition's provider's quotes in a file already read ({@link #feed}), cited as {@code origin}; pure. */
  static Result slice(ProviderFeed feed, String origin, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    String provider = provider(def);
    String cite = KIND + ":" + origin;
    Parsed all = read(feed, feed.rows(provider.toLowerCase(Locale.ROOT)), catalog, perGpuFrom(def));
    // the provider's latest date, over its rows whose date could be read (rejected ones too)
    LocalDate latest = null;
    for (Observation o : all.observations()) if (latest == null || o.date().isAfter(latest)) latest = o.date();
    for (String r : all.rejected()) {
      LocalDate d = rejectedDate(r);
      if (d != null && (latest == null || d.isAfter(latest))) latest = d;
    }
    List<Quote> quotes = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    if (latest != null) {
      Instant observedOn = latest.atStartOfDay(ZoneOffset.UTC).toInstant();
      for (Observation o : all.observations()) {
        if (!o.date().equals(latest)) continue;
        String region = o.region().equalsIgnoreCase("global") || o.region().equalsIgnoreCase("any") ? "" : o.region();
        String offer = o.gpuModel() + " x" + o.gpuCount();
        Quote q = new Quote(def.vendor(), region, offer, o.gpuId(), o.gpuCount(), 0, 0, o.billing(),
            new Money(o.medianForBundle(), "USD"), PriceUnit.HOUR, fetchedAt, cite).withPriceDate(observedOn);
        if (!keys.add(q.key())) {
          rejected.add("line " + o.line() + " (" + o.date() + " " + offer + " " + o.region() + "): a second "
              + o.billing() + " row for the same offer and region ignored");
          continue;
        }
        quotes.add(q);
      }
      String day = latest.toString();
      for (String r : all.rejected()) if (day.equals(String.valueOf(rejectedDate(r)))) rejected.add(r);
    }
    int providerRows = all.observations().size() + all.rejected().size();
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, rejected, fetchedAt, def.note());
    return new Result(vq, latest, providerRows, all.dataRows());
  }

  /** The date in a rejection written by {@link #read} ("line N (YYYY-MM-DD ...): ..."), or null. */
  private static LocalDate rejectedDate(String rejection) {
    int open = rejection.indexOf('(');
    if (open < 0 || rejection.length() < open + 11) return null;
    try {
      return LocalDate.parse(rejection.substring(open + 1, open + 11));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Every row of the file, prices read with the default {@link #PER_GPU_FROM}; rejected rows are left out. */
  public static List<Observation> parseAll(Path csv, GpuCatalog catalog) {
    return readAll(csv, catalog, PER_GPU_FROM).observations();
  }

  /** Every row of the file with the rows it refused, each with its reason. */
  public static Parsed readAll(Path csv, GpuCatalog catalog, LocalDate perGpuFrom) {
    try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
      return readAll(r, catalog, perGpuFrom);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + csv, e);
    }
  }

  public static Parsed readAll(Reader in, GpuCatalog catalog, LocalDate perGpuFrom) {
    ProviderFeed feed = feed(in);
    return read(feed, feed.rows(), catalog, perGpuFrom);
  }

  /** Reads {@code rows} of the file {@code feed}; the file's other rows are passed over unchecked. */
  private static Parsed read(ProviderFeed feed, List<CsvRows.Row> rows, GpuCatalog catalog, LocalDate perGpuFrom) {
    List<Observation> out = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    Map<String, Optional<Gpu>> gpus = new HashMap<>();
    List<String> header = feed.header();
    Map<String, Integer> col = feed.columns();
    Integer srcCol = col.get("source_url");
    for (CsvRows.Row r : rows) {
      int lineNo = r.line();
      List<String> f = r.cells();
      String provider = field(f, col, "provider");
      String dateText = field(f, col, "date");
      String model = field(f, col, "gpu_model");
      String where = "line " + lineNo + " (" + dateText + " " + provider + " " + model + ")";
      if (f.size() < header.size()) {
        rejected.add(where + ": " + f.size() + " fields, the header has " + header.size());
        continue;
      }
      try {
        LocalDate date = LocalDate.parse(dateText);
        Optional<Gpu> gpu = gpus.computeIfAbsent(model, catalog::find);
        if (gpu.isEmpty()) throw new IllegalArgumentException("unknown GPU '" + model + "'");
        int count = Integer.parseInt(field(f, col, "gpu_count"));
        if (count <= 0) throw new IllegalArgumentException("gpu_count " + count + " is not above zero");
        String type = field(f, col, "rental_type");
        Billing billing = switch (type) {
          case "on_demand" -> Billing.ON_DEMAND;
          case "spot" -> Billing.SPOT;
          default -> throw new IllegalArgumentException("rental_type '" + type + "' is neither on_demand nor spot");
        };
        BigDecimal min = price(f, col, "price_min_usd");
        BigDecimal median = price(f, col, "price_median_usd");
        BigDecimal max = price(f, col, "price_max_usd");
        if (median.signum() <= 0) throw new IllegalArgumentException("price_median_usd " + median.toPlainString() + " is not an offer");
        if (min.compareTo(median) > 0 || median.compareTo(max) > 0) {
          throw new IllegalArgumentException("prices out of order: min " + min.toPlainString() + ", median "
              + median.toPlainString() + ", max " + max.toPlainString());
        }
        String nText = field(f, col, "n_offers");
        int n = nText.isEmpty() ? 0 : Integer.parseInt(nText);
        Observation o = new Observation(lineNo, date, provider, model, gpu.get().id(), count, field(f, col, "region"), billing,
            min, median, max, n, srcCol == null || srcCol >= f.size() ? "" : f.get(srcCol).trim(),
            date.isBefore(perGpuFrom) ? Basis.BUNDLE : Basis.PER_GPU);
        if (Placeholders.isRunPod(provider)) {
          // the tracker copies RunPod's API without its cloud flags: the value rule of the RunPod adapter applies
          Optional<String> placeholder = Placeholders.runPod("price_median_usd", null, null, billing, o.perGpu(median));
          if (placeholder.isPresent()) throw new IllegalArgumentException("region '" + o.region() + "': " + placeholder.get());
        }
        out.add(o);
      } catch (DateTimeParseException e) {
        rejected.add(where + ": date '" + dateText + "' is not YYYY-MM-DD");
      } catch (NumberFormatException e) {
        rejected.add(where + ": a count or price is not a number (" + e.getMessage() + ")");
      } catch (IllegalArgumentException e) {
        rejected.add(where + ": " + e.getMessage());
      }
    }
    return new Parsed(out, rejected, feed.rows().size());
  }

  private static BigDecimal price(List<String> f, Map<String, Integer> col, String name) {
    String s = field(f, col, name);
    BigDecimal d = Decimals.of(s);
    if (d == null) throw new IllegalArgumentException(Decimals.notANumber(name, s));
    return d;
  }

  private static String field(List<String> f, Map<String, Integer> col, String name) {
    int i = col.get(name);
    return i < f.size() ? f.get(i).trim() : "";
  }
}
