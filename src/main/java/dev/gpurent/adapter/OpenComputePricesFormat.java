package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.Stock;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kind {@code opencomputeprices}: one provider's GPU offers in a file of thatkavish/OpenComputePrices
 * (MIT; one file per collector, 31 columns, read by name: {@link FeedRow}; see
 * {@code ../shared/data/opencomputeprices/SCHEMA.md} and PROVENANCE.md 10 and 10a). YAML keys:
 * {@code provider} (the {@code provider} column's value; a getdeploying "_sponsored" listing counts
 * as its provider's), {@code memory} (what {@code gpu_memory_gb} means for this provider:
 * per-gpu, offer or plan, see {@link FeedCards}; default offer), {@code cards} (feed name ->
 * catalog spelling, where the name alone is ambiguous), {@code nodes} (instance_type -> GPUs, for
 * a provider that prices whole nodes under gpu_count 1).
 *
 * <p>The collector appends a run a day to each file: the provider's latest {@code snapshot_date}
 * is read, earlier days are skipped, so a later day's file is read the same way. A quote per row
 * (per location where {@code raw_extra.locations} lists them, as Vultr's API does), dated by the
 * row's {@code snapshot_ts}, cites {@code opencomputeprices:<file> line N}. Rows that are not offers
 * are refused, each with its line and reason (10a's traps): per-token rows of inference APIs,
 * getdeploying's {@code cheapest_*} summaries, akash's min/max/avg statistics, unknown or missing
 * GPU names (lightningai's {@code 1}), counts the memory contradicts, Windows rows (the licence is
 * in the price; of a pair with one sku_id, the lower is a duplicate of the Linux price), Azure's
 * Low Priority meters (an older product than Spot, filed as spot), reservation totals filed as
 * hourly prices ({@link FeedTerms#reservations}), locations-less plans, repeated rows.
 */
public final class OpenComputePricesFormat {

  public static final String KIND = "opencomputeprices";

  /**
   * @param vendorQuotes the quotes and the refused rows
   * @param day          the provider's latest snapshot_date in the file, or null when it has no row
   * @param providerRows the provider's rows on that day
   */
  public record Result(VendorQuotes vendorQuotes, LocalDate day, int providerRows) implements ParsedPayload {}

  private OpenComputePricesFormat() {}

  /** Fails fast on this kind's YAML keys. */
  static void check(VendorDefinition def) {
    provider(def);
    memory(def);
    cards(def);
    nodes(def);
  }

  static String provider(VendorDefinition def) {
    String p = def.config().getString("provider");
    if (p == null || p.isBlank()) VendorDefinition.fail(def.where(), "provider", "is required: the provider column's value (e.g. e2e)");
    return p.trim().toLowerCase(Locale.ROOT);
  }

  static String memory(VendorDefinition def) {
    String m = def.config().getString("memory", "offer");
    if (!List.of("per-gpu", "offer", "plan").contains(m)) VendorDefinition.fail(def.where(), "memory", "must be per-gpu, offer or plan, got '" + m + "'");
    return m;
  }

  static Map<String, String> cards(VendorDefinition def) {
    Map<String, String> out = new HashMap<>();
    JsonObject c = def.config().getJsonObject("cards", new JsonObject());
    c.forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue())));
    return out;
  }

  static Map<String, Integer> nodes(VendorDefinition def) {
    Map<String, Integer> out = new HashMap<>();
    JsonObject c = def.config().getJsonObject("nodes", new JsonObject());
    c.forEach(e -> {
      if (!(e.getValue() instanceof Integer n) || n < 1) VendorDefinition.fail(def.where(), "nodes." + e.getKey(), "must be a GPU count, got " + e.getValue());
      else out.put(e.getKey(), n);
    });
    return out;
  }

  /** The provider's quotes in one file; pure. */
  public static Result parse(Payload payload, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    provider(def);
    return slice(feed(payload), payload.origin(), def, catalog, fetchedAt);
  }

  /**
   * The file's rows by provider, streamed and read once for every vendor that quotes one of them
   * ({@link SharedFeeds}); a file whose header lacks a column of the schema fails whole.
   */
  static ProviderFeed feed(Payload payload) {
    try (Reader in = payload.reader()) {
      return ProviderFeed.read(in, "empty OpenComputePrices file: no header", (header, col) -> {
        List<String> missing = FeedRow.COLUMNS.stream().filter(c -> !col.containsKey(c)).toList();
        if (!missing.isEmpty()) throw new IllegalArgumentException("not an OpenComputePrices file: header lacks " + String.join(", ", missing));
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + payload.origin(), e);
    }
  }

  /** The definition's provider's quotes in a file already read ({@link #feed}), cited as {@code origin}; pure. */
  static Result slice(ProviderFeed feed, String origin, VendorDefinition def, GpuCatalog catalog, Instant fetchedAt) {
    String provider = provider(def);
    List<FeedRow> rows = new ArrayList<>();
    for (CsvRows.Row r : feed.rows(provider, provider + FeedRow.SPONSORED)) rows.add(FeedRow.of(r.line(), r.cells(), feed.columns()));
    RowLog log = new RowLog();
    LocalDate day = null;
    for (FeedRow r : rows) {
      LocalDate d = date(r);
      if (d != null && (day == null || d.isAfter(day))) day = d;
    }
    List<FeedRow> today = new ArrayList<>();
    for (FeedRow r : rows) {
      if (day != null && day.equals(date(r))) today.add(r);
      else log.skip("an earlier day's row (the collector appends a run a day; the latest, " + day + ", is read)", r.where());
    }
    FeedCards cards = new FeedCards(catalog, cards(def), memory(def), nodes(def));
    List<Quote> quotes = new Reading(def, cards, origin, fetchedAt, log).quotes(today);
    VendorQuotes vq = new VendorQuotes(def.vendor(), def.displayName(), def.terms(), quotes, log.lines("row"), Instant.now(), def.note());
    return new Result(vq, day, today.size());
  }

  private static LocalDate date(FeedRow r) {
    try {
      return LocalDate.parse(r.get("snapshot_date"));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** One day's rows of the provider made into quotes. */
  private record Reading(VendorDefinition def, FeedCards cards, String origin, Instant fetchedAt, RowLog log) {

    /** A row that is an offer, before its terms are settled. */
    private record Offer(FeedRow row, FeedCards.Cards cards, BigDecimal hourly) {}

    List<Quote> quotes(List<FeedRow> rows) {
      List<Offer> offers = new ArrayList<>();
      Map<String, List<FeedRow>> windows = new LinkedHashMap<>();
      for (FeedRow r : rows) {
        String why = FeedTraps.notAnOffer(r);
        if (why != null) {
          if (why.startsWith(FeedTraps.TOKEN)) log.skip(why, r.where());
          else log.reject(r.where() + ": " + why);
          continue;
        }
        if (r.get("os").equalsIgnoreCase("windows")) {
          windows.computeIfAbsent(r.extra("sku_id") + "|" + r.get("region"), k -> new ArrayList<>()).add(r);
          continue;
        }
        try {
          BigDecimal hourly = Decimals.of(r.get("price_per_hour"));
          if (hourly == null) throw new IllegalArgumentException(Decimals.notANumber("price_per_hour", r.get("price_per_hour")));
          if (hourly.signum() <= 0) throw new IllegalArgumentException("price_per_hour " + hourly.toPlainString() + " is no price");
          offers.add(new Offer(r, cards.of(r), hourly));
        } catch (IllegalArgumentException e) {
          log.reject(r.where() + ": " + e.getMessage());
        }
      }
      windows.values().forEach(this::windows);
      return priced(offers);
    }

    /** Windows rows: the licence is in the price; of a pair with one sku_id, the lower repeats the Linux price. */
    private void windows(List<FeedRow> group) {
      List<FeedRow> sorted = new ArrayList<>(group);
      sorted.sort(java.util.Comparator.comparing(r -> Decimals.of(r.get("price_per_hour")), java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder())));
      FeedRow dearest = sorted.get(sorted.size() - 1);
      for (FeedRow r : sorted) {
        if (r == dearest) {
          log.reject(r.where() + ": Windows " + r.get("price_per_hour") + "/h, the licence in the price: gpurent prices Linux machines");
        } else {
          log.reject(r.where() + ": a duplicate of the Windows pair with line " + dearest.line() + " (same sku_id " + r.extra("sku_id")
              + "): its " + r.get("price_per_hour") + "/h is the Linux price, read from the Linux row");
        }
      }
    }

    private List<Quote> priced(List<Offer> offers) {
      Map<String, List<FeedTerms.Priced>> groups = new LinkedHashMap<>();
      for (Offer o : offers) {
        if (!o.row().get("pricing_type").equals("on_demand")) continue;
        groups.computeIfAbsent(groupKey(o), k -> new ArrayList<>()).add(new FeedTerms.Priced(o.row().line(), o.hourly()));
      }
      Map<Integer, Object> totals = new HashMap<>();
      groups.values().forEach(g -> totals.putAll(FeedTerms.reservations(g)));
      List<Quote> out = new ArrayList<>();
      Map<String, Quote> byKey = new HashMap<>();
      for (Offer o : offers) {
        FeedRow r = o.row();
        try {
          Object total = totals.get(r.line());
          if (total instanceof String why) throw new IllegalArgumentException(why);
          List<FeedTerms.Term> terms = new ArrayList<>();
          terms.add(total instanceof FeedTerms.Term t ? t : FeedTerms.of(r, o.hourly()));
          terms.addAll(FeedTerms.extraCommitments(r));
          for (String region : regions(r)) {
            for (FeedTerms.Term t : terms) add(o, region, t, out, byKey);
          }
        } catch (IllegalArgumentException e) {
          log.reject(r.where() + ": " + e.getMessage());
        }
      }
      return out;
    }

    private static String groupKey(Offer o) {
      FeedRow r = o.row();
      return r.get("instance_type") + "|" + r.get("region") + "|" + r.get("os") + "|" + r.get("gpu_count") + "|" + r.extra("product_name");
    }

    private void add(Offer o, String region, FeedTerms.Term t, List<Quote> out, Map<String, Quote> byKey) {
      FeedRow r = o.row();
      String base = r.get("instance_type").isEmpty() ? r.get("gpu_name") : r.get("instance_type");
      Quote same = byKey.get(region + "|" + base + "|" + t.billing().wire());
      if (same != null && same.price().amount().compareTo(t.price()) == 0 && same.gpuId().equals(o.cards().gpu().id())) {
        log.reject(r.where() + ": the same offer, region, billing and price as " + same.source().substring(same.source().indexOf("line "))
            + ": a repeated row");
        return;
      }
      // one offer id per row: a second row under the same instance_type is told apart by its card, then its machine, then its place
      String offer = base;
      List<String> names = List.of(base, base + " (" + o.cards().gpu().id() + ")",
          base + " (" + r.get("vcpus") + " vCPU, " + r.get("ram_gb") + " GB)", base + " #" + r.line());
      for (String name : names) {
        offer = name;
        if (!byKey.containsKey(region + "|" + name + "|" + t.billing().wire())) break;
      }
      String cite = KIND + ":" + origin + " line " + r.line() + (t.note().isEmpty() ? "" : " (" + t.note() + ")")
          + (o.cards().note().isEmpty() ? "" : " [" + o.cards().note() + "]");
      Quote q = new Quote(def.vendor(), region, offer, o.cards().gpu().id(), o.cards().count(), number(r.get("vcpus")),
          number(r.get("ram_gb")), t.billing(), new Money(t.price(), "USD"), t.unit(), fetchedAt, cite)
          .withPriceDate(priceDate(r)).withStock(stock(r));
      byKey.put(region + "|" + offer + "|" + t.billing().wire(), q);
      out.add(q);
    }

    /** Where the row's offer is sold: its region, or each of raw_extra's locations (Vultr), or "" for none stated. */
    private static List<String> regions(FeedRow r) {
      if (!r.get("region").isEmpty()) return List.of(r.get("region"));
      JsonArray locs = r.extra().getJsonArray("locations");
      if (locs == null) return List.of("");
      if (locs.isEmpty()) throw new IllegalArgumentException("raw_extra.locations is empty: the plan is sold in no location today");
      List<String> out = new ArrayList<>();
      for (Object l : locs) out.add(String.valueOf(l));
      return out;
    }

    /**
     * What the row says of stock: {@code available} False is unavailable (Vultr's preemptible plans, all 29 of them);
     * True with an {@code available_count} is that many free. True alone says nothing: the collector writes it on
     * every row of 20 of the 22 files, whatever its source states (PROVENANCE.md 10a), so it stays unknown.
     */
    static Stock stock(FeedRow r) {
      String available = r.get("available"), count = r.get("available_count");
      if (available.equalsIgnoreCase("false")) return Stock.unavailable("available False");
      BigDecimal n = Decimals.of(count);
      if (available.equalsIgnoreCase("true") && n != null && n.signum() >= 0 && n.stripTrailingZeros().scale() <= 0) {
        return Stock.available(n.intValueExact(), "available_count " + count);
      }
      return Stock.UNKNOWN;
    }

    private static Instant priceDate(FeedRow r) {
      try {
        return Instant.parse(r.get("snapshot_ts"));
      } catch (DateTimeParseException e) {
        return LocalDate.parse(r.get("snapshot_date")).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
    }

    private static double number(String s) {
      BigDecimal d = Decimals.of(s);
      return d == null || d.signum() < 0 ? 0 : d.doubleValue();
    }
  }
}
