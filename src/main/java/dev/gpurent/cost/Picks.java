package dev.gpurent.cost;

/** Per-vendor, per-workload winners: overall, on-demand only, monthly only, and on one card. */
final class Picks {
  Pick best, onDemand, monthly, singleCard;
  /** The cheapest offer on a different card than {@link #best}: the "next best card". */
  Pick otherGpu;
  /** The cheapest offer on the card the workload was measured on. */
  Pick onReference;
  /** How many of the vendor's offers could carry the workload at all. */
  int fitting;
}
