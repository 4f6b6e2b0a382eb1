package dev.gpurent.adapter;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quote.VendorTerms;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One vendor, as one YAML file in {@code adapters/} describes it: which adapter kind reads its
 * prices, from where, how often, in which currency, and its storage and network terms. The
 * whole file is kept as {@link #config()} for the adapter's own keys.
 *
 * @param reference true for a price sheet that is not a vendor one can sign with (the guide's):
 *                  never ranked unless a scenario asks for it, shown beside the plans
 * @param where the file it came from, for messages and for resolving relative paths
 */
public record VendorDefinition(String vendor, String displayName, String kind, String currency, Duration refresh,
                               VendorTerms terms, String note, boolean enabled, boolean reference, JsonObject config,
                               Path where) {

  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]*");

  /** Reads and validates one vendor file. */
  public static VendorDefinition load(Path file) {
    Object root = YamlFiles.load(file);
    if (!(root instanceof Map<?, ?> map)) throw new IllegalArgumentException(file + ": expected a vendor definition (a map)");
    @SuppressWarnings("unchecked") JsonObject json = new JsonObject((Map<String, Object>) map);
    return from(json, file);
  }

  public static VendorDefinition from(JsonObject c, Path where) {
    String vendor = required(c, "vendor", where);
    if (!ID.matcher(vendor).matches()) fail(where, "vendor", "must be lowercase letters, digits and dashes, got '" + vendor + "'");
    String kind = required(c, "kind", where);
    String currency = required(c, "currency", where).toUpperCase(Locale.ROOT);
    if (!currency.matches("[A-Z]{3}")) fail(where, "currency", "must be a 3-letter ISO code");
    Duration refresh = duration(where, c.getValue("refresh", "6h").toString());
    JsonObject t = c.getJsonObject("terms");
    if (t == null) fail(where, "terms", "is required (storagePerGbMonth, egressPerGb, ingressPerGb, loadBalancerPerMonth, source)");
    VendorTerms terms = terms(t, currency, where);
    asOf(c.getValue("asOf"), where);
    return new VendorDefinition(vendor, c.getString("name", vendor), kind, currency, refresh, terms,
        c.getString("note", ""), c.getBoolean("enabled", true), c.getBoolean("reference", false), c, where);
  }

  /**
   * The {@code config/regions.yaml} table that places this vendor's regions in countries: the
   * YAML key {@code regions} (several vendors share one, e.g. {@code aws}), default the vendor id.
   */
  public String regionTable() {
    return config.getString("regions", vendor);
  }

  /**
   * The YAML key {@code asOf}: the date of this vendor's prices where its payload states none
   * (a date, "2025-06-21", read as 00:00 UTC, or an ISO instant); empty when the key is absent.
   */
  public Optional<Instant> asOf() {
    return Optional.ofNullable(asOf(config.getValue("asOf"), where));
  }

  private static Instant asOf(Object v, Path where) {
    if (v == null) return null;
    String s = v.toString().trim();
    try {
      return s.length() == 10 ? LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(s);
    } catch (DateTimeParseException e) {
      fail(where, "asOf", "must be a date (YYYY-MM-DD) or an ISO instant, got '" + s + "'");
      return null;
    }
  }

  private static VendorTerms terms(JsonObject t, String vendorCurrency, Path where) {
    String cur = t.getString("currency", vendorCurrency).toUpperCase(Locale.ROOT);
    String source = t.getString("source", "");
    List<VendorTerms.EgressTier> tiers = new ArrayList<>();
    ServicePrice egress;
    JsonArray tierList = t.getJsonArray("egressTiers");
    if (tierList != null) {
      boolean anyPaid = false;
      for (int i = 0; i < tierList.size(); i++) {
        JsonObject tier = tierList.getJsonObject(i);
        Object upTo = tier.getValue("upToGb");
        String at = "terms.egressTiers[" + i + "]";
        Money perGb = parseMoney(tier.getValue("perGb"), cur, where, at + ".perGb");
        anyPaid |= perGb.isPositive();
        if (upTo == null && i < tierList.size() - 1) fail(where, at + ".upToGb", "only the last tier may be unbounded");
        tiers.add(new VendorTerms.EgressTier(upTo == null ? null : decimal(upTo, where, at + ".upToGb"), perGb));
      }
      if (tiers.isEmpty()) fail(where, "terms.egressTiers", "needs at least one tier");
      if (tiers.get(tiers.size() - 1).upToGb() != null) fail(where, "terms.egressTiers", "the last tier must have no upToGb");
      if (!anyPaid) fail(where, "terms.egressTiers", "every tier is 0: write egressPerGb: {price: 0, source: <where the vendor says egress is free>}");
      egress = ServicePrice.priced(tiers.get(0).perGb(), "");
    } else {
      egress = service(t, "egressPerGb", cur, where);
      if (egress.isPriced()) tiers.add(new VendorTerms.EgressTier(null, egress.price()));
    }
    BigDecimal discount = decimal(t.getValue("discount", 1), where, "terms.discount");
    ServicePrice storage = service(t, "storagePerGbMonth", cur, where);
    ServicePrice ingress = service(t, "ingressPerGb", cur, where);
    ServicePrice lb = service(t, "loadBalancerPerMonth", cur, where);
    // Migration fees and bandwidth are optional: most price lists state none, and then none is charged or assumed.
    ServicePrice in = t.getValue("migrationInPerGb") == null ? ServicePrice.unknown("") : service(t, "migrationInPerGb", cur, where);
    ServicePrice out = t.getValue("migrationOutPerGb") == null ? ServicePrice.unknown("") : service(t, "migrationOutPerGb", cur, where);
    double mbps = bandwidth(t.getValue("bandwidthMbps"), where);
    try {
      return new VendorTerms(cur, storage, egress, tiers, ingress, lb, t.getString("granularity", "hour"), discount, source,
          in, out, mbps);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": terms: " + e.getMessage());
    }
  }

  /**
   * One service's term: a price ({@code 0.023}, or {@code {price: 0.023, source: ...}}), {@code none}
   * (not sold) or {@code unknown} (or {@code {status: none, source: ...}}). A bare 0 is refused: free
   * must be said with the source that says so, or every missing product would bill as free.
   * {@code {price: 0.15, typical: true}} marks a typical or estimated figure, not the vendor's stated
   * price: billed, but the plan that uses it is not complete.
   */
  private static ServicePrice service(JsonObject terms, String field, String currency, Path where) {
    String at = "terms." + field;
    Object v = terms.getValue(field);
    if (v == null) {
      fail(where, at, "is required: a price, none (not sold) or unknown");
    }
    if (v instanceof JsonObject m) {
      String src = m.getString("source", "");
      if (m.containsKey("price")) {
        Money price = parseMoney(m.getValue("price"), currency, where, at + ".price");
        if (!price.isPositive() && src.isBlank()) fail(where, at + ".source", "a price of 0 needs the source that says it is free");
        Object typical = m.getValue("typical", false);
        if (!(typical instanceof Boolean)) fail(where, at + ".typical", "must be true or false");
        return (Boolean) typical ? ServicePrice.typical(price, src) : ServicePrice.priced(price, src);
      }
      if (m.containsKey("typical")) fail(where, at + ".typical", "only a price can be typical");
      Object status = m.getValue("status");
      if (status == null) fail(where, at, "give price or status (none, unknown)");
      return availability(status.toString(), src, where, at + ".status");
    }
    if (v instanceof String text && !text.isBlank() && !Character.isDigit(text.trim().charAt(0)) && !text.trim().startsWith(".")) {
      return availability(text, "", where, at);
    }
    Money price = parseMoney(v, currency, where, at);
    if (!price.isPositive()) {
      fail(where, at, "0 means free: write {price: 0, source: <where the vendor says it is free>}, or none if it is not sold");
    }
    return ServicePrice.priced(price, "");
  }

  /** {@code bandwidthMbps}: a positive number, or none / unknown / absent for "not stated" (0). */
  private static double bandwidth(Object v, Path where) {
    if (v == null) return 0;
    String text = v.toString().trim();
    if (text.equalsIgnoreCase("none") || text.equalsIgnoreCase("unknown")) return 0;
    BigDecimal d = decimal(v, where, "terms.bandwidthMbps");
    if (d.signum() <= 0) fail(where, "terms.bandwidthMbps", "must be > 0 Mbit/s, or unknown");
    return d.doubleValue();
  }

  private static ServicePrice availability(String word, String source, Path where, String at) {
    ServicePrice.Availability a;
    try {
      a = ServicePrice.Availability.parse(word);
    } catch (IllegalArgumentException e) {
      String why = Decimals.why(word);
      throw new IllegalArgumentException(where + ": " + at + ": must be a number, none or unknown, got '" + word + "'"
          + (why.equals("not a number") ? "" : " (" + why + ")"));
    }
    if (a == ServicePrice.Availability.PRICED) fail(where, at, "'price' needs a number: write {price: N, source: ...}");
    return new ServicePrice(a, null, source);
  }

  private static BigDecimal decimal(Object v, Path where, String at) {
    BigDecimal d = Decimals.of(v);
    if (d == null) {
      String why = Decimals.why(v);
      throw new IllegalArgumentException(where + ": " + at + ": must be a number, got '" + v + "'"
          + (why.equals("not a number") ? "" : " (" + why + ")"));
    }
    return d;
  }

  private static Money parseMoney(Object v, String currency, Path where, String at) {
    if (v == null) fail(where, at, "is required");
    BigDecimal d = decimal(v, where, at);
    if (d.signum() < 0) fail(where, at, "must be >= 0");
    Money m = new Money(d, currency);
    dev.gpurent.quote.PriceCeiling.aboveService(m, at.contains("loadBalancer")).ifPresent(why -> fail(where, at, why));
    return m;
  }

  static Duration duration(Path where, String s) {
    try {
      return dev.gpurent.config.Durations.parse("refresh", s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }


  private static String required(JsonObject c, String field, Path where) {
    Object v = c.getValue(field);
    if (v == null || v.toString().isBlank()) fail(where, field, "is required");
    return v.toString().trim();
  }

  static void fail(Path where, String field, String why) {
    throw new IllegalArgumentException(where + ": " + field + ": " + why);
  }
}
