package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One number rule in every format ({@link Decimals}): the same three spellings written into a
 * recorded CSV (a SkyPilot catalog), a recorded JSON (RunPod's gpuTypes) and a YAML vendor file
 * (the guide's static sheet) are read the same way: "1,123.00" is 1123.00, "1,5" and "$1.00" are
 * refused with the same reason.
 */
class NumberRuleTest {

  static final Path DATA = Path.of("../shared/data");
  static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
  static GpuCatalog catalog;

  @TempDir
  static Path tmp;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  static final String GROUPED = "1,123.00", DECIMAL_COMMA = "1,5", DOLLAR = "$1.00";
  static final String COMMA_WHY = "'1,5' is not a number (a comma that is no thousands separator)";
  static final String DOLLAR_WHY = "'$1.00' is not a number (a currency sign or code in a number cell (the currency is the vendor's))";

  @Test
  void a_csv_catalog_reads_the_three_spellings_by_the_rule() throws Exception {
    List<String> lines = Files.readAllLines(DATA.resolve("skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv"));
    // rows 2-4 of the recorded file are gpu_8x_v100_n at 6.32 in three regions
    for (int i = 1; i <= 3; i++) assertTrue(lines.get(i).startsWith("gpu_8x_v100_n,V100,8.0,88.0,448.0,6.32,"), lines.get(i));
    lines.set(1, lines.get(1).replace(",6.32,", ",\"" + GROUPED + "\","));
    lines.set(2, lines.get(2).replace(",6.32,", ",\"" + DECIMAL_COMMA + "\","));
    lines.set(3, lines.get(3).replace(",6.32,", "," + DOLLAR + ","));
    Path csv = tmp.resolve("lambda.csv");
    Files.write(csv, lines);
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
    d = VendorDefinition.from(d.config().copy().put("source", csv.toString()), d.where());
    VendorQuotes vq = SkyPilotCatalogFormat.parse(Payload.of(csv), d, catalog, AT).vendorQuotes();
    assertEquals(new BigDecimal("1123.00"), onDemand(vq, "gpu_8x_v100_n", "europe-central-1"));
    assertTrue(vq.rejected().stream().anyMatch(r -> r.startsWith("line 3 ") && r.endsWith(COMMA_WHY)), vq.rejected().toString());
    assertTrue(vq.rejected().stream().anyMatch(r -> r.startsWith("line 4 ") && r.endsWith(DOLLAR_WHY)), vq.rejected().toString());
  }

  @Test
  void a_json_payload_reads_the_three_spellings_by_the_rule() throws Exception {
    JsonArray types = new JsonArray(Files.readString(DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json")));
    JsonObject rtx4090 = types.stream().map(JsonObject.class::cast).filter(t -> t.getString("id").equals("NVIDIA GeForce RTX 4090"))
        .findFirst().orElseThrow();
    rtx4090.put("securePrice", GROUPED).put("communityPrice", DECIMAL_COMMA).put("secureSpotPrice", DOLLAR);
    Path json = tmp.resolve("runpod.json");
    Files.writeString(json, types.encode());
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/runpod.yaml"));
    VendorQuotes vq = RunPodFormat.parse(Payload.of(json), d, catalog, AT);
    Quote secure = vq.quotes().stream().filter(q -> q.offerId().equals("NVIDIA GeForce RTX 4090/secure") && q.billing() == Billing.ON_DEMAND)
        .findFirst().orElseThrow();
    assertEquals(new BigDecimal("1123.00"), secure.price().amount());
    String where = "gpuTypes[" + types.getList().indexOf(rtx4090.getMap()) + "] (NVIDIA GeForce RTX 4090): ";
    assertTrue(vq.rejected().contains(where + "communityPrice " + COMMA_WHY), vq.rejected().toString());
    assertTrue(vq.rejected().contains(where + "secureSpotPrice " + DOLLAR_WHY), vq.rejected().toString());
  }

  @Test
  void a_yaml_vendor_file_reads_the_three_spellings_by_the_rule() throws Exception {
    String yaml = Files.readString(Path.of("adapters/guide-reference.yaml"))
        .replace("prices: {on-demand: 3/hour, monthly: 1500/month, spot: 0.8/hour}", "prices: {on-demand: \"" + GROUPED + "/hour\"}")
        .replace("prices: {on-demand: 6/hour, monthly: 3000/month, spot: 1.6/hour}", "prices: {on-demand: \"" + DECIMAL_COMMA + "/hour\"}");
    Path file = tmp.resolve("guide-reference.yaml");
    Files.writeString(file, yaml);
    VendorDefinition d = VendorDefinition.load(file);
    VendorQuotes vq = StaticSheetFormat.create(d, catalog, Clock.fixed(AT, ZoneOffset.UTC)).fetch().result();
    Quote rtx4090 = vq.quotes().stream().filter(q -> q.offerId().equals("rtx-4090")).findFirst().orElseThrow();
    assertEquals(new BigDecimal("1123.00"), rtx4090.price().amount());
    assertTrue(vq.rejected().stream().anyMatch(r -> r.endsWith("price '1,5/hour' is not a number (a comma that is no thousands separator)")),
        vq.rejected().toString());
    // and a vendor file's terms: the same rule, the same words
    Path terms = tmp.resolve("terms.yaml");
    Files.writeString(terms, Files.readString(Path.of("adapters/guide-reference.yaml")).replaceFirst("storagePerGbMonth: [^#\\n]*", "storagePerGbMonth: \"\\$1.00\" "));
    String refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> VendorDefinition.load(terms)).getMessage();
    assertTrue(refused.endsWith("storagePerGbMonth: must be a number, none or unknown, got '$1.00' (a currency sign or code in a number cell (the currency is the vendor's))"), refused);
  }

  @Test
  void a_vendor_file_refuses_a_service_price_above_the_ceiling_with_the_figure() throws Exception {
    Path terms = tmp.resolve("absurd.yaml");
    Files.writeString(terms, Files.readString(Path.of("adapters/guide-reference.yaml")).replaceFirst("storagePerGbMonth: [^#\\n]*", "storagePerGbMonth: 1e308 "));
    String refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> VendorDefinition.load(terms)).getMessage();
    assertTrue(refused.endsWith("storagePerGbMonth: above the price ceiling: 1E308 CNY is above the ceiling of 10000000 in any currency per GB or GB-month: no price"), refused);
  }

  private static BigDecimal onDemand(VendorQuotes vq, String offer, String region) {
    return vq.quotes().stream().filter(q -> q.offerId().equals(offer) && q.region().equals(region) && q.billing() == Billing.ON_DEMAND)
        .findFirst().orElseThrow(() -> new AssertionError(offer + " " + region + ": " + vq.rejected())).price().amount();
  }
}
