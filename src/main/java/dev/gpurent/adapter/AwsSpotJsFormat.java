package dev.gpurent.adapter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Kind {@code aws-spot-js}: the legacy spot price feed {@code spot.js}
 * (https://spot-price.s3.amazonaws.com/spot.js), a JSONP file {@code callback({...});} that the
 * old EC2 spot pricing page loaded. AWS has retired it; the adapter reads archived copies.
 *
 * <p>Path: {@code config.regions[].region} (legacy names, see {@link #REGIONS}) ->
 * {@code instanceTypes[].type} and {@code .sizes[].size} -> {@code valueColumns[]} ({@code name}
 * linux or mswin) -> {@code prices.USD}, a decimal string in USD per instance-hour; "N/A",
 * "N/A*" and "-1" mean not offered. Only {@code linux} is read; every price is SPOT, unit HOUR.
 * The file is JavaScript rather than strict JSON (a leading comment, trailing commas in the
 * 2012 file, possibly unquoted keys), so it is read leniently.
 *
 * <p>Sizes: newer files name the instance type ({@code "m3.medium"}); older ones (2012) give
 * a type and a size code, mapped through {@link #LEGACY_SIZES} ({@code clusterGPUI} +
 * {@code xxxxl} = cg1.4xlarge, as ec2instances.info and Netflix Asgard map them). Only GPU
 * instance types become quotes ({@link #GPU_TYPES}: card, count, vCPUs, RAM from AWS's
 * instance type pages); the others are counted in one "skipped" line, as are GPU rows marked
 * "N/A". The feed carries no date, so quotes are dated at fetch time. The three tables, with
 * their sources, are the resource aws-spot-js.yaml.
 */
public final class AwsSpotJsFormat {

  public static final String KIND = "aws-spot-js";
  private static final LookupTables TABLES = LookupTables.load("aws-spot-js.yaml");

  /** Legacy spot.js region names -> region codes (ec2instances.info's transform_region). */
  static final Map<String, String> REGIONS = TABLES.strings("regions");

  private static final Pattern MODERN_REGION = Pattern.compile("[a-z]{2}(-gov)?-[a-z]+-\\d+");
  private static final Pattern BARE_REGION =
      Pattern.compile("[a-z]{2}-(east|west|north|south|central|northeast|northwest|southeast|southwest)");

  /** Legacy (type, size code) -> instance type, for the 2010-2013 files. */
  static final Map<String, String> LEGACY_SIZES = TABLES.strings("legacySizes");

  /** A GPU instance type the feed could list: catalog card, GPUs, vCPUs, RAM GiB. */
  record GpuType(String gpuId, int count, double vcpus, double ramGiB) {

    static GpuType of(Object entry) {
      Map<?, ?> m = (Map<?, ?>) entry;
      return new GpuType(String.valueOf(m.get("gpu")), ((Number) m.get("count")).intValue(),
          ((Number) m.get("vcpus")).doubleValue(), ((Number) m.get("ramGiB")).doubleValue());
    }
  }

  /** GPU instance types by name, from AWS's instance type pages. */
  static final Map<String, GpuType> GPU_TYPES = TABLES.map("gpuTypes").entrySet().stream()
      .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> GpuType.of(e.getValue())));

  private static final Set<String> UNAVAILABLE = Set.of("N/A", "N/A*", "-1", "");

  private static final JsonFactory LENIENT = JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
      .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
      .build();

  private AwsSpotJsFormat() {}

  /** Reads one spot.js payload; pure. Quotes are dated {@code fetchedAt} (the feed has no date). */
  public static VendorQuotes parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    String text;
    try {
      text = payload.text();
    } catch (IOException e) {
      throw new IllegalArgumentException(payload.origin() + ": cannot read: " + e.getMessage(), e);
    }
    Map<String, Object> root = root(text);
    if (!(root.get("config") instanceof Map<?, ?> config) || !(config.get("regions") instanceof List<?> regions)) {
      throw new IllegalArgumentException("not a spot.js feed: expected config.regions[]");
    }
    Reader r = new Reader(def, catalog, fetchedAt, KIND + ":" + payload.origin());
    for (int i = 0; i < regions.size(); i++) r.region(i, regions.get(i));
    return r.result();
  }

  /** A legacy region name as a region code, or empty when it is not one we know. */
  static Optional<String> region(String legacy) {
    if (legacy == null) return Optional.empty();
    String s = legacy.trim().toLowerCase(Locale.ROOT);
    if (REGIONS.containsKey(s)) return Optional.of(REGIONS.get(s));
    if (MODERN_REGION.matcher(s).matches()) return Optional.of(s);
    if (BARE_REGION.matcher(s).matches()) return Optional.of(s + "-1");  // us-east -> us-east-1
    return Optional.empty();
  }

  /** The JSON object inside {@code callback(...)}, after any leading comments; or a bare object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> root(String text) {
    int i = skipSpaceAndComments(text, 0);
    if (i < text.length() && text.charAt(i) != '{') {
      int start = i;
      while (i < text.length() && (Character.isJavaIdentifierPart(text.charAt(i)) || text.charAt(i) == '.')) i++;
      i = skipSpaceAndComments(text, i);
      if (i == start || i >= text.length() || text.charAt(i) != '(') {
        throw new IllegalArgumentException("not a spot.js feed: expected callback({...}) or a JSON object");
      }
      i = skipSpaceAndComments(text, i + 1);
    }
    if (i >= text.length() || text.charAt(i) != '{') {
      throw new IllegalArgumentException("not a spot.js feed: no JSON object found");
    }
    try (JsonParser p = LENIENT.createParser(text.substring(i))) {
      p.nextToken();
      Object v = JsonValues.read(p);
      return (Map<String, Object>) v;
    } catch (IOException e) {
      throw new IllegalArgumentException("not a readable spot.js feed: " + e.getMessage(), e);
    }
  }

  private static int skipSpaceAndComments(String t, int i) {
    while (i < t.length()) {
      char c = t.charAt(i);
      if (Character.isWhitespace(c) || c == '\uFEFF') {
        i++;
      } else if (t.startsWith("/*", i)) {
        int end = t.indexOf("*/", i + 2);
        if (end < 0) throw new IllegalArgumentException("not a spot.js feed: unterminated comment");
        i = end + 2;
      } else if (t.startsWith("//", i)) {
        int end = t.indexOf('\n', i);
        i = end < 0 ? t.length() : end + 1;
      } else {
        break;
      }
    }
    return i;
  }

  /** The state of one parse. */
  private static final class Reader {
    final VendorDefinition def;
    final GpuCatalog catalog;
    final Instant observedAt;
    final String cite;
    final List<Quote> quotes = new ArrayList<>();
    final Set<String> quoted = new HashSet<>();
    final RowLog log = new RowLog();

    Reader(VendorDefinition def, GpuCatalog catalog, Instant observedAt, String cite) {
      this.def = def;
      this.catalog = catalog;
      this.observedAt = observedAt;
      this.cite = cite;
    }

    void region(int i, Object value) {
      if (!(value instanceof Map<?, ?> reg)) {
        log.reject("regions[" + i + "]: not an object");
        return;
      }
      String legacy = reg.get("region") == null ? null : reg.get("region").toString();
      Optional<String> code = AwsSpotJsFormat.region(legacy);
      if (code.isEmpty()) {
        log.reject("regions[" + i + "] (" + legacy + "): unknown region name; all its rows ignored");
        return;
      }
      if (!(reg.get("instanceTypes") instanceof List<?> types)) return;
      for (Object t : types) {
        if (!(t instanceof Map<?, ?> type) || !(type.get("sizes") instanceof List<?> sizes)) continue;
        String typeName = type.get("type") == null ? "" : type.get("type").toString();
        for (Object s : sizes) {
          if (s instanceof Map<?, ?> size) size(legacy, code.get(), typeName, size);
        }
      }
    }

    private void size(String legacy, String region, String typeName, Map<?, ?> size) {
      String code = size.get("size") == null ? "" : size.get("size").toString().trim();
      String at = legacy + " " + typeName + " " + code;
      String instance = code.contains(".") ? code : LEGACY_SIZES.get(typeName + "/" + code);
      if (instance == null) {
        log.reject(at + ": unknown legacy size code (type '" + typeName + "', size '" + code + "')");
        return;
      }
      if (!instance.equals(code)) at += " (" + instance + ")";
      GpuType g = GPU_TYPES.get(instance);
      if (g == null) {
        String family = instance.substring(0, instance.indexOf('.'));
        if (AwsPriceListFormat.GPU_FAMILIES.containsKey(family)) {
          log.reject(at + ": GPU instance type not in the spot.js GPU table (count unknown)");
        } else {
          log.skip("not GPU instance types", at);
        }
        return;
      }
      String price = null;
      String currency = null;
      if (size.get("valueColumns") instanceof List<?> columns) {
        for (Object c : columns) {
          if (c instanceof Map<?, ?> col && "linux".equals(String.valueOf(col.get("name")))
              && col.get("prices") instanceof Map<?, ?> prices && !prices.isEmpty()) {
            Map.Entry<?, ?> e = prices.containsKey("USD")
                ? Map.entry("USD", prices.get("USD")) : prices.entrySet().iterator().next();
            currency = e.getKey().toString();
            price = e.getValue() == null ? "" : e.getValue().toString().trim();
          }
        }
      }
      if (price == null) {
        log.reject(at + ": no linux price");
        return;
      }
      if (UNAVAILABLE.contains(price)) {
        log.skip("GPU rows with linux price N/A, N/A* or -1 (not offered in that region)", at + " '" + price + "'");
        return;
      }
      BigDecimal d = Decimals.of(price);
      if (d == null) {
        log.reject(at + ": " + Decimals.notANumber("linux price", price));
        return;
      }
      if (d.signum() <= 0) {
        log.reject(at + ": linux price '" + price + "' is not an offer");
        return;
      }
      Optional<Gpu> card = catalog.find(g.gpuId());
      if (card.isEmpty()) {
        log.reject(at + ": unknown GPU '" + g.gpuId() + "' (not in the catalog)");
        return;
      }
      Quote q = new Quote(def.vendor(), region, instance, card.get().id(), g.count(), g.vcpus(), g.ramGiB(),
          Billing.SPOT, new Money(d, currency), PriceUnit.HOUR, observedAt, cite);
      if (!quoted.add(q.key())) {
        log.reject(at + ": a second spot price for " + instance + " in " + region + " ignored");
        return;
      }
      quotes.add(q);
    }


    VendorQuotes result() {
      return new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, log.lines("row"), observedAt, def.note());
    }
  }
}
