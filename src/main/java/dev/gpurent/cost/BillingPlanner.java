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
   * Extra hours a spot plan pays for when the offer's interruption rate is unknown: work lost
   * since the last checkpoint plus restart time after reclaims. 10% is a deliberately cautious
   * guess; where the vendor publishes interruption rates (the AWS Spot Advisor) the expected
   * interruptions times the workload's restart overhead replace it ({@link #spotOverhead}).
   */
  public static final double SPOT_RESTART_OVERHEAD = 0.10;
  /** Hours in a billing month, the one month of every mode ({@link PriceUnit#HOURS_PER_MONTH} says why 730). */
  public static final double HOURS_PER_MONTH = PriceUnit.HOURS_PER_MONTH.doubleValue();
  /** Days in that month (30.42): an inference workload's days when it names none, i.e. every day. */
  public static final double DAYS_PER_MONTH = HOURS_PER_MONTH / 24;

  private BillingPlanner() {}

  /**
   * The share of extra hours a spot instance pays: interruptions per running month times the
   * hours each costs (lost work and restart), spread over the month's hours.
   *
   * @param interruptionsPerMonth expected reclaims of one instance in 730 hours of running
   */
  public static double spotOverhead(double interruptionsPerMonth, double restartHours) {
    return interruptionsPerMonth * restartHours / HOURS_PER_MONTH;
  }

  /** Hours paid for each month per instance, spot paying the cautious default overhead. */
  public static double paidHoursPerMonth(Billing mode, double hoursUsed, int horizonMonths) {
    return paidHoursPerMonth(mode, hoursUsed, horizonMonths, SPOT_RESTART_OVERHEAD);
  }

  /** Hours paid for each month per instance, for {@code hoursUsed} hours of use a month. */
  public static double paidHoursPerMonth(Billing mode, double hoursUsed, int horizonMonths, double spotOverhead) {
    if (mode == Billing.SPOT) return hoursUsed * (1 + spotOverhead);
    if (!mode.isCommitment()) return hoursUsed;
    int term = mode.commitmentMonths();
    int terms = (horizonMonths + term - 1) / term;
    return HOURS_PER_MONTH * term * terms / horizonMonths;
  }

  /** Price units (hours, months or years of the quoted price) consumed each month. */
  public static double unitsPerMonth(Billing mode, PriceUnit unit, int instances, double hoursUsed, int horizonMonths,
                                     double spotOverhead) {
    return unitsPerMonth(mode, unit.hoursValue(), instances, hoursUsed, horizonMonths, spotOverhead);
  }

  /** As above, with the price unit given as the hours it spans. */
  public static double unitsPerMonth(Billing mode, double unitHours, int instances, double hoursUsed, int horizonMonths,
                                     double spotOverhead) {
    return instances * paidHoursPerMonth(mode, hoursUsed, horizonMonths, spotOverhead) / unitHours;
  }

  /** The monthly cost, exact: price x units, spot paying the cautious default overhead. */
  public static Money monthlyCost(Money price, PriceUnit unit, Billing mode, int instances, double hoursUsed, int horizonMonths) {
    return monthlyCost(price, unit, mode, instances, hoursUsed, horizonMonths, SPOT_RESTART_OVERHEAD);
  }

  /** The monthly cost, exact: price x units. */
  public static Money monthlyCost(Money price, PriceUnit unit, Billing mode, int instances, double hoursUsed, int horizonMonths,
                                  double spotOverhead) {
    return price.times(exactUnits(unit, mode, instances, hoursUsed, horizonMonths, spotOverhead));
  }

  /** The price units a month that {@link #monthlyCost} multiplies the price by: exact, as a bill line shows them. */
  public static BigDecimal exactUnits(PriceUnit unit, Billing mode, int instances, double hoursUsed, int horizonMonths,
                                      double spotOverhead) {
    double units = unitsPerMonth(mode, unit, instances, hoursUsed, horizonMonths, spotOverhead);
    // Whole units (2 cards a month, 720 hours) skip the double-to-text conversion of valueOf(double).
    return units == Math.rint(units) && Math.abs(units) < 1e15 ? BigDecimal.valueOf((long) units) : BigDecimal.valueOf(units);
  }

  /** Hours a month above which a monthly price beats an hourly one: 1500 / 3 = 500. */
  public static BigDecimal breakEvenHours(Money hourly, Money monthly) {
    return monthly.amount().divide(hourly.amount(), 1, RoundingMode.HALF_UP);
  }
}
