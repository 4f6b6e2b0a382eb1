package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Slow;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class AwsPriceListFormatTest {

  static final Path DIR = Path.of("../shared/data/aws/price-list-offer-file");
  static final Path US_EAST_1 = DIR.resolve("opencost-pricing-us-east-1.json");
  static final Path CN_NORTHWEST_1 = DIR.resolve("opencost-pricing-cn-northwest-1.json");
  static final Path CSV = Path.of("../shared/data/aws/price-list-offer-file-csv/ligoj-mock-AmazonEC2-eu-west-1-index-v2.csv");
  static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition def;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    def = VendorDefinition.load(Path.of("adapters/aws.yaml"));
  }

  static VendorDefinition with(String key, String value) {
    return VendorDefinition.from(def.config().copy().put(key, value), def.where());
  }

  static VendorQuotes parse(Path file) {
    return AwsPriceListFormat.parse(Payload.of(file), def, catalog, FETCHED);
  }

  static VendorQuotes parseCsv(Path file) {
    return AwsPriceListFormat.parse(Payload.of(file), with("format", "csv"), catalog, FETCHED);
  }

  static Quote only(VendorQuotes vq, String offerId, Billing billing) {
    List<Quote> q = vq.quotes().stream().filter(x -> x.offerId().equals(offerId) && x.billing() == billing).toList();
    assertEquals(1, q.size(), offerId + " " + billing + " in " + vq.quotes());
    return q.get(0);
  }

  @Test
  void parses_us_east_1_offer_file() {
    VendorQuotes vq = parse(US_EAST_1);
    assertEquals(1, vq.quotes().size(), vq.quotes().toString());
    Quote q = vq.quotes().get(0);
    assertEquals("aws", q.vendor());
    assertEquals("us-east-1", q.region());
    assertEquals("p4d.24xlarge", q.offerId());
    assertEquals("a100-40g-sxm", q.gpuId());
    assertEquals(8.0, q.gpuCount());
    assertEquals(96.0, q.vcpus());
    assertEquals(1152.0, q.ramGiB());
    assertEquals(Billing.ON_DEMAND, q.billing());
    assertEquals(Money.of("32.7726000000", "USD"), q.price());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals(Instant.parse("2024-05-28T20:35:22Z"), q.priceDate(), "the file's publicationDate");
    assertEquals(FETCHED, q.observedAt(), "read at the fetch");
    assertEquals("aws-price-list:" + US_EAST_1, q.source());
    // the second p4d.24xlarge product is the Capacity Block one, priced $0.00 in OnDemand
    assertEquals(List.of("skipped 1 product: marketoption CapacityBlock: capacity blocks are booked ahead for fixed "
        + "dates and priced outside these terms (their OnDemand dimension is $0.00), not an offer "
        + "(first: products.YSXJGN78QTXNVGDQ (p4d.24xlarge, us-east-1))"), vq.rejected());
  }

  @Test
  void skips_cn_storage_product() {
    VendorQuotes vq = parse(CN_NORTHWEST_1);
    assertEquals(0, vq.quotes().size());
    assertEquals(List.of("skipped 1 product: productFamily is not 'Compute Instance' "
        + "(first: products.R83VXG9NAPDASEGN (productFamily 'Storage', cn-northwest-1))"), vq.rejected());
  }

  @Test
  void parses_csv_offer_file() {
    VendorQuotes vq = parseCsv(CSV);
    Map<String, Quote> byOffer = vq.quotes().stream().collect(Collectors.toMap(Quote::offerId, q -> q));
    assertEquals(3, vq.quotes().size(), vq.quotes().toString());
    Quote g2 = byOffer.get("g2.2xlarge");
    assertEquals("grid-k520", g2.gpuId());
    assertEquals(1.0, g2.gpuCount());
    assertEquals(Money.of("0.7020000000", "USD"), g2.price());
    assertEquals("eu-west-1", g2.region(), "from Location 'EU (Ireland)': the mock has no regionCode column");
    assertEquals(8.0, g2.vcpus());
    assertEquals(15.0, g2.ramGiB());
    assertEquals(4.0, byOffer.get("g2.8xlarge").gpuCount());
    assertEquals(Money.of("2.808", "USD"), byOffer.get("g2.8xlarge").price());
    Quote p2 = byOffer.get("p2.16xlarge");
    assertEquals("k80", p2.gpuId());
    assertEquals(16.0, p2.gpuCount());
    assertEquals(Money.of("15.552", "USD"), p2.price());
    assertEquals(768.0, p2.ramGiB());
    assertTrue(vq.quotes().stream().allMatch(q -> q.billing() == Billing.ON_DEMAND && q.observedAt().equals(FETCHED)
        && q.undated()), "the mock's metadata lines carry no Publication Date: undated");

    assertEquals(List.of(
        "row 38 (3H8WR8FBAE4DWNRB, cg1.4xlarge, 52 of 83 cells): no GPU model known for instance family 'cg1' "
            + "(gpu attribute absent); add it to gpuFamilies",
        "row 76 (38KKRTQP385PX9HY, p2.8xlarge, 52 of 83 cells): GPU count missing (gpu attribute absent)",
        "row 77 (KPQDNX9YMUA29HRQ, p2.xlarge, 52 of 83 cells): GPU count missing (gpu attribute absent)",
        "skipped 83 rows: not a GPU instance (first: row 8 (HB5V2X8TXQUTDZBV, c1.medium, 52 of 83 cells))",
        "skipped 8 rows: productFamily is not 'Compute Instance' (first: row 24 (UX36TAF5KZQE7ZSK, c3, 65 of 83 cells))"),
        vq.rejected());
  }

  @Test
  void groups_csv_reserved_rows_per_term() throws IOException {
    // Synthetic: the real mock's header and g2.2xlarge row, plus two Reserved rows made from
    // that row in the form of the mock's c1.medium reservation (3yr All Upfront: an Hrs row at
    // 0.0 and a Quantity row with the fee). The fee is made up.
    List<String> lines = Files.readAllLines(CSV);
    String header = lines.get(5);
    String g2 = lines.get(43);
    List<String> cols = List.of(header.split(",", -1));
    Path file = Files.createTempFile("aws-reserved", ".csv");
    try {
      Files.write(file, List.of(header, g2,
          reservedRow(cols, g2, "Hrs", "0.0000000000", "6YS6EN2CT7"),
          reservedRow(cols, g2, "Quantity", "9000", "2TG2D8R56U")));
      VendorQuotes vq = parseCsv(file);
      assertEquals(2, vq.quotes().size(), vq.quotes() + " " + vq.rejected());
      assertEquals(Money.of("0.702", "USD"), only(vq, "g2.2xlarge", Billing.ON_DEMAND).price());
      Quote q = only(vq, "g2.2xlarge", Billing.THREE_YEARS);
      assertEquals(Money.of("3000", "USD"), q.price(), "9000 upfront over 3 years, hourly 0");
      assertEquals(PriceUnit.YEAR, q.unit());
      assertEquals(List.of(), vq.rejected());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  static String reservedRow(List<String> cols, String onDemandRow, String unit, String price, String rate) {
    String[] cells = onDemandRow.split(",", -1);
    Map<String, String> set = Map.of("OfferTermCode", "NQ3QZPMQV9", "RateCode", cells[0] + ".NQ3QZPMQV9." + rate,
        "TermType", "Reserved", "PriceDescription", "Upfront Fee", "Unit", unit, "PricePerUnit", price,
        "LeaseContractLength", "3yr", "PurchaseOption", "All Upfront", "OfferingClass", "standard");
    set.forEach((col, v) -> cells[cols.indexOf(col)] = v);
    return String.join(",", cells);
  }

  @Test
  void prices_reserved_terms_cheapest_option_per_term() throws IOException {
    // Synthetic: the real us-east-1 sample with terms.Reserved added in the offer-file form
    // (the recorded files have no Reserved GPU terms). Prices are made up.
    JsonObject offer = new JsonObject(Files.readString(US_EAST_1));
    String sku = "H7NGEAC6UEHNTKSJ";
    JsonObject terms = new JsonObject()
        .put(sku + ".NOUP1YR", reserved(sku, "NOUP1YR", "1yr", "No Upfront", "standard", "20.5", null))
        .put(sku + ".ALLUP1YR", reserved(sku, "ALLUP1YR", "1yr", "All Upfront", "standard", "0.0000000000", "170000"))
        .put(sku + ".PART3YR", reserved(sku, "PART3YR", "3yr", "Partial Upfront", "standard", "6.5", "171000"))
        .put(sku + ".CONV3YR", reserved(sku, "CONV3YR", "3yr", "No Upfront", "convertible", "14", null));
    offer.getJsonObject("terms").put("Reserved", new JsonObject().put(sku, terms));
    Path file = Files.createTempFile("aws-reserved", ".json");
    try {
      Files.writeString(file, offer.encode());
      VendorQuotes vq = parse(file);
      assertEquals(3, vq.quotes().size(), vq.quotes().toString());
      // 1yr: All Upfront 170000/year = 19.41/hour beats No Upfront 20.5/hour
      Quote yearly = only(vq, "p4d.24xlarge", Billing.YEARLY);
      assertEquals(Money.of("170000", "USD"), yearly.price());
      assertEquals(PriceUnit.YEAR, yearly.unit());
      assertEquals(Money.of("170000", "USD"), yearly.upfront(), "All Upfront: the fee is due when the term starts");
      // 3yr Partial Upfront: 171000 / 3 + 6.5 x 8760 = 57000 + 56940 per year
      Quote threeYears = only(vq, "p4d.24xlarge", Billing.THREE_YEARS);
      assertEquals(Money.of("113940", "USD"), threeYears.price());
      assertEquals(PriceUnit.YEAR, threeYears.unit());
      assertEquals(Money.of("171000", "USD"), threeYears.upfront(), "Partial Upfront: the fee, the hourly part paid as used");
      assertTrue(vq.rejected().contains("skipped 1 product: a cheaper standard purchase option of the same term was kept "
          + "(first: terms.Reserved." + sku + ".NOUP1YR (p4d.24xlarge) No Upfront)"), vq.rejected().toString());
      assertTrue(vq.rejected().stream().anyMatch(r -> r.startsWith("skipped 1 product: OfferingClass is not standard")));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void prices_no_upfront_reservation_per_hour() throws IOException {
    JsonObject offer = new JsonObject(Files.readString(US_EAST_1));
    String sku = "H7NGEAC6UEHNTKSJ";
    offer.getJsonObject("terms").put("Reserved", new JsonObject().put(sku, new JsonObject()
        .put(sku + ".NOUP3YR", reserved(sku, "NOUP3YR", "3yr", "No Upfront", "standard", "11.5", null))));
    Path file = Files.createTempFile("aws-reserved", ".json");
    try {
      Files.writeString(file, offer.encode());
      Quote q = only(parse(file), "p4d.24xlarge", Billing.THREE_YEARS);
      assertEquals(Money.of("11.5", "USD"), q.price());
      assertEquals(PriceUnit.HOUR, q.unit());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** One Reserved term in the offer-file form: an hourly dimension and, when given, an upfront fee. */
  static JsonObject reserved(String sku, String code, String lease, String option, String cls, String hourly,
                             String upfront) {
    JsonObject dims = new JsonObject().put(sku + "." + code + ".6YS6EN2CT7", new JsonObject()
        .put("rateCode", sku + "." + code + ".6YS6EN2CT7").put("description", "p4d.24xlarge reserved hour")
        .put("beginRange", "0").put("endRange", "Inf").put("unit", "Hrs")
        .put("pricePerUnit", new JsonObject().put("USD", hourly)).put("appliesTo", new JsonArray()));
    if (upfront != null) {
      dims.put(sku + "." + code + ".2TG2D8R56U", new JsonObject()
          .put("rateCode", sku + "." + code + ".2TG2D8R56U").put("description", "Upfront Fee")
          .put("unit", "Quantity").put("pricePerUnit", new JsonObject().put("USD", upfront))
          .put("appliesTo", new JsonArray()));
    }
    return new JsonObject().put("offerTermCode", code).put("sku", sku).put("effectiveDate", "2024-05-01T00:00:00Z")
        .put("priceDimensions", dims)
        .put("termAttributes", new JsonObject().put("LeaseContractLength", lease).put("OfferingClass", cls)
            .put("PurchaseOption", option));
  }

  @Test
  void maps_every_gpu_family_to_a_catalog_card() {
    AwsPriceListFormat.GPU_FAMILIES.forEach((family, id) ->
        assertTrue(catalog.find(id).isPresent(), family + " -> " + id + " is not in config/gpus.yaml"));
    VendorDefinition bad = VendorDefinition.from(def.config().copy().put("gpuFamilies", new JsonObject().put("g6f", "l4-eighth")),
        def.where());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new AwsPriceListFactory().create(null, bad, catalog));
    assertTrue(e.getMessage().contains("gpuFamilies.g6f"), e.getMessage());
  }

  @Test
  void fails_on_garbage_and_missing_products() throws IOException {
    Path file = Files.createTempFile("aws-bad", ".json");
    try {
      Files.writeString(file, "<html>not an offer file</html>");
      assertThrows(IllegalArgumentException.class, () -> parse(file));
      Files.writeString(file, "{\"formatVersion\":\"v1.0\",\"terms\":{}}");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(file));
      assertTrue(e.getMessage().contains("terms before products"), e.getMessage());
      Files.writeString(file, "sep=,\nnot,a,price,list\n");
      e = assertThrows(IllegalArgumentException.class, () -> parseCsv(file));
      assertTrue(e.getMessage().contains("no header row starting with SKU"), e.getMessage());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void fetches_through_vertx(Vertx vertx, VertxTestContext ctx) {
    VendorAdapter adapter = new AwsPriceListFactory().create(vertx, with("source", US_EAST_1.toString()), catalog);
    adapter.fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(1, vq.quotes().size());
      assertEquals(Money.of("32.7726", "USD"), vq.quotes().get(0).price());
      assertEquals("aws-price-list:" + US_EAST_1, vq.quotes().get(0).source());
      assertTrue(Files.exists(US_EAST_1), "a file source is used in place, never deleted");
      ctx.completeNow();
    })));
  }

  @Test
  void downloads_http_source_to_temp_file(Vertx vertx, VertxTestContext ctx) {
    // a loopback server stands in for pricing.us-east-1.amazonaws.com
    vertx.createHttpServer()
        .requestHandler(req -> req.response().sendFile(US_EAST_1.toString()))
        .listen(0, "127.0.0.1")
        .compose(server -> {
          String url = "http://127.0.0.1:" + server.actualPort() + "/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.json";
          return new AwsPriceListFactory().create(vertx, with("source", url), catalog).fetch()
              .map(vq -> Map.entry(url, vq));
        })
        .onComplete(ctx.succeeding(e -> ctx.verify(() -> {
          VendorQuotes vq = e.getValue();
          assertEquals(1, vq.quotes().size());
          assertEquals(Money.of("32.7726", "USD"), vq.quotes().get(0).price());
          assertEquals("aws-price-list:" + e.getKey(), vq.quotes().get(0).source());
          ctx.completeNow();
        })));
  }

  // ------------------------------------------------------------------ streaming a large file

  static final int PRODUCTS = 120_000;

  /**
   * Streams a generated offer file of {@link #PRODUCTS} products (~200 MB, built from the real
   * us-east-1 sample's product and term with new SKUs) in a child JVM limited to 32 MB of heap:
   * holding the file, or a tree of it, would not fit.
   */
  @Test
  @Slow
  void streams_large_offer_file_in_small_heap(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("index.json");
    long t0 = System.nanoTime();
    generate(file, PRODUCTS);
    long genMs = (System.nanoTime() - t0) / 1_000_000;
    long size = Files.size(file);
    assertTrue(size > 100_000_000L, "generated " + size + " bytes");

    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx32m", "-XX:+UseSerialGC", "-cp", cp,
        AwsPriceListFormatTest.class.getName(), file.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
    assertEquals(0, p.exitValue(), out);
    String last = out.strip().lines().reduce((a, b) -> b).orElse("");
    System.out.println("aws-price-list streaming: " + size / 1_000_000 + " MB generated in " + genMs + " ms; " + last);
    // every 40th product is a priced Linux GPU instance; the rest are skipped by reason
    assertTrue(last.startsWith("quotes=" + PRODUCTS / 40 + " rejected=3 "), out);
  }

  /** Child JVM entry: parse one file, print counts, parse time and peak heap. */
  public static void main(String[] args) {
    GpuCatalog cat = GpuCatalog.load(Path.of("config/gpus.yaml"));
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/aws.yaml"));
    long t0 = System.nanoTime();
    VendorQuotes vq = AwsPriceListFormat.parse(Payload.of(Path.of(args[0])), d, cat, Instant.now());
    long ms = (System.nanoTime() - t0) / 1_000_000;
    long peak = 0;
    StringBuilder pools = new StringBuilder();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() != MemoryType.HEAP) continue;
      peak += pool.getPeakUsage().getUsed();
      pools.append(' ').append(pool.getName().replace(' ', '-')).append('=').append(pool.getPeakUsage().getUsed() / 1024 / 1024);
    }
    for (String r : vq.rejected()) System.out.println(r);
    System.out.println("quotes=" + vq.quotes().size() + " rejected=" + vq.rejected().size() + " parseMs=" + ms
        + " peakHeapMB=" + peak / (1024 * 1024) + " maxHeapMB=" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
        + " peakMBByPool:" + pools);
  }

  /**
   * Writes an offer file in the real sample's layout: its header fields, then {@code n} copies of
   * its first product and OnDemand term with new SKUs. Product i is a priced GPU instance when
   * i % 40 == 0, a Windows variant when 1, a Capacity Block when 2, else a CPU-only instance.
   */
  static void generate(Path file, int n) throws IOException {
    JsonObject sample = new JsonObject(Files.readString(US_EAST_1));
    JsonObject product = sample.getJsonObject("products").getJsonObject("H7NGEAC6UEHNTKSJ");
    JsonObject term = sample.getJsonObject("terms").getJsonObject("OnDemand").getJsonObject("H7NGEAC6UEHNTKSJ")
        .getJsonObject("H7NGEAC6UEHNTKSJ.JRTCKXETXF");
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("{\n");
      for (String f : List.of("formatVersion", "disclaimer", "offerCode", "version", "publicationDate")) {
        w.write("  \"" + f + "\" : " + Json.encode(sample.getString(f)) + ",\n");
      }
      w.write("  \"products\" : {\n");
      for (int i = 0; i < n; i++) {
        String sku = sku(i);
        JsonObject p = product.copy().put("sku", sku);
        JsonObject a = p.getJsonObject("attributes");
        switch (i % 40) {
          case 0 -> a.put("instanceType", "p4d." + i + "xlarge");
          case 1 -> a.put("instanceType", "p4d." + i + "xlarge").put("operatingSystem", "Windows");
          case 2 -> a.put("instanceType", "p4d." + i + "xlarge").put("marketoption", "CapacityBlock");
          default -> a.put("instanceType", "c5." + i + "xlarge").put("instanceFamily", "Compute optimized")
              .put("gpu", "0").put("usagetype", "BoxUsage:c5." + i + "xlarge");
        }
        w.write("    \"" + sku + "\" : " + p.encode() + (i + 1 < n ? ",\n" : "\n"));
      }
      w.write("  },\n  \"terms\" : {\n    \"OnDemand\" : {\n");
      for (int i = 0; i < n; i++) {
        String sku = sku(i);
        String text = term.encode().replace("H7NGEAC6UEHNTKSJ", sku);
        w.write("      \"" + sku + "\" : {\"" + sku + ".JRTCKXETXF\" : " + text + "}" + (i + 1 < n ? ",\n" : "\n"));
      }
      w.write("    }\n  },\n  \"attributesList\" : { }\n}\n");
    }
  }

  static String sku(int i) {
    return String.format("GEN%013d", i);
  }
}
