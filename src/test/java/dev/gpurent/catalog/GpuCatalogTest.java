package dev.gpurent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpurent.adapter.CsvRows;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks {@code config/gpus.yaml}: the datasheet figures of the cards the engine must know, and
 * that the spellings found in the shared vendor payloads ({@code ../shared/data}) resolve to the
 * right card. Tests run with the repository root as the working directory.
 */
class GpuCatalogTest {

  private static final Path CATALOG = Path.of("config/gpus.yaml");
  private static final Path DATA = Path.of("../shared/data");

  /** Vendor accelerator names that are not GPUs the engine can compare, with the reason. */
  private static final Map<String, String> SKYPILOT_NON_GPUS = Map.of(
      "Gaudi HL-205", "Habana Gaudi (AWS dl1): not a GPU, no CUDA/ROCm, no comparable tensor figure");
  private static final String TPU_PREFIX = "tpu-"; // Google TPU slices (tpu-v2 .. tpu-v6e): not GPUs

  private static final Map<String, String> RUNPOD_EXCLUDED = Map.of(
      "unknown", "RunPod's placeholder entry (memoryInGb 0), not a card",
      "Tesla V100-FHHL-16GB", "150 W single-slot V100 variant; no maker datasheet figures at hand, so not catalogued");

  private static final Map<String, String> AWS_NON_GPUS = Map.of(
      "AWS Inferentia", "AWS inference chip (inf1), not a GPU");

  private static GpuCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(CATALOG);
  }

  @Test
  void suggests_only_cards_that_fit_what_was_typed() {
    assertEquals("unknown GPU 'a100 pcie'; did you mean a100-40g-pcie, a100-80g-pcie?",
        assertThrows(UnknownGpuException.class, () -> catalog.resolve("a100 pcie")).getMessage(), "not the A10");
    assertEquals("unknown GPU 'A100 SXM'; did you mean a100-40g-sxm, a100-80g-sxm?",
        assertThrows(UnknownGpuException.class, () -> catalog.resolve("A100 SXM")).getMessage());
    assertEquals("unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards",
        assertThrows(UnknownGpuException.class, () -> catalog.resolve("RTX 9999")).getMessage());
  }

  // ------------------------------------------------------------------------------- figures

  @Test
  void contains_every_required_id() {
    List<String> required = List.of(
        "rtx-3090", "rtx-4090", "rtx-a6000", "rtx-6000-ada", "a10", "a10g", "l4", "l40s", "t4",
        "v100-16g", "v100-32g", "a100-40g-pcie", "a100-40g-sxm", "a100-80g-pcie", "a100-80g-sxm",
        "a800-80g", "h100-pcie", "h100-sxm", "h800", "h20", "h200", "b200", "mi300x");
    List<String> missing = required.stream().filter(id -> catalog.byId(id).isEmpty()).toList();
    assertEquals(List.of(), missing, "required ids missing from " + CATALOG);
  }

  @Test
  void carries_datasheet_figures_for_datacenter_cards() {
    // id, memoryGiB, bandwidthGBs, dense fp16 TFLOPS, interconnect kind, interconnect GB/s
    assertCard("a100-40g-pcie", 40, 1555, 312, "pcie", 64);
    assertCard("a100-40g-sxm", 40, 1555, 312, "nvlink", 600);
    assertCard("a100-80g-pcie", 80, 1935, 312, "pcie", 64);
    assertCard("a100-80g-sxm", 80, 2039, 312, "nvlink", 600);
    assertCard("a800-80g", 80, 2039, 312, "nvlink", 400);
    assertCard("a800-80g-pcie", 80, 1935, 312, "pcie", 64);
    assertCard("h100-pcie", 80, 2000, 756, "pcie", 128);
    assertCard("h100-sxm", 80, 3350, 989, "nvlink", 900);
    assertCard("h100-nvl", 94, 3900, 835, "pcie", 128);
    assertCard("h800", 80, 3350, 989, "nvlink", 400);
    assertCard("h20", 96, 4000, 148, "nvlink", 900);
    assertCard("h200", 141, 4800, 989, "nvlink", 900);
    assertCard("b200", 180, 8000, 2250, "nvlink", 1800);
    assertCard("mi300x", 192, 5300, 1307.4, "infinity-fabric", 896);
    assertCard("l40s", 48, 864, 362, "pcie", 64);
    assertCard("l4", 24, 300, 121, "pcie", 64);
    assertCard("a10", 24, 600, 125, "pcie", 64);
    assertCard("a10g", 24, 600, 70, "pcie", 64);
    assertCard("t4", 16, 320, 65, "pcie", 32);
    assertCard("v100-16g", 16, 900, 125, "nvlink", 300);
    assertCard("v100-32g", 32, 900, 125, "nvlink", 300);
  }

  @Test
  void carries_datasheet_figures_for_workstation_and_geforce_cards() {
    assertCard("rtx-3090", 24, 936, 71, "pcie", 64);
    assertCard("rtx-4090", 24, 1008, 165.2, "pcie", 64);
    assertCard("rtx-5090", 32, 1792, 209.5, "pcie", 128);
    assertCard("rtx-a6000", 48, 768, 154.8, "pcie", 64);
    assertCard("rtx-6000-ada", 48, 960, 364.2, "pcie", 64);
    assertCard("rtx-pro-6000", 96, 1792, 503.8, "pcie", 128);
    assertCard("quadro-rtx-6000", 24, 672, 130.5, "pcie", 32);
  }

  @Test
  void gives_every_card_positive_figures_and_a_lowercase_dashed_id() {
    assertTrue(catalog.all().size() >= 60, "catalog has " + catalog.all().size() + " cards");
    for (Gpu g : catalog.all()) {
      assertTrue(g.id().matches("[a-z0-9]+(-[a-z0-9]+)*"), "id " + g.id());
      assertTrue(g.memoryGiB() > 0 && g.bandwidthGBs() > 0 && g.fp16Tflops() > 0, "figures of " + g.id());
      assertFalse(g.aliases().isEmpty(), g.id() + " has no aliases");
    }
  }

  @Test
  void reports_memory_in_gb_when_card_is_sized_in_gib() {
    Gpu a100 = catalog.byId("a100-40g-sxm").orElseThrow();
    assertEquals(40, a100.memoryGiB());
    assertEquals(42.95, a100.memoryGB(), 0.01); // 40 x 2^30 bytes = 42.95e9
    assertEquals(85.90, catalog.byId("h100-sxm").orElseThrow().memoryGB(), 0.01);
  }

  // ------------------------------------------------------------------------------- spellings

  @Test
  void resolves_skypilot_names() {
    assertResolves("a100-40g-sxm", "A100");
    assertResolves("a100-80g-sxm", "A100-80GB", "A100-80GB-SXM");
    assertResolves("h100-sxm", "H100", "H100-SXM", "H100-MEGA", "H100-NVLINK", "NVIDIA-H100-80GB-HBM3");
    assertResolves("h100-nvl", "H100-NVL");
    assertResolves("h200", "H200", "H200-SXM");
    assertResolves("rtx-4090", "RTX4090");
    assertResolves("rtx-3090", "RTX3090");
    assertResolves("rtx-6000-ada", "RTX6000-Ada", "RTX6000Ada");
    assertResolves("rtx-a6000", "RTXA6000", "A6000");
    assertResolves("rtx-a4000", "A4000", "RTXA4000");
    assertResolves("rtx-4000-ada", "RTX4000-Ada");
    assertResolves("rtx-5880-ada", "RTX5880-Ada");
    assertResolves("rtx-pro-6000", "RTXPRO6000", "RTXPRO6000S", "RTXPRO6000WS");
    assertResolves("quadro-rtx-6000", "RTX6000"); // Lambda gpu_1x_rtx6000, 24 GB Turing
    assertResolves("a10g", "A10G");
    assertResolves("l40s", "L40S");
    assertResolves("v100-16g", "V100");
    assertResolves("v100-32g", "V100-32GB");
    assertResolves("a800-80g-pcie", "A800"); // only Cudo PCIe rows carry it
    assertResolves("t4", "T4", "T4g");
    assertResolves("mi25", "Radeon MI25", "MI25");
    assertResolves("radeon-pro-v520", "Radeon Pro V520");
    assertResolves("gtx-1660-super", "GTX1660S");
    assertResolves("gh200", "GH200");
    assertResolves("mi355x", "MI355X");
  }

  @Test
  void resolves_runpod_ids_and_display_names() {
    assertResolves("rtx-4090", "NVIDIA GeForce RTX 4090", "RTX 4090");
    assertResolves("a100-80g-pcie", "NVIDIA A100 80GB PCIe");
    assertResolves("a100-80g-sxm", "NVIDIA A100-SXM4-80GB");
    assertResolves("h100-sxm", "NVIDIA H100 80GB HBM3", "H100 SXM");
    assertResolves("h100-pcie", "NVIDIA H100 PCIe", "H100 PCIe");
    assertResolves("h100-nvl", "NVIDIA H100 NVL", "H100 NVL");
    assertResolves("h200", "NVIDIA H200", "H200 SXM");
    assertResolves("mi300x", "AMD Instinct MI300X OAM", "MI300X");
    assertResolves("rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada");
    assertResolves("rtx-pro-6000", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000");
    assertResolves("v100-16g", "Tesla V100-SXM2-16GB", "V100 SXM2");
    assertResolves("v100-32g", "Tesla V100-SXM2-32GB", "V100 SXM2 32GB");
    assertResolves("v100-pcie-16g", "Tesla V100-PCIE-16GB");
    assertResolves("rtx-4080-super", "NVIDIA GeForce RTX 4080 SUPER", "RTX 4080 SUPER");
  }

  @Test
  void resolves_aws_model_strings() {
    assertResolves("a100-40g-sxm", "NVIDIA A100");      // p4d
    assertResolves("a10g", "NVIDIA A10G");              // g5
    assertResolves("t4", "NVIDIA T4 Tensor Core");      // g4dn
    assertResolves("v100-16g", "NVIDIA Tesla V100");    // p3
    assertResolves("k80", "NVIDIA Tesla K80");          // p2
    assertResolves("m60", "NVIDIA Tesla M60");          // g3
    assertResolves("grid-k520", "NVIDIA GRID K520");    // g2
  }

  @Test
  void resolves_gcp_accelerator_types_sku_names_and_pricing_keys() {
    assertResolves("a100-40g-sxm", "nvidia-tesla-a100", "Nvidia Tesla A100 GPU", "a100");
    assertResolves("a100-80g-sxm", "nvidia-a100-80gb", "Nvidia Tesla A100 80GB GPU", "a100-80gb");
    assertResolves("h100-sxm", "nvidia-h100-80gb", "nvidia-h100-mega-80gb", "h100-80gb", "h100-80gb-mega",
        "Nvidia H100 80GB GPU", "Nvidia H100 80GB Mega GPU", "Nvidia H100 Mega 80GB GPU");
    assertResolves("h200", "nvidia-h200-141gb", "H200 141GB GPU");
    assertResolves("l4", "nvidia-l4", "Nvidia L4 GPU", "l4");
    assertResolves("t4", "nvidia-tesla-t4", "Nvidia Tesla T4 GPU");
    assertResolves("v100-16g", "nvidia-tesla-v100", "Nvidia Tesla V100 GPU");
    assertResolves("p100", "nvidia-tesla-p100", "Nvidia Tesla P100 GPU");
    assertResolves("p4", "nvidia-tesla-p4", "Nvidia Tesla P4 GPU");
    assertResolves("b200", "nvidia-b200");
    assertResolves("rtx-pro-6000", "nvidia-rtx-pro-6000");
    // Cyclenerd's g4 key "rtx6000" is the RTX PRO 6000, but "RTX6000" is SkyPilot's Quadro RTX 6000:
    // the catalog follows SkyPilot and a GCP adapter must translate that one key itself.
    assertResolves("quadro-rtx-6000", "rtx6000");
  }

  @Test
  void resolves_market_observation_models() {
    assertResolves("h100-sxm", "H100_SXM");
    assertResolves("h100-pcie", "H100_PCIE");
    assertResolves("a100-80g-sxm", "A100_SXM_80GB");
    assertResolves("a100-40g-sxm", "A100_SXM_40GB");
    assertResolves("a100-80g-pcie", "A100_PCIE_80GB");
    assertResolves("a100-40g-pcie", "A100_PCIE_40GB");
    assertResolves("rtx-pro-6000", "RTX_PRO_6000");
    assertResolves("rtx-5090", "RTX_5090");
  }

  @Test
  void matches_spellings_regardless_of_case_and_punctuation() {
    assertResolves("rtx-4090", "RTX 4090", "rtx-4090", "RTX4090", "rtx_4090", "Rtx 4090");
    assertResolves("a100-80g-sxm", "a100_80g", "A100-80G", "a100 80gb");
    assertResolves("h100-sxm", "h100-sxm", "H100 SXM"); // ids resolve too
  }

  @Test
  void throws_unknown_gpu_exception_naming_the_spelling() {
    UnknownGpuException e = assertThrows(UnknownGpuException.class, () -> catalog.resolve("RTX 9999"));
    assertTrue(e.getMessage().contains("RTX 9999"), e.getMessage());
    assertEquals("RTX 9999", e.spelling());
    // the fictional card of Vast's OpenAPI example response
    assertThrows(UnknownGpuException.class, () -> catalog.resolve("Imaginary RTX 9999"));
    assertTrue(catalog.find(null).isEmpty());
  }

  @Test
  void leaves_names_that_hide_a_memory_difference_unknown() {
    // RunPod/Vast use these for 80 GB cards, nvidia-smi and older listings for 40 GB ones.
    for (String s : List.of("A100 PCIe", "A100 SXM", "A100 SXM4", "A100_SXM4", "A100_PCIE", "RTX 4060 Ti")) {
      assertTrue(catalog.find(s).isEmpty(), s + " should stay unknown, found " + catalog.find(s));
    }
  }

  // ------------------------------------------------------------------------------- whole files

  @Test
  void resolves_every_skypilot_accelerator_name() throws IOException {
    Path root = DATA.resolve("skypilot-catalog-format");
    List<Path> csvs;
    try (Stream<Path> walk = Files.walk(root)) {
      csvs = walk.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
    }
    assertTrue(csvs.size() >= 14, "expected the SkyPilot CSVs under " + root + ", found " + csvs.size());

    Map<String, Set<String>> unresolved = new TreeMap<>();
    Set<String> seen = new TreeSet<>();
    for (Path csv : csvs) {
      List<List<String>> rows = csvRows(csv);
      List<String> header = rows.get(0);
      int col = header.indexOf("AcceleratorName");
      assertTrue(col >= 0, csv + ": no AcceleratorName column in " + header);
      for (List<String> fields : rows.subList(1, rows.size())) {
        // Azure rows carry an unquoted "V1,V2" in the last column (Generation); AcceleratorName
        // comes earlier, so the extra field does not shift it.
        String name = col < fields.size() ? fields.get(col).trim() : "";
        if (name.isEmpty() || name.startsWith(TPU_PREFIX) || SKYPILOT_NON_GPUS.containsKey(name)) continue;
        seen.add(name);
        if (catalog.find(name).isEmpty()) {
          unresolved.computeIfAbsent(name, k -> new TreeSet<>()).add(root.relativize(csv).toString());
        }
      }
    }
    assertTrue(seen.size() >= 50, "only " + seen.size() + " distinct accelerator names read: " + seen);
    assertEquals(Map.of(), unresolved, "SkyPilot accelerator names the catalog does not know");
  }

  @Test
  void resolves_every_runpod_gpu_type_id_with_its_memory() throws IOException {
    JsonArray types = new JsonArray(Files.readString(
        DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json")));
    assertEquals(39, types.size());
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      JsonObject t = types.getJsonObject(i);
      String id = t.getString("id");
      if (RUNPOD_EXCLUDED.containsKey(id)) continue;
      catalog.find(id).ifPresentOrElse(
          gpu -> {
            double gb = t.getNumber("memoryInGb").doubleValue();
            if (gb != gpu.memoryGiB()) {
              problems.add(id + ": RunPod says " + gb + " GB, " + gpu.id() + " has " + gpu.memoryGiB());
            }
          },
          () -> problems.add(id + ": unknown"));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void resolves_every_market_observation_gpu_model() throws IOException {
    List<List<String>> rows = csvRows(DATA.resolve("market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv"));
    int col = rows.get(0).indexOf("gpu_model");
    assertTrue(col >= 0);
    Set<String> models = new TreeSet<>();
    for (List<String> fields : rows.subList(1, rows.size())) models.add(fields.get(col));
    assertTrue(models.size() >= 15, models.toString());
    assertEquals(List.of(), models.stream().filter(m -> catalog.find(m).isEmpty()).toList());
  }

  @Test
  void resolves_every_aws_gpu_model_string() throws IOException {
    JsonArray instances = new JsonArray(Files.readString(
        DATA.resolve("aws/ec2instances-info/china-regions/tsaol-gpu_instances_raw_cn.2026-01-21.json")));
    Set<String> models = new TreeSet<>();
    for (int i = 0; i < instances.size(); i++) {
      String m = instances.getJsonObject(i).getString("GPU_model");
      if (m != null && !AWS_NON_GPUS.containsKey(m)) models.add(m);
    }
    assertTrue(models.size() >= 7, models.toString());
    assertEquals(List.of(), models.stream().filter(m -> catalog.find(m).isEmpty()).toList());
  }

  @Test
  void resolves_every_gcp_sku_gpu_name() throws IOException {
    JsonArray skus = new JsonArray(Files.readString(
        DATA.resolve("gcp/cloud-billing-catalog/jumbo2020-gcp_gpu_skus.skuId-0-D.json")));
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < skus.size(); i++) {
      String d = skus.getJsonObject(i).getString("description");
      if (d.startsWith("Licensing Fee")) continue; // OS licence surcharges, not GPUs
      // "Commitment v1: Nvidia H100 80GB GPU in Tokyo in Calendar Mode",
      // "Nvidia L4 GPU attached to Spot Preemptible VMs running in Montreal" -> the part up to "GPU"
      d = d.replaceFirst("^(Commitment v1: |Reserved )", "");
      int gpu = d.indexOf(" GPU");
      assertTrue(gpu > 0, "no GPU name in SKU description '" + d + "'");
      names.add(d.substring(0, gpu + 4));
    }
    assertTrue(names.size() >= 10, names.toString());
    assertEquals(List.of(), names.stream().filter(n -> catalog.find(n).isEmpty()).toList());
  }

  // ------------------------------------------------------------------------------- helpers

  private static void assertCard(String id, double memGiB, double bwGBs, double tflops, String linkKind, double linkGBs) {
    Gpu g = catalog.byId(id).orElseThrow(() -> new AssertionError("no card " + id));
    assertEquals(memGiB, g.memoryGiB(), 1e-9, id + " memoryGiB");
    assertEquals(bwGBs, g.bandwidthGBs(), 1e-9, id + " bandwidthGBs");
    assertEquals(tflops, g.fp16Tflops(), 1e-9, id + " fp16Tflops");
    assertEquals(linkKind, g.interconnect().kind(), id + " interconnect");
    assertEquals(linkGBs, g.interconnect().gbPerSec(), 1e-9, id + " interconnect GB/s");
  }

  private static void assertResolves(String id, String... spellings) {
    for (String s : spellings) {
      Gpu g;
      try {
        g = catalog.resolve(s);
      } catch (UnknownGpuException e) {
        fail("'" + s + "' should resolve to " + id + ": " + e.getMessage());
        return;
      }
      assertNotNull(g);
      assertEquals(id, g.id(), "'" + s + "'");
    }
  }

  /** The non-blank rows of a CSV file, header first, read with the adapters' own CSV reader. */
  private static List<List<String>> csvRows(Path csv) throws IOException {
    List<List<String>> out = new ArrayList<>();
    try (CsvRows rows = CsvRows.of(Files.newBufferedReader(csv, StandardCharsets.UTF_8))) {
      for (CsvRows.Row r = rows.next(); r != null; r = rows.next()) {
        if (!r.blank()) out.add(r.cells());
      }
    }
    return out;
  }
}
