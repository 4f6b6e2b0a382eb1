package dev.gpurent.cost;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * What a billing mode costs for a usage profile (guide 4.1-4.2). Pay-as-you-go modes charge
 * the hours used; a commitment charges every hour of its term, and a term longer than the
 * contract horizon is paid in full and spread over the horizon.
 */
public final class BillingPlanner {

  /**
   * Extra hours a spot plan pays for: work lost since the last checkpoint plus restart time
   * after a reclaim. 10% is our default for hourly checkpoints and a few reclaims a month;
   * it is shown on every spot line.
   */
  public static final double SPOT_RESTART_OVERHEAD = 0.10;
  /** Hours in a billing month (AWS, GCP and Azure convention). */
  public static final double HOURS_PER_MONTH = PriceUnit.HOURS_PER_MONTH.doubleValue();

  private BillingPlanner() {}

  /** Hours paid for each month per instance, for {@code hoursUsed} hours of use a month. */
  public static double paidHoursPerMonth(Billing mode, double hoursUsed, int horizonMonths) {
    if (mode == Billing.SPOT) return hoursUsed * (1 + SPOT_RESTART_OVERHEAD);
    if (!mode.isCommitment()) return hoursUsed;
    int term = mode.commitmentMonths();
    int terms = (horizonMonths + term - 1) / term;
    return HOURS_PER_MONTH * term * terms / horizonMonths;
  }

  /** Price units (hours, months or years of the quoted price) consumed each month. */
  public static double unitsPerMonth(Billing mode, PriceUnit unit, int instances, double hoursUsed, int horizonMonths) {
    return instances * paidHoursPerMonth(mode, hoursUsed, horizonMonths) / unit.hoursValue();
  }

  /** The monthly cost, exact: price x units. */
  public static Money monthlyCost(Money price, PriceUnit unit, Billing mode, int instances, double hoursUsed, int horizonMonths) {
    return price.times(BigDecimal.valueOf(unitsPerMonth(mode, unit, instances, hoursUsed, horizonMonths)));
  }

  /** Hours a month above which a monthly price beats an hourly one: 1500 / 3 = 500. */
  public static BigDecimal breakEvenHours(Money hourly, Money monthly) {
    return monthly.amount().divide(hourly.amount(), 1, RoundingMode.HALF_UP);
  }
}
