package dev.gpurent.catalog;

import java.util.Locale;

/**
 * How the cards of one machine talk to each other: NVLink (or AMD Infinity Fabric) with its
 * per-card bandwidth, or plain PCIe of some generation.
 *
 * @param kind      "nvlink", "infinity-fabric" or "pcie"
 * @param gbPerSec  bidirectional card-to-card bandwidth in GB/s (PCIe 4.0 x16: 64)
 * @param label     what a person reads, e.g. "NVLink 600 GB/s" or "PCIe 4.0"
 */
public record Interconnect(String kind, double gbPerSec, String label) {

  /** Calibration points from the guide (3.3): two PCIe 4.0 cards give 1.5x, two NVLinked A100s 1.9x. */
  static final double PCIE4_GBS = 64, PCIE4_PAIR_SPEEDUP = 1.5;
  static final double A100_NVLINK_GBS = 600, A100_NVLINK_PAIR_SPEEDUP = 1.9;

  public Interconnect {
    if (gbPerSec <= 0) throw new IllegalArgumentException("interconnect bandwidth must be > 0");
  }

  public boolean isPcie() {
    return kind.equals("pcie");
  }

  /** Parses the catalog form: {@code nvlink:600}, {@code infinity-fabric:896} or {@code pcie4}. */
  public static Interconnect parse(String spec) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.startsWith("pcie")) {
      int gen = Integer.parseInt(s.substring(4));
      // x16 bidirectional: gen3 32, gen4 64, gen5 128 GB/s
      double gbs = 32 * Math.pow(2, gen - 3);
      return new Interconnect("pcie", gbs, "PCIe " + gen + ".0");
    }
    int colon = s.indexOf(':');
    if (colon < 0) throw new IllegalArgumentException("interconnect '" + spec + "': expected pcieN or nvlink:GBPS");
    String kind = s.substring(0, colon);
    if (!kind.equals("nvlink") && !kind.equals("infinity-fabric")) {
      throw new IllegalArgumentException("interconnect '" + spec + "': kind must be pcie, nvlink or infinity-fabric");
    }
    double gbs = Double.parseDouble(s.substring(colon + 1));
    String name = kind.equals("nvlink") ? "NVLink" : "Infinity Fabric";
    return new Interconnect(kind, gbs, name + " " + Math.round(gbs) + " GB/s");
  }

  /**
   * Fraction of ideal speed-up kept at each doubling of the card count. Interpolated in
   * log-bandwidth between the guide's two calibration points (0.75 at 64 GB/s, 0.95 at
   * 600 GB/s) and clamped to [0.6, 0.97]: no interconnect makes scaling free.
   */
  public double efficiencyPerDoubling() {
    double low = PCIE4_PAIR_SPEEDUP / 2, high = A100_NVLINK_PAIR_SPEEDUP / 2;
    double t = Math.log(gbPerSec / PCIE4_GBS) / Math.log(A100_NVLINK_GBS / PCIE4_GBS);
    return Math.max(0.6, Math.min(0.97, low + (high - low) * t));
  }

  /** Speed of {@code cards} cards relative to one: cards x efficiency^log2(cards). */
  public double speedup(int cards) {
    if (cards <= 1) return 1.0;
    double doublings = Math.log(cards) / Math.log(2);
    return cards * Math.pow(efficiencyPerDoubling(), doublings);
  }
}
