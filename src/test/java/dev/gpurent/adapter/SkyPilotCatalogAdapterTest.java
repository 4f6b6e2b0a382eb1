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
class SkyPilotCatalogAdapterTest {

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

  private static SkyPilotCatalogAdapter.Result parse(VendorDefinition d) {
    return SkyPilotCatalogAdapter.parse(Path.of(d.config().getString("source")), d, catalog, AT);
  }

  private static Quote one(SkyPilotCatalogAdapter.Result r, String offer, String region, Billing billing) {
    List<Quote> found = r.quotes().stream()
        .filter(q -> q.offerId().equals(offer) && q.region().equals(region) && q.billing() == billing).toList();
    assertEquals(1, found.size(), offer + " in " + region + " " + billing + ": " + found);
    return found.get(0);
  }

  private static void assertQuote(Quote q, String price, String gpuId, double count) {
    assertEquals(Money.of(price, "USD"), q.price(), q.toString());
    assertEquals(gpuId, q.gpuId(), q.toString());
    assertEquals(count, q.gpuCount(), q.toString());
    assertEquals(PriceUnit.HOUR, q.unit());
    assertEquals(AT, q.observedAt());
    assertTrue(q.source().startsWith("skypilot-catalog:../shared/data/skypilot-catalog-format/"), q.source());
  }

  private static long count(SkyPilotCatalogAdapter.Result r, Billing billing) {
    return r.quotes().stream().filter(q -> q.billing() == billing).count();
  }

  /** Rows, quotes kept (on-demand, spot), rows rejected, CPU rows skipped, duplicate quotes dropped. */
  private static void assertCounts(SkyPilotCatalogAdapter.Result r, int rows, int onDemand, int spot, int rejected,
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
          "skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv", "skypilot-org/v8/runpod/vms.first48rows.csv")), samples,
          "a new sample needs its own test below");
    }
  }

  @Test
  void parses_azure_catalog_with_unquoted_generation_commas() throws IOException {
    SkyPilotCatalogAdapter.Result r = parse(def("azure", "anycloud-sh/azure/vms.gpu.csv"));
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
    SkyPilotCatalogAdapter.Result r = parse(d);
    assertCounts(r, 2395, 0, 0, 2395, 0, 0);
    assertEquals("line 2 (A100, asia-northeast1): GPU-only price; the host VM is billed separately", r.rejected().get(0));
    assertTrue(r.rejected().stream().allMatch(s -> s.endsWith(SkyPilotCatalogAdapter.GPU_ONLY_REASON)));

    // No gpuOnlyRows key at all: the same.
    JsonObject c = d.config().copy();
    c.remove("gpuOnlyRows");
    assertEquals(2395, parse(VendorDefinition.from(c, d.where())).rejected().size());
  }

  @Test
  void keeps_gcp_gpu_only_rows_when_the_yaml_says_keep() {
    VendorDefinition d = def("gcp", "anycloud-sh/gcp/vms.gpu.csv", "gpuOnlyRows", "keep");
    SkyPilotCatalogAdapter.Result r = parse(d);
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
    SkyPilotCatalogAdapter.Result r = parse(def("lambda", "anycloud-sh/lambda/vms.gpu.csv"));
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
    SkyPilotCatalogAdapter.Result r = parse(def("vast", "anycloud-sh/vast/vms.gpu.csv"));
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
    SkyPilotCatalogAdapter.Result r = parse(def("ibm", "skypilot-org/v5/ibm/vms.csv"));
    // 27 GPU rows = 9 regions x 3 zones: 9 quotes, 18 zone repeats dropped; 27 CPU profiles skipped.
    assertCounts(r, 54, 9, 0, 0, 27, 18);
    assertEquals(Set.of("us-south", "us-east", "ca-tor", "eu-de", "eu-gb", "jp-osa", "jp-tok", "au-syd", "br-sao"),
        r.quotes().stream().map(Quote::region).collect(Collectors.toSet()));
    assertQuote(one(r, "gx2-8x64x1v100", "br-sao", Billing.ON_DEMAND), "2.996", "v100-pcie-16g", 1);

    // A row whose Region is empty (line 21: jp-tok-2), on its own, lands in jp-tok.
    String csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
        + "gx2-8x64x1v100,V100,1.0,8,64,V100,2.821,,,jp-tok-2\n";
    SkyPilotCatalogAdapter.Result alone = SkyPilotCatalogAdapter.parse(csv, def("ibm", "skypilot-org/v5/ibm/vms.csv"), catalog, AT);
    assertQuote(one(alone, "gx2-8x64x1v100", "jp-tok", Billing.ON_DEMAND), "2.821", "v100-pcie-16g", 1);
  }

  @Test
  void parses_scp_catalog() {
    SkyPilotCatalogAdapter.Result r = parse(def("scp", "skypilot-org/v5/scp/vms.gpu.first-page.csv"));
    assertCounts(r, 8, 8, 0, 0, 0, 0);
    assertQuote(one(r, "g1v8v1", "KOREA-WEST-1-SCP-B001", Billing.ON_DEMAND), "2.27", "v100-32g", 1);
    assertQuote(one(r, "g1v128a8", "KOREA-WEST-1-SCP-B001", Billing.ON_DEMAND), "17.28", "a100-80g-sxm", 8);
  }

  @Test
  void parses_digitalocean_catalog_skipping_cpu_droplets() {
    SkyPilotCatalogAdapter.Result r = parse(def("digitalocean", "skypilot-org/v6/do/vms.csv"));
    assertCounts(r, 38, 2, 0, 0, 36, 0);
    Quote q = one(r, "gpu-h100x8-640gb", "tor1", Billing.ON_DEMAND);
    assertQuote(q, "47.60", "h100-sxm", 8);
    assertEquals("digitalocean", q.vendor());
    assertQuote(one(r, "gpu-h100x1-80gb", "tor1", Billing.ON_DEMAND), "6.74", "h100-sxm", 1);
  }

  @Test
  void parses_fluidstack_catalog() {
    SkyPilotCatalogAdapter.Result r = parse(def("fluidstack", "skypilot-org/v6/fluidstack/vms.csv"));
    assertCounts(r, 23, 23, 0, 0, 0, 0);
    assertQuote(one(r, "H100_PCIE_80GB::1", "UTAH_USA", Billing.ON_DEMAND), "2.89", "h100-pcie", 1);
    assertTrue(r.quotes().stream().filter(q -> q.offerId().startsWith("A100_PCIE_80GB")).allMatch(q -> q.gpuId().equals("a100-80g-pcie")));
    assertTrue(r.quotes().stream().filter(q -> q.offerId().startsWith("H100_NVLINK_80GB")).allMatch(q -> q.gpuId().equals("h100-sxm")));
  }

  @Test
  void parses_paperspace_catalog_with_price_in_last_column() {
    SkyPilotCatalogAdapter.Result r = parse(def("paperspace", "skypilot-org/v6/paperspace/vms.csv"));
    assertCounts(r, 19, 14, 0, 0, 5, 0);
    assertQuote(one(r, "A100-80G", "East Coast (NY2)", Billing.ON_DEMAND), "3.18", "a100-80g-sxm", 1);
    assertQuote(one(r, "A100-80Gx8", "East Coast (NY2)", Billing.ON_DEMAND), "25.44", "a100-80g-sxm", 8);
    assertEquals("quadro-m4000", one(r, "GPU+", "East Coast (NY2)", Billing.ON_DEMAND).gpuId());
  }

  @Test
  void parses_cudo_catalog() {
    SkyPilotCatalogAdapter.Result r = parse(def("cudo", "skypilot-org/v8/cudo/vms.first36rows.csv"));
    assertCounts(r, 36, 36, 0, 0, 0, 0);
    // The price keeps the catalog's own digits (a float artefact upstream), exactly.
    assertQuote(one(r, "ice-lake-a40-compute_1x2v4gb", "ca-montreal-3", Billing.ON_DEMAND), "0.36979999999999996", "a40", 1);
    assertQuote(one(r, "epyc-genoa-a100-pcie_1x2v4gb", "no-kristiansand-1", Billing.ON_DEMAND), "1.5294", "a100-80g-pcie", 1);
  }

  @Test
  void parses_hyperbolic_catalog_with_storage_column() {
    SkyPilotCatalogAdapter.Result r = parse(def("hyperbolic", "skypilot-org/v8/hyperbolic/vms.csv"));
    assertCounts(r, 3, 3, 0, 0, 0, 0);
    Quote q = one(r, "3x-H100-224-2165", "default", Billing.ON_DEMAND);
    assertQuote(q, "3.87", "h100-sxm", 3);
    assertEquals(2165, q.ramGiB());
  }

  @Test
  void parses_oci_catalog_with_preemptible_prices() {
    SkyPilotCatalogAdapter.Result r = parse(def("oci", "skypilot-org/v8/oci/vms.gpu.af-casablanca-1.csv"));
    assertCounts(r, 21, 21, 4, 0, 0, 0);
    assertQuote(one(r, "VM.GPU3.1", "af-casablanca-1", Billing.ON_DEMAND), "2.95", "v100-16g", 1);
    assertQuote(one(r, "VM.GPU3.1", "af-casablanca-1", Billing.SPOT), "1.475", "v100-16g", 1);
    assertQuote(one(r, "BM.GPU.MI355X.8", "af-casablanca-1", Billing.ON_DEMAND), "68.8", "mi355x", 8);
  }

  @Test
  void keeps_one_runpod_quote_per_region_across_zones() {
    SkyPilotCatalogAdapter.Result r = parse(runpodDef());
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
        {"azure", "anycloud-sh/azure/vms.gpu.csv"}, {"ibm", "skypilot-org/v5/ibm/vms.csv"}}) {
      VendorDefinition d = def(s[0], s[1]);
      String text = Files.readString(DATA.resolve(s[1]), StandardCharsets.UTF_8);
      String lf = text.replace("\r\n", "\n");
      String crlf = lf.replace("\n", "\r\n");
      SkyPilotCatalogAdapter.Result fromLf = SkyPilotCatalogAdapter.parse(lf, d, catalog, AT);
      SkyPilotCatalogAdapter.Result fromCrlf = SkyPilotCatalogAdapter.parse(crlf, d, catalog, AT);
      SkyPilotCatalogAdapter.Result fromFile = parse(d);
      assertFalse(fromLf.quotes().isEmpty(), s[1]);
      assertEquals(fromLf.quotes(), fromCrlf.quotes(), s[1]);
      assertEquals(fromLf.quotes(), fromFile.quotes(), s[1]);
      assertEquals(fromLf.rejected(), fromCrlf.rejected(), s[1]);
      assertEquals(fromLf.cpuRowsSkipped(), fromCrlf.cpuRowsSkipped(), s[1]);
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
    SkyPilotCatalogAdapter.Result r = SkyPilotCatalogAdapter.parse(csv, def("lambda", "anycloud-sh/lambda/vms.gpu.csv"), catalog, AT);
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
    SkyPilotCatalogAdapter.Result r = SkyPilotCatalogAdapter.parse(csv, runpodDef(), catalog, AT);
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
    SkyPilotCatalogAdapter.Result r = SkyPilotCatalogAdapter.parse(csv, def("lambda", "anycloud-sh/lambda/vms.gpu.csv"), catalog, AT);
    assertEquals(List.of(), r.rejected());
    assertQuote(one(r, "gpu_1x_a10", "us-\"east\"\r\n-1", Billing.ON_DEMAND), "0.75", "a10", 1);
    assertQuote(one(r, "gpu_1x_l4", "us-west-1", Billing.ON_DEMAND), "0.55", "l4", 1);
  }

  @Test
  void fails_on_payloads_that_are_not_a_catalog() {
    VendorDefinition d = def("lambda", "anycloud-sh/lambda/vms.gpu.csv");
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> SkyPilotCatalogAdapter.parse("", d, catalog, AT));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
    IllegalArgumentException html = assertThrows(IllegalArgumentException.class,
        () -> SkyPilotCatalogAdapter.parse("<html><body>rate limited</body></html>\n", d, catalog, AT));
    assertTrue(html.getMessage().contains("the header lacks InstanceType, AcceleratorName, AcceleratorCount, Price, Region"), html.getMessage());
    IllegalArgumentException accelerators = assertThrows(IllegalArgumentException.class, () -> SkyPilotCatalogAdapter.parse(
        DATA.resolve("skypilot-org/v8/common/accelerators.csv"), d, catalog, AT));
    assertTrue(accelerators.getMessage().contains("lacks InstanceType"), accelerators.getMessage());
    IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
        () -> SkyPilotCatalogAdapter.parse(LAMBDA_HEADER + "gpu_1x_a10,A10,1,30,200,0.75,us-east-1,\"{'Gpus': [", d, catalog, AT));
    assertTrue(cut.getMessage().contains("line 2 never closes"), cut.getMessage());
  }

  @Test
  void validates_its_yaml_keys_when_created() {
    Vertx vertx = Vertx.vertx();
    try {
      VendorDefinition d = def("vast", "anycloud-sh/vast/vms.gpu.csv");
      JsonObject badMode = d.config().copy().put("gpuOnlyRows", "sometimes");
      IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogAdapter().create(vertx, VendorDefinition.from(badMode, d.where()), catalog));
      assertTrue(e1.getMessage().contains("gpuOnlyRows: must be reject or keep"), e1.getMessage());
      JsonObject badGpu = d.config().copy().put("gpuByInstanceType",
          new JsonArray().add(new JsonObject().put("match", "x").put("gpu", "A100")));
      IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogAdapter().create(vertx, VendorDefinition.from(badGpu, d.where()), catalog));
      assertTrue(e2.getMessage().contains("gpuByInstanceType[0].gpu: 'A100' is not a catalog id"), e2.getMessage());
      JsonObject badRegex = d.config().copy().put("gpuByInstanceType",
          new JsonArray().add(new JsonObject().put("match", "(").put("gpu", "a10")));
      assertThrows(IllegalArgumentException.class,
          () -> new SkyPilotCatalogAdapter().create(vertx, VendorDefinition.from(badRegex, d.where()), catalog));
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
          {"hyperbolic", "v8/hyperbolic"}, {"oci", "v8/oci"}, {"ibm", "v5/ibm"}, {"scp", "v5/scp"}}) {
        VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + v[0] + ".yaml"));
        assertEquals(v[0], d.vendor());
        assertEquals(SkyPilotCatalogAdapter.KIND, d.kind());
        assertEquals("USD", d.currency());
        assertEquals(java.time.Duration.ofHours(6), d.refresh());
        assertEquals("https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/" + v[1] + "/vms.csv",
            d.config().getString("source"));
        assertFalse(d.terms().source().isBlank(), v[0]);
        assertTrue(d.terms().source().contains("http"), v[0] + " terms cite a pricing page");
        new SkyPilotCatalogAdapter().create(vertx, d, catalog);
      }
      assertTrue(AdapterRegistry.load().kinds().contains(SkyPilotCatalogAdapter.KIND));
    } finally {
      vertx.close();
    }
  }

  @Test
  void fetches_a_file_source_through_vertx(Vertx vertx, VertxTestContext ctx) {
    VendorDefinition d = def("lambda", "anycloud-sh/lambda/vms.gpu.csv");
    new SkyPilotCatalogAdapter().create(vertx, d, catalog).fetch().onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
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
      return new SkyPilotCatalogAdapter().create(vertx, http, catalog).fetch();
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
    new SkyPilotCatalogAdapter().create(vertx, d, catalog).fetch().onComplete(ctx.failing(e -> ctx.verify(() -> {
      assertTrue(e instanceof IllegalArgumentException, e.toString());
      assertTrue(e.getMessage().startsWith("not a SkyPilot vms.csv"), e.getMessage());
      ctx.completeNow();
    })));
  }
}
