package dev.gpurent.quote;

import java.math.BigDecimal;
import java.util.List;

/**
 * What a vendor charges besides GPUs, each figure with where it came from.
 *
 * @param storagePerGbMonth object storage per GB-month
 * @param egress            public egress tiers, cheapest last; the final tier has no upper bound
 * @param ingressPerGb      inbound transfer per GB (usually zero)
 * @param loadBalancerPerMonth one basic load balancer per month
 * @param granularity       how usage is rounded ("second", "minute", "hour")
 * @param discount          negotiated factor applied to GPU prices (1 = list price)
 * @param source            where these figures come from (URL, page, date)
 */
public record VendorTerms(Money storagePerGbMonth, List<EgressTier> egress, Money ingressPerGb,
                          Money loadBalancerPerMonth, String granularity, BigDecimal discount, String source) {

  public VendorTerms {
    egress = List.copyOf(egress);
    if (egress.isEmpty()) throw new IllegalArgumentException("egress needs at least one tier");
    if (discount.signum() <= 0 || discount.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException("discount must be in (0, 1], was " + discount);
    }
  }

  /**
   * One egress price band.
   *
   * @param upToGb monthly GB at which this tier ends, or null for the last tier
   * @param perGb  price per GB within the tier
   */
  public record EgressTier(BigDecimal upToGb, Money perGb) {}

  /** The monthly egress bill for {@code gb} GB, walking the tiers. */
  public Money egressCost(BigDecimal gb) {
    Money total = Money.zero(storagePerGbMonth.currency());
    BigDecimal done = BigDecimal.ZERO;
    for (EgressTier tier : egress) {
      if (done.compareTo(gb) >= 0) break;
      BigDecimal end = tier.upToGb() == null ? gb : tier.upToGb().min(gb);
      BigDecimal inTier = end.subtract(done);
      if (inTier.signum() > 0) total = total.plus(tier.perGb().times(inTier));
      done = end;
    }
    return total;
  }

  /** The first tier's price: what a person reads as "egress per GB". */
  public Money egressPerGb() {
    return egress.get(0).perGb();
  }
}
