package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The figures a bill line shows: as short as they can be, and always multiplying out to the line's cent. */
class LineFiguresTest {

  static LineFigures of(String units, String price) {
    BigDecimal u = new BigDecimal(units), p = new BigDecimal(price);
    return LineFigures.of(u, p, u.multiply(p).setScale(2, RoundingMode.HALF_UP));
  }

  @Test
  void a_doubles_noise_leaves_the_quantity_and_the_price_takes_the_decimals_the_cent_needs() {
    // spot: 730 h x 1.1 is 803.0000000000001 in doubles; 2 instances
    LineFigures f = of("1606.0000000000002", "1.01370860000");
    assertEquals(new BigDecimal("1606"), f.quantity());
    assertEquals(new BigDecimal("1.01371"), f.unitPrice(), "1606 x 1.0137 = 1628.00, not the line's 1628.02");
    // 2000 GB at 0.023 USD x 7.24049 CNY: 0.1665 (4 decimals) gives 333.00, the line is 333.06
    assertEquals(new BigDecimal("0.16653"), of("2000", "0.16653127").unitPrice());
    // the guide's own figures stay as they are
    assertEquals(new BigDecimal("1500"), of("2", "1500").unitPrice());
    assertEquals(new BigDecimal("0.1"), of("2000", "0.1").unitPrice());
  }

  @Test
  void a_year_spread_over_seven_months_keeps_the_quantity_it_needs() {
    // a 12-month term on a 7-month horizon: 12/7 card-months a month at 1500 a month
    LineFigures f = of("1.714285714285714", "1500");
    assertEquals(new BigDecimal("2571.43"), f.quantity().multiply(f.unitPrice()).setScale(2, RoundingMode.HALF_UP));
    assertTrue(f.quantity().scale() <= 7, f.quantity().toPlainString());
  }

  @Test
  void every_shown_pair_multiplies_out_in_decimals_and_in_a_spreadsheets_doubles() {
    Random r = new Random(27);
    for (int i = 0; i < 20_000; i++) {
      BigDecimal units = BigDecimal.valueOf(r.nextInt(5000) + r.nextDouble()).setScale(r.nextInt(12), RoundingMode.HALF_UP);
      BigDecimal price = BigDecimal.valueOf(r.nextDouble() * Math.pow(10, r.nextInt(6) - 2)).setScale(2 + r.nextInt(12), RoundingMode.HALF_UP);
      BigDecimal perMonth = units.multiply(price).setScale(2, RoundingMode.HALF_UP);
      LineFigures f = LineFigures.of(units, price, perMonth);
      assertTrue(LineFigures.reconciles(f.quantity(), f.unitPrice(), perMonth) || (f.quantity() == units && f.unitPrice() == price),
          units + " x " + price + " -> " + f);
      assertEquals(perMonth, f.quantity().multiply(f.unitPrice()).setScale(2, RoundingMode.HALF_UP), units + " x " + price + " -> " + f);
    }
  }
}
