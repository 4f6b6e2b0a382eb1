package dev.gpurent.adapter;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which card an OpenComputePrices row rents, and how much of it: the feed's {@code gpu_name},
 * {@code gpu_variant} and {@code gpu_memory_gb} resolved in the catalog, and {@code gpu_count}
 * checked against the memory, since the memory column means three things (PROVENANCE.md 10a):
 * <ul>
 *   <li>{@code per-gpu}: each card's memory (Azure, E2E, the price APIs);</li>
 *   <li>{@code offer}: the whole offer's memory over {@code gpu_count} cards (massedcompute
 *       {@code H200x2} 282, getdeploying {@code 2x L4} 48);</li>
 *   <li>{@code plan}: a plan's VRAM under {@code gpu_count} 1, so a part of a card or several
 *       cards (Vultr: {@code vcg-a16-2c-8g-2vram} is 2 GB of a 16 GB A16, {@code
 *       vcg-a100-24c-240g-160vram} two 80 GB A100s).</li>
 * </ul>
 * Memory under the card's is a slice: the offer rents that fraction of a card (2 GB of an A16 is
 * 2/16 = 0.125 GPU), which the engine never places a workload on (it places whole cards only), so a
 * slice never carries a model nor counts as a card. Memory above the card's is several cards only
 * in {@code plan} mode and only as a whole multiple; otherwise the row is refused, naming both
 * figures (massedcompute's "H100" at 94 GB is an H100 NVL the name does not say; jarvislabs' "RTX
 * 6000" at 48 GB an RTX 6000 Ada that lost its suffix). Memory 0 or empty is the feed's
 * placeholder (10a, trap 4): the count stands as written.
 *
 * <p>A provider that prices whole nodes under {@code gpu_count} 1 (CoreWeave: {@code GB200 NVL72}
 * 42.0 is a 4-GPU tray, {@code A100} 21.6 an 8-GPU node) names each node's GPUs in its vendor file
 * ({@code nodes}); a row of such a provider whose node the file does not size is refused.
 */
final class FeedCards {

  /** Within this share of the card's memory a figure is the card's (180 GB for a 192 GB B200). */
  static final double SAME_CARD = 0.1;

  /** What a row rents: the card and how many of it, possibly a fraction. */
  record Cards(Gpu gpu, double count, String note) {}

  private final GpuCatalog catalog;
  private final Map<String, String> spellings;
  private final String memory;
  private final Map<String, Integer> nodes;

  /**
   * @param spellings the vendor file's {@code cards}: feed name -> catalog spelling ("A100" -> "A100 80GB")
   * @param memory    per-gpu, offer or plan (see the class comment)
   * @param nodes     the vendor file's {@code nodes}: instance_type -> GPUs of the node its price is for; empty when prices are per offer
   */
  FeedCards(GpuCatalog catalog, Map<String, String> spellings, String memory, Map<String, Integer> nodes) {
    this.catalog = catalog;
    this.spellings = spellings;
    this.memory = memory;
    this.nodes = nodes;
  }

  /** The row's cards; IllegalArgumentException with the reason when the row names none it can price. */
  Cards of(FeedRow r) {
    String name = r.get("gpu_name");
    if (name.isEmpty()) throw new IllegalArgumentException("no gpu_name: the row names no card");
    BigDecimal count = Decimals.of(r.get("gpu_count"));
    if (count == null) throw new IllegalArgumentException(Decimals.notANumber("gpu_count", r.get("gpu_count")));
    if (count.signum() <= 0) {
      throw new IllegalArgumentException("gpu_count " + count.toPlainString() + ": the row does not say how many " + name + " it rents");
    }
    BigDecimal mem = Decimals.of(r.get("gpu_memory_gb"));
    double perGpu = mem == null || mem.signum() <= 0 ? 0
        : memory.equals("offer") ? mem.doubleValue() / count.doubleValue() : mem.doubleValue();
    Gpu gpu = resolve(name, r.get("gpu_variant"), perGpu)
        .orElseThrow(() -> new IllegalArgumentException("unknown GPU '" + name + "'"
            + (r.get("gpu_variant").isEmpty() ? "" : " (variant '" + r.get("gpu_variant") + "')")));
    if (!nodes.isEmpty()) {
      Integer n = nodes.get(r.get("instance_type"));
      if (n == null) {
        throw new IllegalArgumentException("the price of a whole node under gpu_count " + count.toPlainString() + ", and the vendor "
            + "file's nodes do not say how many " + name + " the node '" + r.get("instance_type") + "' has");
      }
      return new Cards(gpu, n, "a node of " + n + " cards, priced whole under gpu_count " + count.toPlainString());
    }
    if (perGpu == 0 || Math.abs(perGpu - gpu.memoryGiB()) <= SAME_CARD * gpu.memoryGiB()) {
      return new Cards(gpu, count.doubleValue(), "");
    }
    String figures = fmt(perGpu) + " GB against " + fmt(gpu.memoryGiB()) + " GB of a " + gpu.id();
    if (perGpu < gpu.memoryGiB()) {
      if (count.compareTo(BigDecimal.ONE) != 0) {
        throw new IllegalArgumentException(count.toPlainString() + " slices of " + figures + ": a count of slices is no offer we can size");
      }
      return new Cards(gpu, perGpu / gpu.memoryGiB(), "a slice of a card: " + figures);
    }
    double n = perGpu / gpu.memoryGiB();
    if (memory.equals("plan") && count.compareTo(BigDecimal.ONE) == 0 && n == Math.rint(n)) {
      return new Cards(gpu, n, "memory summed over " + (int) n + " cards: " + figures);
    }
    throw new IllegalArgumentException("memory " + figures + " per card: the name '" + name + "' hides another card, or the "
        + "memory is summed over cards the count does not say");
  }

  /**
   * The card of a name: the vendor file's spelling first, then the name with its memory and
   * variant ("A100 80GB PCIe", "H100 PCIe", "A100 40GB"), then the name alone.
   */
  Optional<Gpu> resolve(String name, String variant, double perGpu) {
    String own = spellings.get(name);
    if (own != null) return catalog.find(own);
    String gb = perGpu > 0 ? fmt(perGpu) + "GB" : "";
    List<String> tries = new ArrayList<>();
    if (!gb.isEmpty() && !variant.isEmpty()) {
      tries.add(name + " " + gb + " " + variant);
      tries.add(name + " " + variant + " " + gb);
    }
    if (!variant.isEmpty()) tries.add(name + " " + variant);
    if (!gb.isEmpty()) tries.add(name + " " + gb);
    tries.add(name);
    for (String t : tries) {
      Optional<Gpu> g = catalog.find(t);
      if (g.isPresent()) return g;
    }
    return Optional.empty();
  }

  static String fmt(double v) {
    return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
  }
}
