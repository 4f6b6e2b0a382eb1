package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a bill, in the guide's template form (5.1): item, spec, quantity, unit price,
 * per month, note; plus where the price came from and the FX rate used, if any. Item, spec and
 * note are {@link Message}s, rendered per language at the edge; quantity is a figure and a unit.
 *
 * @param units      how many units are billed a month, so that {@code unitPrice x units} is
 *                   {@code perMonth} before rounding to the cent (cards or instances for a month,
 *                   instance-hours, GB; a one-time line's units are spread over the horizon); the
 *                   workbook's quantity cell, which finance may edit
 * @param unitPrice  price of one unit, in the scenario currency, exact (shown to 4 decimals)
 * @param unit       what one unit is: "hour", "month", "GB", "GB-month", "one-time"
 * @param perMonth   this row's monthly cost, rounded to the cent
 * @param fx         "1 USD = 7.1 CNY (ECB 2025-05-09)" when converted, else ""
 * @param pricedBy   who this line's price is from: the vendor's stated price, a fallback provider
 *                   for a service the vendor does not sell or whose price is unknown, or a typical
 *                   figure the vendor file marks as not a stated price; only the first is signable
 */
public record LineItem(Message item, Message spec, String quantity, BigDecimal units, Money unitPrice, String unit,
                       Money perMonth, Message note, String source, String fx, PricedBy pricedBy) {

  public LineItem {
    // 2, not 2.0 or 2E+0: units are read by people and spreadsheets
    units = units.signum() == 0 ? BigDecimal.ZERO : units.stripTrailingZeros();
    if (units.scale() < 0) units = units.setScale(0);
  }

  /** Whose price a line carries. */
  public enum PricedBy {
    VENDOR, FALLBACK, TYPICAL;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A line priced by the vendor itself. */
  public LineItem(Message item, Message spec, String quantity, BigDecimal units, Money unitPrice, String unit, Money perMonth,
                  Message note, String source, String fx) {
    this(item, spec, quantity, units, unitPrice, unit, perMonth, note, source, fx, PricedBy.VENDOR);
  }

  /** The unit price as a bill shows it: 0.0123, not 0.012345678. */
  public Money unitPriceShown() {
    return unitPrice.round(CostModel.UNIT_PRICE_DECIMALS);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("item", Localizer.neutral(item));
    m.put("spec", Localizer.neutral(spec));
    m.put("quantity", quantity);
    m.put("units", units.toPlainString());
    m.put("unitPrice", unitPrice.plain());
    m.put("unit", unit);
    m.put("perMonth", perMonth.plain());
    m.put("currency", perMonth.currency());
    m.put("note", Localizer.neutral(note));
    m.put("source", source);
    m.put("fx", fx);
    m.put("pricedBy", pricedBy.wire());
    return m;
  }
}
