package dev.gpurent.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The {@code maker} and {@code computeCapability} of {@code config/gpus.yaml}: NVIDIA's CUDA GPUs
 * page (https://developer.nvidia.com/cuda-gpus) for NVIDIA cards, 0 for AMD's.
 */
class GpuComputeCapabilityTest {

  private static final Path FILE = Path.of("config/gpus.yaml");
  private static final GpuCatalog CATALOG = GpuCatalog.load(FILE);

  private static Gpu card(String id) {
    return CATALOG.byId(id).orElseThrow();
  }

  @Test
  void gives_named_cards_their_cuda_compute_capability() {
    Map<String, Double> expected = Map.ofEntries(
        Map.entry("a100-40g-sxm", 8.0), Map.entry("a100-80g-pcie", 8.0), Map.entry("h100-sxm", 9.0), Map.entry("h200", 9.0),
        Map.entry("rtx-4090", 8.9), Map.entry("l40s", 8.9), Map.entry("l4", 8.9), Map.entry("a10", 8.6), Map.entry("a10g", 8.6),
        Map.entry("t4", 7.5), Map.entry("v100-16g", 7.0), Map.entry("k80", 3.7), Map.entry("m60", 5.2), Map.entry("p100", 6.0),
        Map.entry("grid-k520", 3.0), Map.entry("b200", 10.0), Map.entry("rtx-5090", 12.0), Map.entry("rtx-pro-6000", 12.0),
        Map.entry("m2050", 2.0), Map.entry("mi300x", 0.0));
    Map<String, Double> actual = new TreeMap<>();
    expected.keySet().forEach(id -> actual.put(id, card(id).computeCapability()));
    assertEquals(new TreeMap<>(expected), actual);
    assertEquals("nvidia", card("h100-sxm").maker());
    assertEquals("amd", card("mi300x").maker());
  }

  @Test
  void gives_every_nvidia_card_a_compute_capability_and_every_amd_card_none() {
    Map<String, List<String>> byMaker = CATALOG.all().stream()
        .collect(Collectors.groupingBy(Gpu::maker, TreeMap::new, Collectors.mapping(Gpu::id, Collectors.toList())));
    assertEquals(List.of("amd", "nvidia"), List.copyOf(byMaker.keySet()));
    assertEquals(List.of("mi25", "radeon-pro-v520", "mi300x", "mi355x"), byMaker.get("amd"));
    for (Gpu g : CATALOG.all()) {
      if (g.maker().equals("nvidia")) assertTrue(g.computeCapability() > 0, g.id());
      else assertEquals(0.0, g.computeCapability(), g.id());
      assertEquals(Gpu.makerOf(g.name()), g.maker(), g.id() + ": the maker the name's first word gives");
    }
  }

  @Test
  void writes_maker_and_compute_capability_in_every_entry() {
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> entries = (List<Map<String, Object>>) ((Map<String, Object>) YamlFiles.load(FILE)).get("gpus");
    List<String> missing = entries.stream().filter(e -> !e.containsKey("maker") || !e.containsKey("computeCapability"))
        .map(e -> String.valueOf(e.get("id"))).toList();
    assertEquals(List.of(), missing);
    // right after interconnect, as the file's other entries have it
    for (Map<String, Object> e : entries) {
      List<String> keys = List.copyOf(e.keySet());
      int at = keys.indexOf("interconnect");
      assertEquals(List.of("maker", "computeCapability"), keys.subList(at + 1, at + 3), String.valueOf(e.get("id")));
    }
  }
}
