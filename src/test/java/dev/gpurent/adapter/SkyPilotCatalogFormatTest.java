package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code skypilot-catalog} kind against every recorded SkyPilot {@code vms.csv} in
 * {@code ../shared/data/skypilot-catalog-format}, read through the shipped vendor YAML files.
 */
@ExtendWith(VertxExtension.class)
class SkyPilotCatalogFormatTest {

  private static final Path DATA = Path.of("../shared/data/skypilot-catalog-format");
  private static final Instant AT = Instant.parse("2026-05-20T00:00:00Z");
  private static GpuCatalog catalog;

  @BeforeAll
  static void loadCatalog() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  /** The shipped vendor YAML, pointed at a sample file, with extra keys. */
  private static VendorDefinition def(String vendor, String sample, Object... extra) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + vendor + ".yaml"));
    JsonObject c = d.config().copy().put("source", DATA.resolve(sample).toString());
    for (int i = 0; i < extra.length; i += 2) c.put((String) extra[i], extra[i + 1]);
    return VendorDefinition.from(c, d.where());
  }

  /**
   * RunPod ships its own GraphQL adapter as adapters/runpod.yaml, so its SkyPilot CSV is read here
   * with a definition built in the test (terms borrowed from lambda.yaml, irrelevant to parsing).
   */
  private static VendorDefinition runpodDef() {
    VendorDefinition lambda = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
    JsonObject c = lambda.config().copy()
        .put("vendor", "runpod-skypilot-test").put("name", "RunPod (SkyPilot catalog, test only)")
        .put("source", DATA.resolve("skypilot-org/v8/runpod/vms.first48rows.csv").toString())
        // GpuInfo names the card 'A100 PCIe': SkyPilot's "A100-80GB" here is the PCIe board.
        .put("gpuByInstanceType", new JsonArray().add(new JsonObject().put("match", "^\\d+x_A100-80GB_").put("gpu", "a100-80g-pcie")));
    return VendorDefinition.from(c, Path.of("test:runpod-skypilot"));
  }

  private static SkyPilotCatalogFormat.Result parse(VendorDefinition d) {
    return SkyPilotCatalogFormat.parse(Payload.of(Path.of(d.config().getString("source"))), d, catalog, AT);
  }

  /** A CSV text, cited as the vendor's source as a fetch of it would be. */
  private static SkyPilotCatalogFormat.Result parse(String csv, VendorDefinition d) {
    return SkyPilotCatalogFormat.parse(Payload.of(Buffer.buffer(csv), d.config().getString("source")), d, catalog, AT);
  }

  private static Quote one(SkyPilotCatalogFormat.Result r, String offer, String region, Billing billing) {
    List<Quote> found = r.quotes().stream()
        .filter(q -> q.offerId().equals(offer) && q.region().equals(region) && q.billing() == billing).toList();
    assertEquals(1, found.size(), offer + " in " + region + " " + billing + ": " + found);
    return found.get(0);
  }

  private static void assertQuote(Quote q, String price, String gpuId, double count) {
    assertQuote(q, price, "USD", gpuId, count);
  }

  private static void assertQuote(Quote q, String price, String currency, String gpuId, double count) {
    assertEquals(Money.of(price, currency), q.price(), q.toString());
    assertEquals(gpuId, q.gpuId(), q.toString());
    assertEquals(count, q.gpuCount(), q.toString());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals(AT, q.observedAt());
    assertTrue(q.source().startsWith("skypilot-catalog:../shared/data/skypilot-catalog-format/"), q.source());
  }

  private static long count(SkyPilotCatalogFormat.Result r, Billing billing) {
    return r.quotes().stream().filter(q -> q.billing() == billing).count();
  }

  /** Rows, quotes kept (on-demand, spot), rows rejected, CPU rows skipped, duplicate quotes dropped. */
  private static void assertCounts(SkyPilotCatalogFormat.Result r, int rows, int onDemand, int spot, int rejected,
                                   int cpuRows, int duplicates) {
    String got = "rows=" + r.dataRows() + " onDemand=" + count(r, Billing.ON_DEMAND) + " spot=" + count(r, Billing.SPOT)
        + " rejected=" + r.rejected().size() + " cpu=" + r.cpuRowsSkipped() + " dups=" + r.duplicatesDropped();
    assertEquals("rows=" + rows + " onDemand=" + onDemand + " spot=" + spot + " rejected=" + rejected + " cpu=" + cpuRows
        + " dups=" + duplicates, got);
    assertEquals(onDemand + spot, r.quotes().size());
  }

  @Test
  void covers_every_recorded_vms_csv() throws IOException {
    try (Stream<Path> files = Files.walk(DATA)) {
      Set<String> samples = files.filter(p -> p.toString().endsWith(".csv"))
          .map(p -> DATA.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.equals("skypilot-org/v8/common/accelerators.csv")) // accelerator -> clouds map, not a vms.csv
          .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(new TreeSet<>(List.of(
          "anycloud-sh/azure/vms.gpu.csv", "anycloud-sh/gcp/vms.gpu.csv", "anycloud-sh/lambda/vms.gpu.csv",
          "anycloud-sh/vast/vms.gpu.csv", "skypilot-org/v5/ibm/vms.csv", "skypilot-org/v5/scp/vms.gpu.first-page.csv",
          "skypilot-org/v6/do/vms.csv", "skypilot-org/v6/fluidstack/vms.csv", "skypilot-org/v6/paperspace/vms.csv",
          "skypilot-org/v8/cudo/vms.first36rows.csv", "skypilot-org/v8/hyperbolic/vms.csv",
          "skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv", "skypilot-org/v8/runpod/vms.first48rows.csv",
          "skypilot-org/v8/shadeform/vms.csv", "skypilot-org/v8/primeintellect/vms.csv", "skypilot-org/v8/seeweb/vms.csv",
          "skypilot-org/v8/hyperstack/vms.csv", "skypilot-org/v8/jarvislabs/vms.csv", "skypilot-org/v8/mithril/vms.csv",
          "skypilot-org/v8/spheron/vms.csv", "skypilot-org/v8/daytona/vms.csv", "skypilot-org/v8/verda/vms.csv")), samples,
          "a new sample needs its own test below");
    }
  }

  @Test
  void parses_azure_catalog_with_unquoted_generation_commas() throws IOException {
    SkyPilotCatalogFormat.Result r = parse(def("azure", "anycloud-sh/azure/vms.gpu.csv"));
    assertCounts(r, 829, 829, 803, 0, 0, 0);
    Quote od = one(r, "Standard_NC12s_v3", "australiaeast", Billing.ON_DEMAND);
    assertQuote(od, "8.468", "v100-pcie-16g", 2);
    assertEquals(12, od.vcpus());
    assertEquals(224, od.ramGiB());
    assertQuote(one(r, "Standard_NC12s_v3", "australiaeast", Billing.SPOT), "1.564886", "v100-pcie-16g", 2);
    assertEquals("azure", od.vendor());
    // Board variants told apart by series (azure.yaml gpuByInstanceType).
    assertEquals("a100-80g-pcie", one(r, "Standard_NC24ads_A100_v4", "eastus", Billing.ON_DEMAND).gpuId());
    assertEquals("a100-80g-sxm", one(r, "Standard_ND96amsr_A100_v4", "eastus", Billing.ON_DEMAND).gpuId());
    assertEquals("h100-nvl", one(r, "Standard_NC40ads_H100_v5", "canadacentral", Billing.ON_DEMAND).gpuId());
    assertQuote(one(r, "Standard_NC40ads_H100_v5", "canadacentral", Billing.ON_DEMAND), "8.59", "h100-nvl", 1);

    // Every one of the 582 rows with an unquoted "V1,V2" (11 fields) is kept.
    List<String> lines = Files.readAllLines(DATA.resolve("anycloud-sh/azure/vms.gpu.csv"));
    List<String[]> wide = lines.stream().skip(1).map(l -> l.split(",", -1)).filter(f -> f.length == 11).toList();
    assertEquals(582, wide.size());
    for (String[] f : wide) {
      assertEquals("V1,V2", f[9] + "," + f[10]);
      Quote q = one(r, f[0], f[8], Billing.ON_DEMAND);
      assertEquals(Money.of(f[6], "USD"), q.price());
    }
  }

  @Test
  void rejects_gcp_gpu_only_rows_by_default() {
    VendorDefinition d = def("gcp", "anycloud-sh/gcp/vms.gpu.csv");
    assertEquals("reject", d.config().getString("gpuOnlyRows"), "as shipped: a GPU without its host VM is no machine");
    SkyPilotCatalogFormat.Result r = parse(d);
    assertCounts(r, 2395, 0, 0, 2395, 0, 0);
    assertEquals("line 2 (A100, asia-northeast1): GPU-only price; the host VM is billed separately", r.rejected().get(0));
    assertTrue(r.rejected().stream().allMatch(s -> s.endsWith(SkyPilotCatalogFormat.GPU_ONLY_REASON)));

    // No gpuOnlyRows key at all: the same.
    JsonObject c = d.config().copy();
    c.remove("gpuOnlyRows");
    assertEquals(2395, parse(VendorDefinition.from(c, d.where())).rejected().size());
  }

  @Test
  void keeps_gcp_gpu_only_rows_when_the_yaml_says_keep() {
    VendorDefinition d = def("gcp", "anycloud-sh/gcp/vms.gpu.csv", "gpuOnlyRows", "keep");
    SkyPilotCatalogFormat.Result r = parse(d);
    // 747 GPU rows (1648 TPU rows rejected); one quote per region, the zones' repeats dropped.
    assertCounts(r, 2395, 382, 377, 1648, 0, 729);
    Quote od = one(r, "A100 x1 (GPU only, host VM extra)", "asia-northeast1", Billing.ON_DEMAND);
    assertQuote(od, "1.70586", "a100-40g-sxm", 1);
    assertEquals(0, od.vcpus());
    assertQuote(one(r, "A100 x1 (GPU only, host VM extra)", "asia-northeast1", Billing.SPOT), "1.3974", "a100-40g-sxm", 1);
    assertTrue(r.rejected().get(0).startsWith("line 749 (tpu-v2-8, asia-east1): unknown GPU 'tpu-v2-8'"), r.rejected().get(0));
    assertTrue(r.quotes().stream().allMatch(q -> q.offerId().endsWith("(GPU only, host VM extra)")));
  }

  @Test
  void parses_lambda_catalog() {
    SkyPilotCatalogFormat.Result r = parse(def("lambda", "anycloud-sh/lambda/vms.gpu.csv"));
    assertCounts(r, 391, 391, 0, 0, 0, 0);
    Quote q = one(r, "gpu_8x_v100_n", "europe-central-1", Billing.ON_DEMAND);
    assertQuote(q, "6.32", "v100-16g", 8);
    assertEquals(88, q.vcpus());
    assertEquals(448, q.ramGiB());
    assertEquals("lambda", q.vendor());
    assertEquals("h100-pcie", r.quotes().stream().filter(x -> x.offerId().equals("gpu_1x_h100_pcie")).findFirst().orElseThrow().gpuId());
    assertEquals("h100-sxm", r.quotes().stream().filter(x -> x.offerId().equals("gpu_8x_h100_sxm5")).findFirst().orElseThrow().gpuId());
    assertEquals("a100-40g-pcie", r.quotes().stream().filter(x -> x.offerId().equals("gpu_1x_a100")).findFirst().orElseThrow().gpuId());
    assertEquals("a100-40g-sxm", r.quotes().stream().filter(x -> x.offerId().equals("gpu_8x_a100")).findFirst().orElseThrow().gpuId());
  }

  @Test
  void parses_vast_catalog_without_turning_zero_spot_into_quotes() throws IOException {
    String text = Files.readString(DATA.resolve("anycloud-sh/vast/vms.gpu.csv"));
    assertEquals(64, text.split("\r\n").length - 1);
    assertEquals(64, text.split(",0\\.00,", -1).length - 1, "every Vast row says SpotPrice 0.00");
    SkyPilotCatalogFormat.Result r = parse(def("vast", "anycloud-sh/vast/vms.gpu.csv"));
    assertCounts(r, 64, 64, 0, 0, 0, 0);
    // Quoted region with commas; an empty state (", CA, NA") is dropped.
    assertQuote(one(r, "1x-RTX_5090-32-65536", "Denmark, DK, EU", Billing.ON_DEMAND), "0.44", "rtx-5090", 1);
    assertQuote(one(r, "1x-RTX_5090-32-65536", "CA, NA", Billing.ON_DEMAND), "0.44", "rtx-5090", 1);
    // One instance type, two boards: GpuInfo's memory picks the card (vast.yaml gpuByInstanceType).
    assertQuote(one(r, "1x-A100_SXM4-32-65536", "Czechia, CZ, EU", Billing.ON_DEMAND), "0.93", "a100-80g-sxm", 1);
    assertQuote(one(r, "1x-A100_SXM4-32-65536", "Georgia, US, NA", Billing.ON_DEMAND), "0.93", "a100-40g-sxm", 1);
    assertQuote(one(r, "2x-A100_PCIE-32-65536", "South Korea, KR, AS", Billing.ON_DEMAND), "1.33", "a100-40g-pcie", 2);
    assertEquals("h100-nvl", one(r, "1x-H100_NVL-32-65536", "Bulgaria, BG, EU", Billing.ON_DEMAND).gpuId());
    assertEquals("rtx-3060-ti", one(r, "1x-RTX_3060_Ti-32-65536", "Ontario, CA, NA", Billing.ON_DEMAND).gpuId());
  }

  @Test
  void resolves_ibm_rows_with_empty_region_from_their_zone() {
    SkyPilotCatalogFormat.Result r = parse(def("ibm", "skypilot-org/v5/ibm/vms.csv"));
    // 27 GPU rows = 9 regions x 3 zones: 9 quotes, 18 zone repeats dropped; 27 CPU profiles skipped.
    assertCounts(r, 54, 9, 0, 0, 27, 18);
    assertEquals(Set.of("us-south", "us-east", "ca-tor", "eu-de", "eu-gb", "jp-osa", "jp-tok", "au-syd", "br-sao"),
        r.quotes().stream().map(Quote::region).collect(Collectors.toSet()));
    assertQuote(one(r, "gx2-8x64x1v100", "br-sao", Billing.ON_DEMAND), "2.996", "v100-pcie-16g", 1);

    // A row whose Region is empty (line 21: jp-tok-2), on its own, lands in jp-tok.
    String csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
        + "gx2-8x64x1v100,V100,1.0,8,64,V100,2.821,,,jp-tok-2\n";
    SkyPilotCatalogFormat.Result alone = parse(csv, def("ibm", "skypilot-org/v5/ibm/vms.csv"));
    assertQuote(one(alone, "gx2-8x64x1v100", "jp-tok", Billing.ON_DEMAND), "2.821", "v100-pcie-16g", 1);
  }

  @Test
  void parses_scp_catalog() {
    SkyPilotCatalogFormat.Result r = parse(def("scp", "skypilot-org/v5/scp/vms.gpu.first-page.csv"));
    assertCounts(r, 8, 8, 0, 0, 0, 0);
    assertQuote(one(r, "g1v8v1", "KOREA-WEST-1-SCP-B001", Billing.ON_DEMAND), "2.27", "v100-32g", 1);
    assertQuote(one(r, "g1v128a8", "KOREA-WEST-1-SCP-B001", Billing.ON_DEMAND), "17.28", "a100-80g-sxm", 8);
  }

  @Test
  void parses_digitalocean_catalog_skipping_cpu_droplets() {
    SkyPilotCatalogFormat.Result r = parse(def("digitalocean", "skypilot-org/v6/do/vms.csv"));
    assertCounts(r, 38, 2, 0, 0, 36, 0);
    Quote q = one(r, "gpu-h100x8-640gb", "tor1", Billing.ON_DEMAND);
    assertQuote(q, "47.60", "h100-sxm", 8);
    assertEquals("digitalocean", q.vendor());
    assertQuote(one(r, "gpu-h100x1-80gb", "tor1", Billing.ON_DEMAND), "6.74", "h100-sxm", 1);
  }

  @Test
  void parses_fluidstack_catalog() {
    SkyPilotCatalogFormat.Result r = parse(def("fluidstack", "skypilot-org/v6/fluidstack/vms.csv"));
    assertCounts(r, 23, 23, 0, 0, 0, 0);
    assertQuote(one(r, "H100_PCIE_80GB::1", "UTAH_USA", Billing.ON_DEMAND), "2.89", "h100-pcie", 1);
    assertTrue(r.quotes().stream().filter(q -> q.offerId().startsWith("A100_PCIE_80GB")).allMatch(q -> q.gpuId().equals("a100-80g-pcie")));
    assertTrue(r.quotes().stream().filter(q -> q.offerId().startsWith("H100_NVLINK_80GB")).allMatch(q -> q.gpuId().equals("h100-sxm")));
  }

  @Test
  void parses_paperspace_catalog_with_price_in_last_column() {
    SkyPilotCatalogFormat.Result r = parse(def("paperspace", "skypilot-org/v6/paperspace/vms.csv"));
    assertCounts(r, 19, 14, 0, 0, 5, 0);
    assertQuote(one(r, "A100-80G", "East Coast (NY2)", Billing.ON_DEMAND), "3.18", "a100-80g-sxm", 1);
    assertQuote(one(r, "A100-80Gx8", "East Coast (NY2)", Billing.ON_DEMAND), "25.44", "a100-80g-sxm", 8);
    assertEquals("quadro-m4000", one(r, "GPU+", "East Coast (NY2)", Billing.ON_DEMAND).gpuId());
  }

  @Test
  void parses_cudo_catalog() {
    SkyPilotCatalogFormat.Result r = parse(def("cudo", "skypilot-org/v8/cudo/vms.first36rows.csv"));
    assertCounts(r, 36, 36, 0, 0, 0, 0);
    // The price keeps the catalog's own digits (a float artefact upstream), exactly.
    assertQuote(one(r, "ice-lake-a40-compute_1x2v4gb", "ca-montreal-3", Billing.ON_DEMAND), "0.36979999999999996", "a40", 1);
    assertQuote(one(r, "epyc-genoa-a100-pcie_1x2v4gb", "no-kristiansand-1", Billing.ON_DEMAND), "1.5294", "a100-80g-pcie", 1);
  }

  @Test
  void parses_hyperbolic_catalog_with_storage_column() {
    SkyPilotCatalogFormat.Result r = parse(def("hyperbolic", "skypilot-org/v8/hyperbolic/vms.csv"));
    assertCounts(r, 3, 3, 0, 0, 0, 0);
    Quote q = one(r, "3x-H100-224-2165", "default", Billing.ON_DEMAND);
    assertQuote(q, "3.87", "h100-sxm", 3);
    assertEquals(2165, q.ramGiB());
  }

  @Test
  void parses_oci_catalog_with_preemptible_prices() {
    SkyPilotCatalogFormat.Result r = parse(def("oci", "skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv"));
    assertCounts(r, 21, 21, 4, 0, 0, 0);
    assertQuote(one(r, "VM.GPU3.1", "af-casablanca-1", Billing.ON_DEMAND), "2.95", "v100-16g", 1);
    assertQuote(one(r, "VM.GPU3.1", "af-casablanca-1", Billing.SPOT), "1.475", "v100-16g", 1);
    assertQuote(one(r, "BM.GPU.MI355X.8", "af-casablanca-1", Billing.ON_DEMAND), "68.8", "mi355x", 8);
  }

  @Test
  void keeps_one_runpod_quote_per_region_across_zones() {
    SkyPilotCatalogFormat.Result r = parse(runpodDef());
    // 48 rows in 14 countries; each zone repeat of (offer, region, billing) is dropped: 96 - 28 = 68.
    assertCounts(r, 48, 14, 14, 0, 0, 68);
    assertQuote(one(r, "1x_A100-80GB_SECURE", "IN", Billing.ON_DEMAND), "1.39", "a100-80g-pcie", 1);
    assertQuote(one(r, "1x_A100-80GB_SECURE", "IN", Billing.SPOT), "1.39", "a100-80g-pcie", 1);
    assertQuote(one(r, "1x_A100-80GB_SECURE", "CA", Billing.ON_DEMAND), "1.39", "a100-80g-pcie", 1);
  }

  @Test
  void parses_crlf_and_lf_files_identically() throws IOException {
    for (String[] s : new String[][] {{"lambda", "anycloud-sh/lambda/vms.gpu.csv"}, {"vast", "anycloud-sh/vast/vms.gpu.csv"},
        {"fluidstack", "skypilot-org/v6/fluidstack/vms.csv"}, {"hyperbolic", "skypilot-org/v8/hyperbolic/vms.csv"},
        {"azure", "anycloud-sh/azure/vms.gpu.csv"}, {"ibm", "skypilot-org/v5/ibm/vms.csv"},
        {"hyperstack", "skypilot-org/v8/hyperstack/vms.csv"}, {"spheron", "skypilot-org/v8/spheron/vms.csv"},
        {"primeintellect", "skypilot-org/v8/primeintellect/vms.csv"}}) {
      VendorDefinition d = def(s[0], s[1]);
      String text = Files.readString(DATA.resolve(s[1]), StandardCharsets.UTF_8);
      String lf = text.replace("\r\n", "\n");
      String crlf = lf.replace("\n", "\r\n");
      SkyPilotCatalogFormat.Result fromLf = parse(lf, d);
      SkyPilotCatalogFormat.Result fromCrlf = parse(crlf, d);
      SkyPilotCatalogFormat.Result fromFile = parse(d);
      assertFalse(fromLf.quotes().isEmpty(), s[1]);
      assertEquals(fromLf.quotes(), fromCrlf.quotes(), s[1]);
      assertEquals(fromLf.quotes(), fromFile.quotes(), s[1]);
      assertEquals(fromLf.rejected(), fromCrlf.rejected(), s[1]);
      assertEquals(fromLf.cpuRowsSkipped(), fromCrlf.cpuRowsSkipped(), s[1]);
    }
  }

  /** Every data row of a recorded file, read by header name with the adapter's own CSV reader. */
  private static List<java.util.Map<String, String>> rows(String sample) throws IOException {
    try (CsvRows csv = CsvRows.of(Files.newBufferedReader(DATA.resolve(sample), StandardCharsets.UTF_8))) {
      List<String> header = csv.next().cells();
      List<java.util.Map<String, String>> out = new java.util.ArrayList<>();
      for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) {
        if (r.blank()) continue;
        List<String> f = r.cells();
        java.util.Map<String, String> row = new java.util.LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) row.put(header.get(i), i < f.size() ? f.get(i) : "");
        row.put("line", Integer.toString(r.line()));
        out.add(row);
      }
      return out;
    }
  }

  /** The lines of the GPU rows with more than one GPU: where a per-machine memory figure reads as a per-GPU one. */
  private static Set<String> multiGpuLines(String sample) throws IOException {
    return rows(sample).stream().filter(r -> !r.get("AcceleratorName").isEmpty() && Double.parseDouble(r.get("AcceleratorCount")) > 1)
        .map(r -> "line " + r.get("line")).collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> lines(List<String> messages) {
    return messages.stream().map(m -> m.substring(0, m.indexOf(" ("))).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void parses_shadeform_catalog_with_the_upstream_of_every_resold_offer() throws IOException {
    SkyPilotCatalogFormat.Result r = parse(def("shadeform", "skypilot-org/v8/shadeform/vms.csv"));
    assertCounts(r, 259, 259, 0, 0, 0, 0);
    Quote h100 = one(r, "lambdalabs_H100-sxm5x8", "austin-usa-1", Billing.ON_DEMAND);
    assertQuote(h100, "23.92", "h100-sxm", 8);
    assertEquals("lambdalabs", h100.upstream());
    assertEquals("shadeform", h100.vendor());
    // Hyperstack's plain H100 is its PCIe card (shadeform.yaml); its -sxm5 type stays SXM.
    assertQuote(one(r, "hyperstack_H100", "montreal-canada-2", Billing.ON_DEMAND), "1.9", "h100-pcie", 1);
    assertQuote(one(r, "hyperstack_H100-sxm5x8", "houston-usa-3", Billing.ON_DEMAND), "19.2", "h100-sxm", 8);
    Quote a16 = one(r, "vultr_A16x4", "frankfurt-germany-6", Billing.ON_DEMAND);
    assertQuote(a16, "2.05", "a16", 4);
    assertEquals("vultr", a16.upstream());
    // Every quote names its upstream: the cloud before the first "_" of its instance type.
    assertTrue(r.quotes().stream().allMatch(q -> !q.upstream().isEmpty() && q.offerId().startsWith(q.upstream() + "_")));
    assertEquals(18, r.quotes().stream().map(Quote::upstream).distinct().count());
    // GpuInfo states GB in the MiB fields (SizeInMiB 48 for an A6000): read as such, no disagreement.
    assertEquals(List.of(), r.memoryDisagreements());
  }

  @Test
  void parses_primeintellect_catalog_by_column_name_with_spot_only_rows_and_countries() throws IOException {
    String sample = "skypilot-org/v8/primeintellect/vms.csv";
    SkyPilotCatalogFormat.Result r = parse(def("primeintellect", sample));
    // 190 rows: 75 CPU (AcceleratorCount 0.0, no name), 115 GPU: 100 with a Price, 15 __SPOT with only a SpotPrice.
    assertCounts(r, 190, 100, 15, 0, 75, 0);
    Quote lambda = one(r, "lambdalabs__8xH100_80GB__208__1800", "us-west-3", Billing.ON_DEMAND);
    assertQuote(lambda, "23.92", "h100-sxm", 8);
    assertEquals("lambdalabs", lambda.upstream());
    assertEquals("US", lambda.country());
    // A spot-only type: one spot quote, no on-demand one.
    Quote spot = one(r, "datacrunch__8xH100_80GB__176__1480__SPOT", "ICE-01", Billing.SPOT);
    assertQuote(spot, "6.84", "h100-sxm", 8);
    assertEquals("datacrunch", spot.upstream());
    assertEquals("IS", spot.country());
    assertTrue(r.quotes().stream().noneMatch(q -> q.offerId().endsWith("__SPOT") && q.billing() == Billing.ON_DEMAND));
    // The upstream's own type tells the board (UpstreamCloudId n3-H100x4 is Hyperstack's PCIe card, A100_PCIE_80GB Oblivus's).
    assertQuote(one(r, "hyperstack__4xH100_80GB__124__720", "CANADA-1", Billing.ON_DEMAND), "7.6", "h100-pcie", 4);
    assertQuote(one(r, "hyperstack__8xH100_80GB__192__960", "US-1", Billing.ON_DEMAND), "19.2", "h100-sxm", 8);
    // Float noise kept to the catalog's own digits.
    assertQuote(one(r, "oblivus__4xA100_80GB__124__480", "MON1", Billing.ON_DEMAND), "5.8854999999999995", "a100-80g-pcie", 4);
    // The upstream region is the region; one is a UUID, kept as written.
    assertQuote(one(r, "dc_roan__8xH100_80GB__104__1024", "a3111bd4-550a-47d0-838a-0a52bff2ae3f", Billing.ON_DEMAND),
        "15.92", "h100-sxm", 8);
    // SizeInMiB is the machine's total and TotalGpuMemoryInMiB count times that: on every multi-GPU row the
    // card and count are trusted over it, and the disagreement is listed.
    assertEquals(multiGpuLines(sample), lines(r.memoryDisagreements()));
    assertEquals("line 2 (lambdalabs__8xA100_80GB__240__1800, us-midwest-1): GpuInfo states 640 GiB per GPU "
        + "(TotalGpuMemoryInMiB 5242880 over 8 GPUs), a100-80g-sxm has 80; kept as 8 x a100-80g-sxm (the catalog's card and count)",
        r.memoryDisagreements().get(0));
  }

  @Test
  void parses_seeweb_catalog_in_euro() {
    SkyPilotCatalogFormat.Result r = parse(def("seeweb", "skypilot-org/v8/seeweb/vms.csv"));
    assertCounts(r, 69, 21, 0, 0, 48, 0);
    assertQuote(one(r, "ECS1GPU6", "it-fr2", Billing.ON_DEMAND), "0.38", "EUR", "l4", 1);
    // Lowercase "L40s", and ECS1GPU8, which holds 4 H100 whatever its name says.
    assertQuote(one(r, "ECS1GPU7", "it-fr2", Billing.ON_DEMAND), "0.85", "EUR", "l40s", 1);
    assertQuote(one(r, "ECS1GPU8", "it-fr2", Billing.ON_DEMAND), "8.4", "EUR", "h100-pcie", 4);
    // "A100" with 80 GB per GpuInfo (seeweb.yaml): not SkyPilot's 40 GB default.
    assertQuote(one(r, "ECS3GPU3", "it-fr2", Billing.ON_DEMAND), "7.56", "EUR", "a100-80g-pcie", 4);
    assertQuote(one(r, "ECS1GPU", "it-fr2", Billing.ON_DEMAND), "0.29", "EUR", "quadro-rtx-6000", 1);
    assertTrue(r.quotes().stream().allMatch(q -> q.price().currency().equals("EUR")));
    assertEquals(List.of(), r.memoryDisagreements());
  }

  @Test
  void parses_hyperstack_catalog_with_bare_null_in_gpuinfo() {
    SkyPilotCatalogFormat.Result r = parse(def("hyperstack", "skypilot-org/v8/hyperstack/vms.csv"));
    assertCounts(r, 25, 25, 0, 0, 0, 0);
    assertQuote(one(r, "n3-A100x8-NVLink", "CANADA-1", Billing.ON_DEMAND), "11.2", "a100-80g-pcie", 8);
    assertQuote(one(r, "n3-H100x8-NVLink", "CANADA-1", Billing.ON_DEMAND), "15.6", "h100-pcie", 8);
    // One instance type in two regions: two quotes.
    Quote canada = one(r, "n3-H100-SXM5x8", "CANADA-1", Billing.ON_DEMAND);
    assertQuote(canada, "19.2", "h100-sxm", 8);
    assertEquals(1800, canada.ramGiB());
    assertEquals(960, one(r, "n3-H100-SXM5x8", "US-1", Billing.ON_DEMAND).ramGiB());
    assertQuote(one(r, "n3-RTX-A4000x10", "NORWAY-1", Billing.ON_DEMAND), "1.5", "rtx-a4000", 10);
    // 'Manufacturer': null parsed: the memory of every row is read, and agrees with its card.
    assertEquals(List.of(), r.memoryDisagreements());
  }

  @Test
  void parses_jarvislabs_catalog_ending_with_spotprice_then_price() {
    SkyPilotCatalogFormat.Result r = parse(def("jarvislabs", "skypilot-org/v8/jarvislabs/vms.csv"));
    assertCounts(r, 29, 19, 0, 0, 10, 0);
    assertQuote(one(r, "1x_L4_28V_124G", "IN2", Billing.ON_DEMAND), "0.44", "l4", 1);
    assertQuote(one(r, "8x_H200_224V_2400G", "IN2", Billing.ON_DEMAND), "31.92", "h200", 8);
    Quote pro = one(r, "1x_RTXPRO6000_28V_160G", "IN1", Billing.ON_DEMAND);
    assertQuote(pro, "1.89", "rtx-pro-6000", 1);
    assertEquals(28, pro.vcpus());
    assertEquals(160, pro.ramGiB());
  }

  @Test
  void reads_mithril_catalog_as_spot_prices_only() {
    SkyPilotCatalogFormat.Result r = parse(def("mithril", "skypilot-org/v8/mithril/vms.csv"));
    // Price equals SpotPrice on every row (the auction's minimum): one spot quote per row, no on-demand.
    assertCounts(r, 7, 0, 7, 0, 0, 0);
    assertQuote(one(r, "a100-80gb.sxm.8x", "us-central3-a", Billing.SPOT), "0.08", "a100-80g-sxm", 8);
    assertQuote(one(r, "a100-80gb.sxm.1x", "us-central3-a", Billing.SPOT), "0.01", "a100-80g-sxm", 1);
    assertQuote(one(r, "neb-b200.sxm.8x", "us-central5-a", Billing.SPOT), "0.08", "b200", 8);
    assertQuote(one(r, "h100-80gb.sxm.8x", "us-central2-a", Billing.SPOT), "8.0", "h100-sxm", 8);
    assertQuote(one(r, "h200.8x", "us-central2-b", Billing.SPOT), "8.0", "h200", 8);
    // Without spotOnly the same rows would be on-demand offers too.
    VendorDefinition d = def("mithril", "skypilot-org/v8/mithril/vms.csv", "spotOnly", false);
    assertCounts(parse(d), 7, 7, 7, 0, 0, 0);
  }

  @Test
  void parses_spheron_catalog_with_provider_column_and_spaced_regions() {
    SkyPilotCatalogFormat.Result r = parse(def("spheron", "skypilot-org/v8/spheron/vms.csv"));
    // 152 rows: 151 with a Price (4 of them with a SpotPrice too), 1 SPOT row with only a SpotPrice.
    assertCounts(r, 152, 151, 5, 0, 0, 0);
    Quote fin = one(r, "1H100.80S.32V_FIN-03_500", "Finland 3", Billing.ON_DEMAND);
    assertQuote(fin, "2.9124", "h100-sxm", 1);
    assertEquals("data-crunch", fin.upstream());
    assertQuote(one(r, "1H100.80S.32V_FIN-03_500", "Finland 3", Billing.SPOT), "0.8015", "h100-sxm", 1);
    Quote spotOnly = one(r, "n3-A100x1-spot__CANADA-1", "CANADA-1", Billing.SPOT);
    assertQuote(spotOnly, "1.1476", "a100-80g-pcie", 1);
    assertEquals("spheron-ai", spotOnly.upstream());
    assertTrue(r.quotes().stream().noneMatch(q -> q.offerId().equals("n3-A100x1-spot__CANADA-1") && q.billing() == Billing.ON_DEMAND));
    // The catalog's card is trusted over the instance type's words: filed as A100_80G_PCIE, read as that.
    Quote massed = one(r, "gpu_1x_a100_SXM4_us-central-3", "us-central-3", Billing.ON_DEMAND);
    assertQuote(massed, "1.068", "a100-80g-pcie", 1);
    assertEquals("massed-compute", massed.upstream());
    assertQuote(one(r, "A16x16_668d6762247d03149a4c946b_singapore-singapore-1", "singapore-singapore-1", Billing.ON_DEMAND),
        "12.1308", "a16", 16);
    assertQuote(one(r, "A16x2_668d6762247d03149a4c946b_atl", "atl", Billing.ON_DEMAND), "1.3464", "a16", 2);
    assertEquals(4, r.quotes().stream().map(Quote::upstream).distinct().count());
    // Spheron files Hyperstack's 80 GB PCIe-NVLink machine as H100_NVL (94 GB): kept as the catalog says, and said.
    assertEquals(List.of(
        "line 5 (n3-H100x8-NVLink__CANADA-1, CANADA-1): GpuInfo states 80 GiB per GPU (TotalGpuMemoryInMiB 655360 over 8 GPUs), "
            + "h100-nvl has 94; kept as 8 x h100-nvl (the catalog's card and count)",
        "line 6 (n3-H100x8-NVLink-bigroot__CANADA-1, CANADA-1): GpuInfo states 80 GiB per GPU (TotalGpuMemoryInMiB 655360 over 8 GPUs), "
            + "h100-nvl has 94; kept as 8 x h100-nvl (the catalog's card and count)"), r.memoryDisagreements());
  }

  @Test
  void parses_daytona_catalog_in_region_earth() {
    SkyPilotCatalogFormat.Result r = parse(def("daytona", "skypilot-org/v8/daytona/vms.csv"));
    assertCounts(r, 64, 56, 56, 0, 8, 0);
    assertQuote(one(r, "1x-B300", "earth", Billing.ON_DEMAND), "9.1232", "b300", 1);
    assertQuote(one(r, "1x-B300", "earth", Billing.SPOT), "5.25", "b300", 1);
    assertQuote(one(r, "8x-MI355X", "earth", Billing.ON_DEMAND), "64.1056", "mi355x", 8);
    assertQuote(one(r, "3x-RTX4090", "earth", Billing.SPOT), "3.825", "rtx-4090", 3);
    assertTrue(r.quotes().stream().allMatch(q -> q.region().equals("earth")));
    assertEquals(List.of(), r.memoryDisagreements());
  }

  @Test
  void parses_verda_catalog_trusting_card_and_count_over_its_memory_totals() throws IOException {
    String sample = "skypilot-org/v8/verda/vms.csv";
    SkyPilotCatalogFormat.Result r = parse(def("verda", sample));
    assertCounts(r, 45, 45, 38, 0, 0, 0);
    Quote b300 = one(r, "1B300.30V", "FIN-03", Billing.ON_DEMAND);
    assertQuote(b300, "4.95", "b300", 1);
    assertEquals("verda", b300.vendor());
    assertEquals("", b300.upstream());
    assertQuote(one(r, "1B300.30V", "FIN-03", Billing.SPOT), "1.24", "b300", 1);
    // An empty SpotPrice: on-demand only.
    assertQuote(one(r, "8B200.240V", "FIN-03", Billing.ON_DEMAND), "30.32", "b200", 8);
    assertTrue(r.quotes().stream().noneMatch(q -> q.offerId().equals("8B200.240V") && q.billing() == Billing.SPOT));
    // Verda's own names for A100 machines carry the total ("A100-80GB-640GB"): still 8 x A100 80GB.
    assertQuote(one(r, "8A100.176V", "FIN-03", Billing.ON_DEMAND), "9.28", "a100-80g-sxm", 8);
    assertQuote(one(r, "8A100.40S.176V", "FIN-03", Billing.ON_DEMAND), "5.77", "a100-40g-sxm", 8);
    assertQuote(one(r, "1V100.6V", "FIN-03", Billing.ON_DEMAND), "0.14", "v100-16g", 1);
    assertEquals(multiGpuLines(sample), lines(r.memoryDisagreements()));
  }

  /**
   * Rows copied from the recorded files with one field changed, for the rejection paths these files
   * do not reach: a spot-only row whose SpotPrice is gone, zero or unreadable.
   */
  @Test
  void rejects_rows_with_no_usable_price_with_their_reason() throws IOException {
    String text = Files.readString(DATA.resolve("skypilot-org/v8/primeintellect/vms.csv"), StandardCharsets.UTF_8);
    String header = text.substring(0, text.indexOf("\r\n") + 2);
    String real = "datacrunch__1xV100_16GB__6__23__SPOT,1V100.6V_SPOT,6.0,23,V100,1.0,"
        + "\"{\"\"Gpus\"\":[{\"\"Name\"\":\"\"V100\"\",\"\"Count\"\":1,\"\"MemoryInfo\"\":{\"\"SizeInMiB\"\":16384}}],\"\"TotalGpuMemoryInMiB\"\":16384}\","
        + "FI,FIN-01,,0.05";
    assertTrue(text.contains(real + "\r\n"), "the row is copied from the file");
    String csv = header + real + "\r\n" + real.replace(",,0.05", ",,") + "\r\n" + real.replace(",,0.05", ",,0") + "\r\n"
        + real.replace(",,0.05", ",,n/a") + "\r\n";
    SkyPilotCatalogFormat.Result r = parse(csv, def("primeintellect", "skypilot-org/v8/primeintellect/vms.csv"));
    assertEquals(List.of(
        "line 3 (datacrunch__1xV100_16GB__6__23__SPOT, FIN-01): no Price",
        "line 4 (datacrunch__1xV100_16GB__6__23__SPOT, FIN-01): no Price, and SpotPrice 0 is not an offer (must be > 0)",
        "line 5 (datacrunch__1xV100_16GB__6__23__SPOT, FIN-01): no Price, and SpotPrice 'n/a' is not a number"), r.rejected());
    assertQuote(one(r, "datacrunch__1xV100_16GB__6__23__SPOT", "FIN-01", Billing.SPOT), "0.05", "v100-16g", 1);
    assertEquals(1, r.quotes().size());
  }

  @Test
  void validates_the_reseller_keys_when_created() {
    Vertx vertx = Vertx.vertx();
    try {
      VendorDefinition d = def("shadeform", "skypilot-org/v8/shadeform/vms.csv");
      JsonObject noColumn = d.config().copy().put("upstream", new JsonObject().put("before", "_"));
      IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogFactory().create(vertx, VendorDefinition.from(noColumn, d.where()), catalog));
      assertTrue(e1.getMessage().contains("upstream: must be a map {column, before}"), e1.getMessage());
      JsonObject badSpot = d.config().copy().put("spotOnly", "sometimes");
      IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogFactory().create(vertx, VendorDefinition.from(badSpot, d.where()), catalog));
      assertTrue(e2.getMessage().contains("spotOnly: must be true or false"), e2.getMessage());
    } finally {
      vertx.close();
    }
  }

  private static final String LAMBDA_HEADER = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n";

  @Test
  void rejects_bad_rows_with_their_reason_and_keeps_the_rest() {
    String csv = LAMBDA_HEADER
        + "gpu_1x_a10,A10,1.0,30.0,200.0,0.75,us-east-1,\"{'Gpus': [{'Name': 'A10'}]}\",\n"   // line 2: good
        + "gpu_1x_free,A10,1.0,30.0,200.0,0,us-east-1,,\n"                                  // 3: price 0
        + "gpu_1x_neg,A10,1.0,30.0,200.0,-1.5,us-east-1,,\n"                                // 4: negative
        + "gpu_1x_xyz,XYZ-9000,1.0,30.0,200.0,1.00,us-east-1,,\n"                          // 5: unknown GPU
        + "gpu_0x_a10,A10,0,30.0,200.0,1.00,us-east-1,,\n"                                  // 6: count 0
        + "gpu_1x_none,A10,1.0,30.0,200.0,,us-east-1,,\n"                                   // 7: no price
        + "gpu_1x_wide,A10,1.0,30.0,200.0,1.00,us-east-1,,0.5,extra\n"                      // 8: surplus in a read column
        + "gpu_1x_badspot,A10,1.0,,,1.10,us-west-1,,cheap\n"                                // 9: spot unreadable, on-demand kept
        + "\n"                                                                              // blank: ignored
        + "cpu_4x,,,4,16,0.20,us-east-1,,\n";                                               // 11: CPU row, skipped
    SkyPilotCatalogFormat.Result r = parse(csv, def("lambda", "anycloud-sh/lambda/vms.gpu.csv"));
    assertEquals(List.of(
        "line 3 (gpu_1x_free, us-east-1): Price 0 is not an offer (must be > 0)",
        "line 4 (gpu_1x_neg, us-east-1): Price -1.5 is not an offer (must be > 0)",
        "line 5 (gpu_1x_xyz, us-east-1): unknown GPU 'XYZ-9000'; see config/gpus.yaml for the known cards",
        "line 6 (gpu_0x_a10, us-east-1): AcceleratorCount '0' must be > 0",
        "line 7 (gpu_1x_none, us-east-1): no Price",
        "line 8 (gpu_1x_wide, us-east-1): 10 fields for a 9-column header",
        "line 9 (gpu_1x_badspot, us-west-1): SpotPrice 'cheap' is not a number; spot quote dropped, on-demand kept"), r.rejected());
    assertEquals(2, r.quotes().size());
    assertQuote(one(r, "gpu_1x_a10", "us-east-1", Billing.ON_DEMAND), "0.75", "a10", 1);
    Quote badSpot = one(r, "gpu_1x_badspot", "us-west-1", Billing.ON_DEMAND);
    assertQuote(badSpot, "1.10", "a10", 1);
    assertEquals(0, badSpot.vcpus());
    assertEquals(9, r.dataRows());
    assertEquals(1, r.cpuRowsSkipped());
  }

  @Test
  void keeps_the_cheapest_of_repeated_zone_rows() {
    String csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region,SpotPrice,Price,AvailabilityZone,GpuInfo\n"
        + "1x_L4,L4,1,8,32,SE,0.30,0.50,EU-SE-1,\n"
        + "1x_L4,L4,1,8,32,SE,0.20,0.45,EU-SE-2,\n"
        + "1x_L4,L4,1,8,32,SE,,0.45,EU-SE-3,\n";
    SkyPilotCatalogFormat.Result r = parse(csv, runpodDef());
    assertEquals(2, r.quotes().size());
    assertEquals(3, r.duplicatesDropped());
    assertQuote(one(r, "1x_L4", "SE", Billing.ON_DEMAND), "0.45", "l4", 1);
    assertQuote(one(r, "1x_L4", "SE", Billing.SPOT), "0.20", "l4", 1);
  }

  @Test
  void reads_quoted_fields_with_newlines_quotes_and_a_byte_order_mark() {
    String csv = "\uFEFF" + LAMBDA_HEADER
        + "gpu_1x_a10,A10,1.0,30.0,200.0,0.75,\"us-\"\"east\"\"\r\n-1\",\"{'a': 1,\n 'b': 2}\",\r\n"
        + "gpu_1x_l4,L4,1.0,8,32,0.55,us-west-1,,";                       // no final line break
    SkyPilotCatalogFormat.Result r = parse(csv, def("lambda", "anycloud-sh/lambda/vms.gpu.csv"));
    assertEquals(List.of(), r.rejected());
    assertQuote(one(r, "gpu_1x_a10", "us-\"east\"\r\n-1", Billing.ON_DEMAND), "0.75", "a10", 1);
    assertQuote(one(r, "gpu_1x_l4", "us-west-1", Billing.ON_DEMAND), "0.55", "l4", 1);
  }

  @Test
  void fails_on_payloads_that_are_not_a_catalog() {
    VendorDefinition d = def("lambda", "anycloud-sh/lambda/vms.gpu.csv");
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> parse("", d));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
    IllegalArgumentException html = assertThrows(IllegalArgumentException.class,
        () -> parse("<html><body>rate limited</body></html>\n", d));
    assertTrue(html.getMessage().contains("the header lacks InstanceType, AcceleratorName, AcceleratorCount, Price, Region"), html.getMessage());
    IllegalArgumentException accelerators = assertThrows(IllegalArgumentException.class, () -> SkyPilotCatalogFormat.parse(
        Payload.of(DATA.resolve("skypilot-org/v8/common/accelerators.csv")), d, catalog, AT));
    assertTrue(accelerators.getMessage().contains("lacks InstanceType"), accelerators.getMessage());
    IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
        () -> parse(LAMBDA_HEADER + "gpu_1x_a10,A10,1,30,200,0.75,us-east-1,\"{'Gpus': [", d));
    assertTrue(cut.getMessage().contains("line 2 never closes"), cut.getMessage());
  }

  @Test
  void validates_its_yaml_keys_when_created() {
    Vertx vertx = Vertx.vertx();
    try {
      VendorDefinition d = def("vast", "anycloud-sh/vast/vms.gpu.csv");
      JsonObject badMode = d.config().copy().put("gpuOnlyRows", "sometimes");
      IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogFactory().create(vertx, VendorDefinition.from(badMode, d.where()), catalog));
      assertTrue(e1.getMessage().contains("gpuOnlyRows: must be reject or keep"), e1.getMessage());
      JsonObject badGpu = d.config().copy().put("gpuByInstanceType",
          new JsonArray().add(new JsonObject().put("match", "x").put("gpu", "A100")));
      IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogFactory().create(vertx, VendorDefinition.from(badGpu, d.where()), catalog));
      assertTrue(e2.getMessage().contains("gpuByInstanceType[0].gpu: 'A100' is not a catalog id"), e2.getMessage());
      JsonObject badRegex = d.config().copy().put("gpuByInstanceType",
          new JsonArray().add(new JsonObject().put("match", "(").put("gpu", "a10")));
      assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogFactory().create(vertx, VendorDefinition.from(badRegex, d.where()), catalog));
    } finally {
      vertx.close();
    }
  }

  @Test
  void ships_a_valid_vendor_yaml_per_cloud() {
    Vertx vertx = Vertx.vertx();
    try {
      for (String[] v : new String[][] {{"azure", "v8/azure"}, {"gcp", "v8/gcp"}, {"lambda", "v8/lambda"}, {"vast", "v8/vast"},
          {"paperspace", "v6/paperspace"}, {"digitalocean", "v6/do"}, {"fluidstack", "v6/fluidstack"}, {"cudo", "v8/cudo"},
          {"hyperbolic", "v8/hyperbolic"}, {"oci", "v8/oci"}, {"ibm", "v5/ibm"}, {"scp", "v5/scp"},
          {"shadeform", "v8/shadeform"}, {"primeintellect", "v8/primeintellect"}, {"seeweb", "v8/seeweb"},
          {"hyperstack", "v8/hyperstack"}, {"jarvislabs", "v8/jarvislabs"}, {"mithril", "v8/mithril"},
          {"spheron", "v8/spheron"}, {"daytona", "v8/daytona"}, {"verda", "v8/verda"}}) {
        VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + v[0] + ".yaml"));
        assertEquals(v[0], d.vendor());
        assertEquals(SkyPilotCatalogFormat.KIND, d.kind());
        // Seeweb sells in euro (adapters/seeweb.yaml says how we know); the others in US dollars.
        assertEquals(v[0].equals("seeweb") ? "EUR" : "USD", d.currency(), v[0]);
        assertEquals(java.time.Duration.ofHours(6), d.refresh());
        assertEquals("https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/" + v[1] + "/vms.csv",
            d.config().getString("source"));
        assertFalse(d.terms().source().isBlank(), v[0]);
        assertTrue(d.terms().source().contains("http"), v[0] + " terms cite a pricing page");
        new SkyPilotCatalogFactory().create(vertx, d, catalog);
      }
      assertTrue(AdapterRegistry.load().kinds().contains(SkyPilotCatalogFormat.KIND));
    } finally {
      vertx.close();
    }
  }

  @Test
  void fetches_a_file_source_through_vertx(Vertx vertx, VertxTestContext ctx) {
    VendorDefinition d = def("lambda", "anycloud-sh/lambda/vms.gpu.csv");
    new SkyPilotCatalogFactory().create(vertx, d, catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals("lambda", vq.vendor());
      assertEquals("Lambda", vq.displayName());
      assertEquals(391, vq.quotes().size());
      assertEquals(List.of(), vq.rejected());
      Quote q = vq.quotes().get(0);
      assertEquals("gpu_8x_v100_n", q.offerId());
      assertEquals(Money.of("6.32", "USD"), q.price());
      ctx.completeNow();
    })));
  }

  @Test
  void fetches_an_http_source_through_vertx(Vertx vertx, VertxTestContext ctx) {
    HttpServer server = vertx.createHttpServer().requestHandler(req -> req.response()
        .putHeader("content-type", "text/csv").sendFile(DATA.resolve("skypilot-org/v6/paperspace/vms.csv").toString()));
    server.listen(0).compose(s -> {
      VendorDefinition d = def("paperspace", "skypilot-org/v6/paperspace/vms.csv");
      VendorDefinition http = VendorDefinition.from(d.config().copy()
          .put("source", "http://localhost:" + s.actualPort() + "/catalogs/v6/paperspace/vms.csv"), d.where());
      return new SkyPilotCatalogFactory().create(vertx, http, catalog).fetch();
    }).onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
      assertEquals(14, vq.quotes().size());
      Quote q = vq.quotes().stream().filter(x -> x.offerId().equals("H100x8")).findFirst().orElseThrow();
      assertEquals(Money.of("47.60", "USD"), q.price());
      assertTrue(q.source().startsWith("skypilot-catalog:http://localhost:"), q.source());
      ctx.completeNow();
    })));
  }

  @Test
  void fails_the_fetch_when_the_source_is_garbage(Vertx vertx, VertxTestContext ctx) {
    VendorDefinition d = def("lambda", "../vast/openapi/search_offers.yaml");
    new SkyPilotCatalogFactory().create(vertx, d, catalog).fetch().onComplete(ctx.failing(e -> ctx.verify(() -> {
      assertTrue(e instanceof IllegalArgumentException, e.toString());
      assertTrue(e.getMessage().startsWith("not a SkyPilot vms.csv"), e.getMessage());
      ctx.completeNow();
    })));
  }
}
