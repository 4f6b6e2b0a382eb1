package dev.gpurent.cost;

import dev.gpurent.catalog.Interconnect;

/**
 * Where cards that work together may sit, and how fast they are there (guide 3.3). Cards of one
 * model copy or one job share one machine and its interconnect; spread over several machines
 * (only when a workload allows it) they talk over the network between them.
 */
final class Placements {

  /**
   * The link between machines when a vendor states none: ordinary 25 Gbit/s Ethernet (3.1 GB/s),
   * below PCIe. On the guide's calibration (Interconnect: 1.5x for two cards at 64 GB/s, 1.9x at
   * 600 GB/s, interpolated in log-bandwidth) it falls under the floor, so it scales at the floor's
   * 0.6 per doubling: two machines run 1.2x as fast as one. An assumption, stated on every such
   * plan; a vendor's InfiniBand would earn more.
   */
  static final Interconnect NETWORK = new Interconnect("ethernet", 3.125, "25 Gbit/s Ethernet between machines");
  /** {@link #NETWORK}'s label as a reader sees it, in each language. */
  static final dev.gpurent.text.Message NETWORK_WORDS = Words.of("network.label");

  /** More machines than this for one job is not a rental plan. */
  static final int MAX_MACHINES = 64;

  private Placements() {}

  /** Wall-clock hours a month of a job on {@code machines} machines of {@code perMachine} cards each. */
  static double jobHours(Fit fit, int perMachine, int machines) {
    double hours = fit.wallHours(perMachine);
    return machines == 1 ? hours : hours / NETWORK.speedup(machines);
  }
}
