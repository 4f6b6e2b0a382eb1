package dev.gpurent.quote;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * What a vendor charges besides GPUs, each service as a price, "not sold" or "unknown" with
 * where that was read.
 *
 * @param currency          the currency of every price here
 * @param storagePerGbMonth object storage per GB-month
 * @param egress            public egress: its availability, and when priced the first tier's price
 * @param egressTiers       egress price bands, cheapest last, the final one unbounded; empty unless egress is priced
 * @param ingressPerGb      inbound transfer per GB (usually free, when a source says so)
 * @param loadBalancerPerMonth one basic load balancer per month
 * @param granularity       how usage is rounded ("second", "minute", "hour")
 * @param discount          negotiated factor applied to GPU prices (1 = list price)
 * @param source            where these figures come from (URL, page, date)
 * @param migrationInPerGb  a one-time fee per GB to bring data in (an import service), when stated
 * @param migrationOutPerGb a one-time fee per GB to take data out, when stated
 * @param bandwidthMbps     the bandwidth a migration out of this vendor gets, Mbit/s; 0 when not stated
 */
public record VendorTerms(String currency, ServicePrice storagePerGbMonth, ServicePrice egress, List<EgressTier> egressTiers,
                          ServicePrice ingressPerGb, ServicePrice loadBalancerPerMonth, String granularity,
                          BigDecimal discount, String source, ServicePrice migrationInPerGb, ServicePrice migrationOutPerGb,
                          double bandwidthMbps) {

  /** Terms that state no migration fees nor bandwidth. */
  public VendorTerms(String currency, ServicePrice storagePerGbMonth, ServicePrice egress, List<EgressTier> egressTiers,
                     ServicePrice ingressPerGb, ServicePrice loadBalancerPerMonth, String granularity, BigDecimal discount,
                     String source) {
    this(currency, storagePerGbMonth, egress, egressTiers, ingressPerGb, loadBalancerPerMonth, granularity, discount, source,
        ServicePrice.unknown(""), ServicePrice.unknown(""), 0);
  }

  /** The same terms with another negotiated discount on GPU prices (for "what it would take to win"). */
  public VendorTerms withDiscount(BigDecimal factor) {
    return new VendorTerms(currency, storagePerGbMonth, egress, egressTiers, ingressPerGb, loadBalancerPerMonth, granularity,
        factor, source, migrationInPerGb, migrationOutPerGb, bandwidthMbps);
  }

  public VendorTerms {
    Objects.requireNonNull(currency, "currency");
    egressTiers = List.copyOf(egressTiers);
    if (egress.isPriced() == egressTiers.isEmpty()) {
      throw new IllegalArgumentException("priced egress needs at least one tier, and only priced egress has tiers");
    }
    if (discount.signum() <= 0 || discount.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException("discount must be in (0, 1], was " + discount);
    }
    if (!(bandwidthMbps >= 0) || Double.isInfinite(bandwidthMbps)) throw new IllegalArgumentException("bandwidthMbps must be >= 0");
  }

  /** Terms where every service has a price: egress in {@code tiers}, the first tier's price read as "egress per GB". */
  public static VendorTerms priced(Money storagePerGbMonth, List<EgressTier> tiers, Money ingressPerGb,
                                   Money loadBalancerPerMonth, String granularity, BigDecimal discount, String source) {
    return new VendorTerms(storagePerGbMonth.currency(), ServicePrice.priced(storagePerGbMonth, ""),
        ServicePrice.priced(tiers.get(0).perGb(), ""), tiers, ServicePrice.priced(ingressPerGb, ""),
        ServicePrice.priced(loadBalancerPerMonth, ""), granularity, discount, source);
  }

  /**
   * One egress price band.
   *
   * @param upToGb monthly GB at which this tier ends, or null for the last tier
   * @param perGb  price per GB within the tier
   */
  public record EgressTier(BigDecimal upToGb, Money perGb) {}

  /** What the vendor says about {@code service}. */
  public ServicePrice of(ServicePrice.Service service) {
    return switch (service) {
      case OBJECT_STORAGE -> storagePerGbMonth;
      case EGRESS -> egress;
      case INGRESS -> ingressPerGb;
      case LOAD_BALANCER -> loadBalancerPerMonth;
    };
  }

  /** The monthly egress bill for {@code gb} GB, walking the tiers; egress must be priced. */
  public Money egressCost(BigDecimal gb) {
    return egressCost(egressTiers, gb, currency);
  }

  /** The bill for {@code gb} GB over {@code tiers}. */
  public static Money egressCost(List<EgressTier> tiers, BigDecimal gb, String currency) {
    Money total = Money.zero(currency);
    BigDecimal done = BigDecimal.ZERO;
    for (EgressTier tier : tiers) {
      if (done.compareTo(gb) >= 0) break;
      BigDecimal end = tier.upToGb() == null ? gb : tier.upToGb().min(gb);
      BigDecimal inTier = end.subtract(done);
      if (inTier.signum() > 0) total = total.plus(tier.perGb().times(inTier));
      done = end;
    }
    return total;
  }

  /** The first tier's price: what a person reads as "egress per GB"; egress must be priced. */
  public Money egressPerGb() {
    return egressTiers.get(0).perGb();
  }
}
