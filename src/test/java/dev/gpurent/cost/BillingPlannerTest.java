package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The guide's 4090 billing table (4.2) and its break-even (section 9). */
class BillingPlannerTest {

  private static final Money HOURLY = Money.of("3", "CNY");
  private static final Money MONTHLY = Money.of("1500", "CNY");

  private static Money onDemand(double hoursPerDay, double days) {
    return BillingPlanner.monthlyCost(HOURLY, PriceUnit.HOUR, Billing.ON_DEMAND, 1, hoursPerDay * days, 12).cents();
  }

  @Test
  void prices_the_4090_on_demand_at_264_792_and_2160() {
    assertEquals(Money.of("264", "CNY"), onDemand(4, 22));
    assertEquals(Money.of("792", "CNY"), onDemand(12, 22));
    assertEquals(Money.of("2160", "CNY"), onDemand(24, 30));
  }

  @Test
  void prices_monthly_at_1500_whatever_the_use() {
    for (double hours : new double[] {88, 264, 720}) {
      assertEquals(Money.of("1500", "CNY"),
          BillingPlanner.monthlyCost(MONTHLY, PriceUnit.MONTH, Billing.MONTHLY, 1, hours, 12).cents());
    }
  }

  @Test
  void breaks_even_at_500_hours_not_10_to_12_a_day() {
    assertEquals(0, new BigDecimal("500").compareTo(BillingPlanner.breakEvenHours(HOURLY, MONTHLY)));
    // 500 h is 16.7 h a day over 30 days, 22.7 over 22 (guide section 9).
    assertEquals(16.7, Math.round(500 / 30.0 * 10) / 10.0);
    assertEquals(22.7, Math.round(500 / 22.0 * 10) / 10.0);
  }

  @Test
  void charges_spot_its_restart_overhead() {
    Money spot = BillingPlanner.monthlyCost(Money.of("0.8", "CNY"), PriceUnit.HOUR, Billing.SPOT, 1, 100, 12).cents();
    assertEquals(Money.of("88", "CNY"), spot);
  }

  @Test
  void pays_a_whole_year_when_the_horizon_is_shorter() {
    Money yearly = Money.of("12000", "CNY");
    assertEquals(Money.of("2000", "CNY"), BillingPlanner.monthlyCost(yearly, PriceUnit.YEAR, Billing.YEARLY, 1, 720, 6).cents());
    assertEquals(Money.of("1000", "CNY"), BillingPlanner.monthlyCost(yearly, PriceUnit.YEAR, Billing.YEARLY, 1, 720, 12).cents());
    // An hourly-quoted monthly commitment pays all 730 hours of the month.
    assertEquals(Money.of("730", "CNY"),
        BillingPlanner.monthlyCost(Money.of("1", "CNY"), PriceUnit.HOUR, Billing.MONTHLY, 1, 100, 12).cents());
  }
}
