package dev.gpurent.cost;

import java.util.List;
import java.util.Optional;

/**
 * A whole bill to price: workloads plus data terms, in one currency over a contract horizon.
 *
 * @param name               shown in reports
 * @param currency           ISO code every figure is converted to
 * @param horizonMonths      contract length; commitments longer than it are paid in full
 * @param headroom           capacity kept spare on top of peak load (guide: 30%)
 * @param workloads          the work
 * @param storedGb           object storage kept (datasets, checkpoints)
 * @param egressGbPerMonth   public egress before compression
 * @param compressionRatio   egress is divided by this (1 = uncompressed)
 * @param loadBalancers      basic load balancers
 * @param migration          a one-time data move, if any
 * @param constraints        vendors, regions and cards ruled out; complete plans only; the reference sheet
 */
public record Scenario(String name, String currency, int horizonMonths, double headroom, List<Workload> workloads,
                       double storedGb, double egressGbPerMonth, double compressionRatio, int loadBalancers,
                       Optional<Migration> migration, Constraints constraints) {

  public Scenario {
    workloads = List.copyOf(workloads);
  }

  /** A scenario with nothing ruled out. */
  public Scenario(String name, String currency, int horizonMonths, double headroom, List<Workload> workloads, double storedGb,
                  double egressGbPerMonth, double compressionRatio, int loadBalancers, Optional<Migration> migration) {
    this(name, currency, horizonMonths, headroom, workloads, storedGb, egressGbPerMonth, compressionRatio, loadBalancers,
        migration, Constraints.NONE);
  }

  public Scenario withConstraints(Constraints c) {
    return new Scenario(name, currency, horizonMonths, headroom, workloads, storedGb, egressGbPerMonth, compressionRatio,
        loadBalancers, migration, c);
  }

  /** Egress actually sent each month. */
  public double billedEgressGb() {
    return egressGbPerMonth / compressionRatio;
  }
}
