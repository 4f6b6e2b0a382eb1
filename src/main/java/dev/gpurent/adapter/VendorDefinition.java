package dev.gpurent.adapter;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.VendorTerms;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One vendor, as one YAML file in {@code adapters/} describes it: which adapter kind reads its
 * prices, from where, how often, in which currency, and its storage and network terms. The
 * whole file is kept as {@link #config()} for the adapter's own keys.
 *
 * @param where the file it came from, for messages and for resolving relative paths
 */
public record VendorDefinition(String vendor, String displayName, String kind, String currency, Duration refresh,
                               VendorTerms terms, String note, boolean enabled, JsonObject config, Path where) {

  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]*");
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(s|m|h|d)");

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
    if (t == null) fail(where, "terms", "is required (storagePerGbMonth, egressPerGb, loadBalancerPerMonth, source)");
    VendorTerms terms = terms(t, currency, where);
    return new VendorDefinition(vendor, c.getString("name", vendor), kind, currency, refresh, terms,
        c.getString("note", ""), c.getBoolean("enabled", true), c, where);
  }

  private static VendorTerms terms(JsonObject t, String vendorCurrency, Path where) {
    String cur = t.getString("currency", vendorCurrency);
    List<VendorTerms.EgressTier> tiers = new ArrayList<>();
    JsonArray tierList = t.getJsonArray("egressTiers");
    if (tierList != null) {
      for (int i = 0; i < tierList.size(); i++) {
        JsonObject tier = tierList.getJsonObject(i);
        Object upTo = tier.getValue("upToGb");
        tiers.add(new VendorTerms.EgressTier(upTo == null ? null : new BigDecimal(upTo.toString()),
            money(tier, "perGb", cur, where, "terms.egressTiers[" + i + "]")));
      }
    } else {
      tiers.add(new VendorTerms.EgressTier(null, money(t, "egressPerGb", cur, where, "terms")));
    }
    BigDecimal discount = new BigDecimal(t.getValue("discount", 1).toString());
    try {
      return new VendorTerms(money(t, "storagePerGbMonth", cur, where, "terms"), tiers,
          optionalMoney(t, "ingressPerGb", cur, where), money(t, "loadBalancerPerMonth", cur, where, "terms"),
          t.getString("granularity", "hour"), discount, t.getString("source", ""));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": terms: " + e.getMessage());
    }
  }

  private static Money money(JsonObject o, String field, String currency, Path where, String at) {
    Object v = o.getValue(field);
    if (v == null) fail(where, at + "." + field, "is required");
    return parseMoney(v, currency, where, at + "." + field);
  }

  private static Money optionalMoney(JsonObject o, String field, String currency, Path where) {
    Object v = o.getValue(field);
    return v == null ? Money.zero(currency) : parseMoney(v, currency, where, "terms." + field);
  }

  private static Money parseMoney(Object v, String currency, Path where, String at) {
    try {
      BigDecimal d = new BigDecimal(v.toString().trim());
      if (d.signum() < 0) fail(where, at, "must be >= 0");
      return new Money(d, currency);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + ": " + at + ": must be a number, got '" + v + "'");
    }
  }

  static Duration duration(Path where, String s) {
    Matcher m = DURATION.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) fail(where, "refresh", "must look like 30m, 6h or 1d, got '" + s + "'");
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
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
