package dev.gpurent.adapter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kind {@code aws-price-list}: the AWS Price List bulk offer file for AmazonEC2 of one region,
 * as JSON ({@code format: json}, the default) or as CSV ({@code format: csv}).
 *
 * <p>The real file is about 450 MB per region, so it is never held in memory: the adapter
 * ({@link FetchAndParse}) streams the URL to a temporary file, and the file is read on a worker
 * thread with Jackson's streaming parser (CSV: row by row). Only the small records of the GPU
 * instances kept are remembered.
 *
 * <p>JSON: {@code products} comes before {@code terms}. A product is kept when it is a
 * {@code Compute Instance} with GPUs ({@code gpu} > 0, instanceFamily "GPU instance" or a known
 * GPU family) sold as Linux, Shared tenancy, capacitystatus Used, preInstalledSw NA and
 * marketoption OnDemand (absent = OnDemand). Its prices are then read from
 * {@code terms.OnDemand[sku][term].priceDimensions[rate].pricePerUnit.{USD|CNY}} (unit Hrs, per
 * instance-hour) and {@code terms.Reserved} (standard 1yr/3yr: YEARLY / THREE_YEARS; a No
 * Upfront rate is an hourly price paid for every hour of the term, unit HOUR; with an upfront
 * fee the effective yearly price upfront / years + hourly x 8760 is quoted, unit YEAR; when
 * several purchase options exist for one term the cheapest is kept).
 *
 * <p>The offer file does not always name the GPU model ({@code gpuMemory} is often "NA"), so the
 * model comes from the instance family ({@code p4d} of {@code p4d.24xlarge}) through
 * {@link #GPU_FAMILIES} (resource aws-price-list.yaml), which the YAML key {@code gpuFamilies}
 * (family: catalog id) extends or overrides; the count is the {@code gpu} attribute. The currency is the pricePerUnit key (China
 * regions price in CNY); the region is {@code regionCode} (or the {@code location} name mapped).
 *
 * <p>Products that are not GPU instances, or other variants of one (Windows, Dedicated, ...),
 * are counted, not listed: one {@code rejected} line per reason gives the count and the first
 * example. GPU rows that cannot be priced are listed one by one with their reason.
 */
public final class AwsPriceListFormat {

  public static final String KIND = "aws-price-list";

  private static final LookupTables TABLES = LookupTables.load("aws-price-list.yaml");

  /** Instance family -> catalog GPU id, from AWS's instance type pages. */
  static final Map<String, String> GPU_FAMILIES = TABLES.strings("gpuFamilies");

  /** Families whose accelerators are not GPUs the engine compares -> what they are; skipped, not rejected. */
  static final Map<String, String> NON_GPU_FAMILIES = TABLES.strings("nonGpuFamilies");

  /** AWS location names -> region codes, for files without {@code regionCode} (old CSVs). */
  static final Map<String, String> LOCATIONS = TABLES.strings("locations");

  private static final JsonFactory JSON = new JsonFactory();

  private AwsPriceListFormat() {}

  /** Fails fast on this kind's YAML keys {@code format} and {@code gpuFamilies}. */
  static void check(VendorDefinition def, GpuCatalog catalog) {
    csv(def);
    families(def, catalog);
  }

  /**
   * Reads an offer file (the YAML's {@code format}, default json); pure, no Vert.x. The quotes are
   * observed at {@code fetchedAt} and dated (priceDate) by the file's publicationDate where it has
   * one (JSON {@code publicationDate}, CSV "Publication Date" line).
   */
  public static VendorQuotes parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    Reader r = new Reader(def, catalog, families(def, catalog), fetchedAt, KIND + ":" + payload.origin());
    try (InputStream in = payload.open()) {
      if (csv(def)) r.csv(in);
      else r.json(in);
    } catch (IOException e) {
      throw new IllegalArgumentException(payload.origin() + ": not a readable AWS offer file: " + e.getMessage(), e);
    }
    return r.result();
  }

  private static boolean csv(VendorDefinition def) {
    String f = def.config().getString("format", "json").trim().toLowerCase(Locale.ROOT);
    if (!f.equals("json") && !f.equals("csv")) VendorDefinition.fail(def.where(), "format", "must be json or csv, got '" + f + "'");
    return f.equals("csv");
  }

  /** The built-in family table with the YAML's {@code gpuFamilies} on top, every id checked. */
  private static Map<String, String> families(VendorDefinition def, GpuCatalog catalog) {
    Map<String, String> m = new HashMap<>(GPU_FAMILIES);
    JsonObject extra = def.config().getJsonObject("gpuFamilies", new JsonObject());
    for (Map.Entry<String, Object> e : extra) m.put(e.getKey().toLowerCase(Locale.ROOT), String.valueOf(e.getValue()));
    for (Map.Entry<String, String> e : m.entrySet()) {
      if (catalog.find(e.getValue()).isEmpty() && extra.containsKey(e.getKey())) {
        VendorDefinition.fail(def.where(), "gpuFamilies." + e.getKey(), "unknown GPU '" + e.getValue() + "'");
      }
    }
    return m;
  }

  /** One parse: the offer file's syntax, JSON streamed or CSV row by row, read into its pricing. */
  private static final class Reader extends AwsOfferPricing {
    Reader(VendorDefinition def, GpuCatalog catalog, Map<String, String> families, Instant fetchedAt, String cite) {
      super(def, catalog, families, fetchedAt, cite);
    }

    // ------------------------------------------------------------------------------ JSON

    void json(InputStream in) throws IOException {
      try (JsonParser p = JSON.createParser(in)) {
        if (p.nextToken() != JsonToken.START_OBJECT) throw new IllegalArgumentException("not an AWS offer file: expected a JSON object");
        boolean products = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken t = p.nextToken();
          switch (field) {
            case "publicationDate" -> publication(p.getText());
            case "products" -> {
              expect(p, t, JsonToken.START_OBJECT, "products");
              products = true;
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                product(key, p);
              }
            }
            case "terms" -> {
              if (!products) throw new IllegalArgumentException("offer file lists terms before products: cannot stream it");
              expect(p, t, JsonToken.START_OBJECT, "terms");
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String type = p.currentName();
                p.nextToken();
                if (type.equals("OnDemand") || type.equals("Reserved")) termsOf(type, p);
                else p.skipChildren();
              }
            }
            default -> p.skipChildren();
          }
        }
        if (!products) throw new IllegalArgumentException("not an AWS offer file: no 'products' object");
      }
    }

    private static void expect(JsonParser p, JsonToken t, JsonToken want, String what) {
      if (t != want) throw new IllegalArgumentException("not an AWS offer file: '" + what + "' is not an object");
    }

    /** One product: read its small object, keep it if it is a GPU instance we price. */
    @SuppressWarnings("unchecked")
    private void product(String key, JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        rejected.add("products." + key + ": not an object");
        return;
      }
      Map<String, Object> product = (Map<String, Object>) JsonValues.read(p);
      Map<String, String> attrs = new HashMap<>();
      if (product.get("attributes") instanceof Map<?, ?> a) {
        for (Map.Entry<?, ?> e : a.entrySet()) {
          if (e.getValue() != null) attrs.put(key(String.valueOf(e.getKey())), String.valueOf(e.getValue()));
        }
      }
      attrs.put("productfamily", String.valueOf(product.getOrDefault("productFamily", "")));
      String sku = String.valueOf(product.getOrDefault("sku", key));
      evaluate(sku, attrs, "products." + sku);
    }

    /** {@code terms.OnDemand} or {@code terms.Reserved}: sku -> term key -> term. */
    @SuppressWarnings("unchecked")
    private void termsOf(String type, JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        return;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        Kept k = kept.get(p.currentName());
        p.nextToken();
        if (k == null || p.currentToken() != JsonToken.START_OBJECT) {
          p.skipChildren(); // a product we do not price
          continue;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String termKey = p.currentName();
          p.nextToken();
          Object term = JsonValues.read(p);
          String where = "terms." + type + "." + termKey + " (" + k.instanceType() + ")";
          if (!(term instanceof Map<?, ?> tm)) {
            rejected.add(where + ": not an object");
            continue;
          }
          List<Dim> dims = new ArrayList<>();
          String bad = null;
          if (tm.get("priceDimensions") instanceof Map<?, ?> pd) {
            for (Object d : pd.values()) {
              if (!(d instanceof Map<?, ?> dm) || !(dm.get("pricePerUnit") instanceof Map<?, ?> ppu) || ppu.isEmpty()) {
                bad = "a price dimension has no pricePerUnit";
                continue;
              }
              Map.Entry<?, ?> price = ppu.entrySet().iterator().next();
              BigDecimal amount = Decimals.of(String.valueOf(price.getValue()));
              if (amount == null) {
                bad = Decimals.notANumber("price", price.getValue());
                continue;
              }
              dims.add(new Dim(String.valueOf(dm.get("unit")), String.valueOf(price.getKey()), amount,
                  String.valueOf(dm.get("description"))));
            }
          }
          if (bad != null) {
            rejected.add(where + ": " + bad);
            continue;
          }
          if (type.equals("OnDemand")) {
            onDemand(k, where, dims);
          } else {
            Map<String, String> ta = new HashMap<>();
            if (tm.get("termAttributes") instanceof Map<?, ?> a) {
              a.forEach((n, v) -> ta.put(key(String.valueOf(n)), String.valueOf(v)));
            }
            reserved(k, where, ta, dims);
          }
        }
      }
    }

    // ------------------------------------------------------------------------------- CSV

    void csv(InputStream in) throws IOException {
      unit = "row";
      List<String> header = null;
      // Reserved rows are one price dimension each: gather them per (sku, offer term).
      Map<String, List<Dim>> termDims = new LinkedHashMap<>();
      Map<String, Map<String, String>> termAttrs = new HashMap<>();
      Map<String, String> termWhere = new HashMap<>();
      try (CsvRows csv = CsvRows.of(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16))) {
        for (CsvRows.Row row = csv.next(); row != null; row = csv.next()) {
          int first = row.line();
          List<String> cells = row.cells();
          if (header == null) {
            if (!cells.isEmpty() && cells.get(0).trim().equals("SKU")) header = cells.stream().map(AwsPriceListFormat::key).toList();
            else if (cells.size() > 1 && cells.get(0).equals("Publication Date")) publication(cells.get(1));
            continue;
          }
          if (cells.stream().allMatch(String::isBlank)) continue;
          Map<String, String> attrs = new HashMap<>();
          for (int i = 0; i < Math.min(header.size(), cells.size()); i++) {
            String v = cells.get(i).trim();
            if (!v.isEmpty()) attrs.put(header.get(i), v);
          }
          String sku = attrs.getOrDefault("sku", "");
          String where = "row " + first + " (" + sku + ", " + attrs.getOrDefault("instancetype", attrs.getOrDefault("productfamily", "?")) + ")";
          if (header.size() != cells.size()) where = where.substring(0, where.length() - 1) + ", " + cells.size() + " of " + header.size() + " cells)";
          if (refused.contains(sku)) continue;
          Kept k = kept.containsKey(sku) ? kept.get(sku) : evaluate(sku, attrs, where);
          if (k == null) continue;
          BigDecimal price = Decimals.of(attrs.get("priceperunit"));
          if (price == null) {
            rejected.add(where + ": " + Decimals.notANumber("PricePerUnit", attrs.get("priceperunit")));
            continue;
          }
          Dim dim = new Dim(attrs.getOrDefault("unit", ""), attrs.getOrDefault("currency", def.currency()), price,
              attrs.getOrDefault("pricedescription", ""));
          String termType = attrs.getOrDefault("termtype", "");
          if (termType.equals("OnDemand")) {
            onDemand(k, where, List.of(dim));
          } else if (termType.equals("Reserved")) {
            String term = sku + "." + attrs.getOrDefault("offertermcode", "");
            termDims.computeIfAbsent(term, t -> new ArrayList<>()).add(dim);
            termAttrs.putIfAbsent(term, attrs);
            termWhere.merge(term, where, (a, b) -> a.substring(0, a.indexOf(" (")) + "+" + b.substring(4));
          } else {
            rejected.add(where + ": TermType '" + termType + "' is neither OnDemand nor Reserved");
          }
        }
      }
      if (header == null) throw new IllegalArgumentException("not an AWS offer CSV: no header row starting with SKU");
      for (Map.Entry<String, List<Dim>> t : termDims.entrySet()) {
        Map<String, String> attrs = termAttrs.get(t.getKey());
        reserved(kept.get(attrs.get("sku")), termWhere.get(t.getKey()), attrs, t.getValue());
      }
    }
  }

  /** Attribute names compared as lowercase letters and digits: "Instance Type" = "instanceType". */
  static String key(String name) {
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = Character.toLowerCase(name.charAt(i));
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) b.append(c);
    }
    return b.toString();
  }

  /** The leading number of "1152 GiB", "1,952 Gib" or "96"; 0 when unknown ("NA"). */
  static double number(String text) {
    if (text == null) return 0;
    String t = text.trim();
    int sp = t.indexOf(' ');
    BigDecimal d = Decimals.of(sp < 0 ? t : t.substring(0, sp));
    return d == null ? 0 : d.doubleValue();
  }
}
