package dev.gpurent.adapter;

import static dev.gpurent.adapter.AwsPriceListFormat.LOCATIONS;
import static dev.gpurent.adapter.AwsPriceListFormat.NON_GPU_FAMILIES;
import static dev.gpurent.adapter.AwsPriceListFormat.number;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an AWS offer file says of its GPU instances, whatever its syntax ({@link AwsPriceListFormat}
 * reads JSON and CSV into it): the products kept, their on-demand and reserved prices (the cheapest
 * purchase option of a term), and why the rest were skipped or refused.
 */
abstract class AwsOfferPricing {

  /** A GPU instance product kept for pricing. */
  record Kept(String sku, String instanceType, String region, Gpu gpu, double gpuCount, double vcpus, double ramGiB) {}

  /** One price dimension of a term. */
  record Dim(String unit, String currency, BigDecimal price, String description) {}

  /** Products or rows skipped for one reason: how many, and the first one. */
  private static final class Skip {
    int count;
    String first;
  }

  /** A reserved-term quote waiting for the cheapest option of its (sku, term) to be known. */
  private record Reserved(Quote quote, BigDecimal perHour, String where) {}

  private static final BigDecimal HOURS_PER_YEAR = PriceUnit.YEAR.hours();

  final VendorDefinition def;
  final GpuCatalog catalog;
  final Map<String, String> families;
  final String cite;
  final Instant observedAt;
  Instant published;
  final Map<String, Kept> kept = new HashMap<>();
  final Set<String> refused = new HashSet<>();
  final List<Quote> quotes = new ArrayList<>();
  final Set<String> quoted = new HashSet<>();
  final Map<String, Reserved> reserved = new LinkedHashMap<>();
  final List<String> rejected = new ArrayList<>();
  final Map<String, Skip> skips = new LinkedHashMap<>();
  String unit = "product";

  AwsOfferPricing(VendorDefinition def, GpuCatalog catalog, Map<String, String> families, Instant fetchedAt, String cite) {
    this.def = def;
    this.catalog = catalog;
    this.families = families;
    this.observedAt = fetchedAt;
    this.cite = cite;
  }

  /** Decides whether a product is a GPU instance we price; records why not. */
  Kept evaluate(String sku, Map<String, String> a, String where) {
    String family = a.getOrDefault("productfamily", "");
    String type = a.getOrDefault("instancetype", "");
    String region = a.get("regioncode");
    if (region == null) region = LOCATIONS.getOrDefault(a.getOrDefault("location", ""), a.getOrDefault("location", ""));
    String at = where.endsWith(")") ? where
        : where + " (" + (type.isEmpty() ? "productFamily '" + family + "'" : type) + ", " + region + ")";
    if (!family.equals("Compute Instance")) {
      skip("productFamily is not 'Compute Instance'", at);
      return null;
    }
    int dot = type.indexOf('.');
    String fam = (dot < 0 ? type : type.substring(0, dot)).toLowerCase(Locale.ROOT);
    String gpuText = a.get("gpu");
    BigDecimal gpus = Decimals.of(gpuText);
    if (NON_GPU_FAMILIES.containsKey(fam)) {
      skip("accelerator is not a GPU (Inferentia, Trainium, Gaudi, FPGA or video transcoder)", at);
      return null;
    }
    boolean gpu = (gpus != null && gpus.signum() > 0) || families.containsKey(fam)
        || "GPU instance".equalsIgnoreCase(a.get("instancefamily"));
    if (!gpu) {
      skip("not a GPU instance", at);
      return null;
    }
    String os = a.getOrDefault("operatingsystem", "");
    if (!os.equals("Linux")) {
      skip("operatingSystem is not Linux", at + " operatingSystem '" + os + "'");
      return null;
    }
    String tenancy = a.getOrDefault("tenancy", "");
    if (!tenancy.equals("Shared")) {
      skip("tenancy is not Shared", at + " tenancy '" + tenancy + "'");
      return null;
    }
    String capacity = a.getOrDefault("capacitystatus", "Used");
    if (!capacity.equals("Used")) {
      skip("capacitystatus is not Used (capacity reservation accounting)", at + " capacitystatus '" + capacity + "'");
      return null;
    }
    String sw = a.getOrDefault("preinstalledsw", "NA");
    if (!sw.equals("NA")) {
      skip("preInstalledSw is not NA", at + " preInstalledSw '" + sw + "'");
      return null;
    }
    String market = a.getOrDefault("marketoption", "OnDemand");
    if (market.equals("CapacityBlock")) {
      skip("marketoption CapacityBlock: capacity blocks are booked ahead for fixed dates and priced outside "
          + "these terms (their OnDemand dimension is $0.00), not an offer", at);
      return null;
    }
    if (!market.equals("OnDemand")) {
      skip("marketoption is not OnDemand", at + " marketoption '" + market + "'");
      return null;
    }
    String gpuId = families.get(fam);
    if (gpuId == null) {
      return refuse(sku, at + ": no GPU model known for instance family '" + fam + "' (gpu attribute "
          + (gpuText == null ? "absent" : "'" + gpuText + "'") + "); add it to gpuFamilies");
    }
    Optional<Gpu> card = catalog.find(gpuId);
    if (card.isEmpty()) return refuse(sku, at + ": unknown GPU '" + gpuId + "' for instance family '" + fam + "'");
    if (gpus == null || gpus.signum() <= 0) {
      return refuse(sku, at + ": GPU count missing (gpu attribute " + (gpuText == null ? "absent" : "'" + gpuText + "'") + ")");
    }
    Kept k = new Kept(sku, type, region, card.get(), gpus.doubleValue(), number(a.get("vcpu")), number(a.get("memory")));
    kept.put(sku, k);
    return k;
  }

  private Kept refuse(String sku, String why) {
    refused.add(sku);
    rejected.add(why);
    return null;
  }

  void onDemand(Kept k, String where, List<Dim> dims) {
    List<Dim> hourly = dims.stream().filter(d -> d.unit().equalsIgnoreCase("Hrs")).toList();
    if (hourly.size() != 1) {
      rejected.add(where + ": expected one hourly (Hrs) price dimension, found " + hourly.size() + " in "
          + dims.stream().map(Dim::unit).toList());
      return;
    }
    Dim d = hourly.get(0);
    if (d.price().signum() <= 0) {
      rejected.add(where + ": price " + d.price().toPlainString() + " " + d.currency() + " is not an offer (" + d.description() + ")");
      return;
    }
    add(where, quote(k, Billing.ON_DEMAND, new Money(d.price(), d.currency()), PriceUnit.HOUR));
  }

  /** A reserved term: hourly rate, upfront fee or both; the cheapest option per (sku, term) wins. */
  void reserved(Kept k, String where, Map<String, String> a, List<Dim> dims) {
    String cls = a.getOrDefault("offeringclass", "standard");
    String lease = a.getOrDefault("leasecontractlength", "");
    String option = a.getOrDefault("purchaseoption", "");
    if (!cls.equalsIgnoreCase("standard")) {
      skip("OfferingClass is not standard (convertible reservations not modelled)", where + " " + lease + " " + option);
      return;
    }
    Billing billing = switch (lease) {
      case "1yr" -> Billing.YEARLY;
      case "3yr" -> Billing.THREE_YEARS;
      default -> null;
    };
    if (billing == null) {
      rejected.add(where + ": LeaseContractLength '" + lease + "' is neither 1yr nor 3yr");
      return;
    }
    BigDecimal hourly = BigDecimal.ZERO;
    BigDecimal upfront = BigDecimal.ZERO;
    String currency = null;
    for (Dim d : dims) {
      if (d.unit().equalsIgnoreCase("Hrs")) hourly = hourly.add(d.price());
      else if (d.unit().equalsIgnoreCase("Quantity")) upfront = upfront.add(d.price());
      else {
        rejected.add(where + ": unknown price unit '" + d.unit() + "' in a reserved term");
        return;
      }
      currency = d.currency();
    }
    if (currency == null || (hourly.signum() <= 0 && upfront.signum() <= 0)) {
      rejected.add(where + ": reserved " + lease + " " + option + " has no price above 0");
      return;
    }
    Quote q;
    BigDecimal perHour;
    if (upfront.signum() == 0) {
      // No Upfront: the hourly rate is paid for every hour of the term.
      q = quote(k, billing, new Money(hourly, currency), PriceUnit.HOUR);
      perHour = hourly;
    } else {
      // All / Partial Upfront: the fee spread over the term's years plus the hourly rate.
      BigDecimal years = BigDecimal.valueOf(billing.commitmentMonths() / 12);
      BigDecimal perYear = upfront.divide(years, 10, RoundingMode.HALF_UP).add(hourly.multiply(HOURS_PER_YEAR));
      q = quote(k, billing, new Money(perYear, currency), PriceUnit.YEAR).withUpfront(new Money(upfront, currency));
      perHour = perYear.divide(HOURS_PER_YEAR, 10, RoundingMode.HALF_UP);
    }
    String key = k.sku() + "|" + billing.wire();
    Reserved old = reserved.get(key);
    Reserved now = new Reserved(q, perHour, where + " " + option);
    if (old == null || perHour.compareTo(old.perHour()) < 0) {
      reserved.put(key, now);
      if (old != null) skip("a cheaper standard purchase option of the same term was kept", old.where());
    } else {
      skip("a cheaper standard purchase option of the same term was kept", now.where());
    }
  }

  private Quote quote(Kept k, Billing billing, Money price, PriceUnit unit) {
    return new Quote(def.vendor(), k.region(), k.instanceType(), k.gpu().id(), k.gpuCount(), k.vcpus(), k.ramGiB(),
        billing, price, unit, observedAt, cite);
  }

  private void add(String where, Quote q) {
    if (!quoted.add(q.key())) {
      rejected.add(where + ": a second " + q.billing() + " price for " + q.offerId() + " in " + q.region() + " ignored");
      return;
    }
    quotes.add(q);
  }

  private void skip(String reason, String example) {
    Skip s = skips.computeIfAbsent(reason, r -> new Skip());
    if (s.count++ == 0) s.first = example;
  }

  void publication(String text) {
    try {
      published = Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      rejected.add("publicationDate '" + text + "' is not an ISO instant; the prices are dated by the fetch");
    }
  }

  VendorQuotes result() {
    for (Reserved r : reserved.values()) add(r.where(), r.quote());
    // publicationDate may come after the products in a file, so prices are dated at the end
    List<Quote> dated = published == null ? quotes : quotes.stream().map(q -> q.withPriceDate(published)).toList();
    List<String> all = new ArrayList<>(rejected);
    skips.forEach((reason, s) -> all.add("skipped " + s.count + " " + unit + (s.count == 1 ? "" : "s") + ": " + reason
        + " (first: " + s.first + ")"));
    return new VendorQuotes(def.vendor(), def.displayName(), def.terms(), dated, all, observedAt, def.note());
  }
}
