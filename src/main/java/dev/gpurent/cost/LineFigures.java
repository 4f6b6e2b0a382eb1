package dev.gpurent.cost;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A bill line's quantity and unit price as every output shows them (text, JSON, CSV, dashboard,
 * workbook): the shortest roundings of the exact figures whose product still rounds to the line's
 * cent. The line itself is priced exactly; its figures are shown with as many decimals as that
 * needs, so that a reader (or a spreadsheet) multiplying them gets the bill's per-month figure.
 *
 * <p>The quantity is kept as short as it can be (1460 card-hours, not 1460.0000000000002) while
 * within a millionth of the exact one, then the unit price takes the fewest decimals (at least 2)
 * that reconcile. A pair must reconcile twice: in exact decimals, and as a spreadsheet computes
 * {@code ROUND(quantity * price, 2)} (binary doubles, the product read to 15 significant digits,
 * then half up), so that the workbook's formulas give the same cents. The exact figures always
 * reconcile, by how lines are priced; they are the last resort.
 */
record LineFigures(BigDecimal quantity, BigDecimal unitPrice) {

  /** A unit price is shown with at least as many decimals as money. */
  static final int MIN_PRICE_DECIMALS = 2;
  /** How far a shown quantity may be from the exact one, relative to it. */
  private static final BigDecimal QUANTITY_ERROR = new BigDecimal("1e-6");
  /** Excel (and POI's evaluator) read a double to 15 significant digits before rounding it. */
  private static final MathContext SHEET_DIGITS = new MathContext(15, RoundingMode.HALF_UP);

  static LineFigures of(BigDecimal units, BigDecimal price, BigDecimal perMonth) {
    BigDecimal tolerance = units.abs().multiply(QUANTITY_ERROR);
    int qScale = Math.max(0, units.scale());
    for (int qd = 0; qd <= qScale; qd++) {
      BigDecimal q = units.setScale(qd, RoundingMode.HALF_UP);
      if (q.subtract(units).abs().compareTo(tolerance) > 0) continue;
      int pScale = Math.max(MIN_PRICE_DECIMALS, price.scale());
      for (int pd = MIN_PRICE_DECIMALS; pd <= pScale; pd++) {
        BigDecimal p = pd >= price.scale() ? price : price.setScale(pd, RoundingMode.HALF_UP);
        if (reconciles(q, p, perMonth)) return new LineFigures(q, p);
      }
    }
    return new LineFigures(units, price);
  }

  /** {@code quantity x price} rounds to {@code perMonth}, in decimals and in a spreadsheet's doubles. */
  static boolean reconciles(BigDecimal quantity, BigDecimal price, BigDecimal perMonth) {
    if (quantity.multiply(price).setScale(2, RoundingMode.HALF_UP).compareTo(perMonth) != 0) return false;
    double sheet = quantity.doubleValue() * price.doubleValue();
    return new BigDecimal(sheet).round(SHEET_DIGITS).setScale(2, RoundingMode.HALF_UP).compareTo(perMonth) == 0;
  }
}
