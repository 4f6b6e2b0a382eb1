package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a bill, in the guide's template form (5.1): item, spec, quantity, unit price,
 * per month, note; plus where the price came from, the FX rate used and any amount due upfront.
 * Item, spec and note are {@link Message}s, rendered per language at the edge.
 *
 * <p>Every output shows the same quantity, unit and unit price, and quantity x unit price rounds
 * to per month, to the cent: the line is priced exactly, and the record keeps the shortest
 * roundings of the exact quantity and unit price that still multiply to it ({@link LineFigures}),
 * so a unit price has as many decimals as reconciliation needs.
 *
 * @param quantity   how many units are billed a month (card-hours, card-months, GB; a one-time
 *                   line's units are spread over the horizon); given exact, kept as shown; the
 *                   workbook's quantity cell, which finance may edit
 * @param unitPrice  price of one unit, in the scenario currency; given exact, kept as shown
 * @param unit       what one unit is: "card-hour", "card-month", "month", "GB", "GB-month", "GB once"
 * @param perMonth   this row's monthly cost, rounded to the cent
 * @param fx         "1 USD = 7.1 CNY (ECB 2025-05-09)" when converted, else ""
 * @param pricedBy   who this line's price is from: the vendor's stated price, a fallback provider
 *                   for a service the vendor does not sell or whose price is unknown, or a typical
 *                   figure the vendor file marks as not a stated price; only the first is signable
 * @param upfront    what an all- or partial-upfront term asks on the day each term starts, for
 *                   the whole line, in the scenario currency (its per month spreads it); null when none
 */
public record LineItem(Message item, Message spec, BigDecimal quantity, Money unitPrice, String unit, Money perMonth,
                       Message note, String source, String fx, PricedBy pricedBy, Money upfront) {

  public LineItem {
    LineFigures shown = LineFigures.of(quantity, unitPrice.amount(), perMonth.amount());
    // 2, not 2.0 or 2E+0: quantities are read by people and spreadsheets
    quantity = shown.quantity().signum() == 0 ? BigDecimal.ZERO : shown.quantity().stripTrailingZeros();
    if (quantity.scale() < 0) quantity = quantity.setScale(0);
    unitPrice = new Money(shown.unitPrice(), unitPrice.currency());
  }

  /** Whose price a line carries. */
  public enum PricedBy {
    VENDOR, FALLBACK, TYPICAL;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A line with nothing due upfront. */
  public LineItem(Message item, Message spec, BigDecimal quantity, Money unitPrice, String unit, Money perMonth,
                  Message note, String source, String fx, PricedBy pricedBy) {
    this(item, spec, quantity, unitPrice, unit, perMonth, note, source, fx, pricedBy, null);
  }

  /** A line priced by the vendor itself, nothing due upfront. */
  public LineItem(Message item, Message spec, BigDecimal quantity, Money unitPrice, String unit, Money perMonth,
                  Message note, String source, String fx) {
    this(item, spec, quantity, unitPrice, unit, perMonth, note, source, fx, PricedBy.VENDOR, null);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("item", Localizer.neutral(item));
    m.put("spec", Localizer.neutral(spec));
    m.put("quantity", quantity.toPlainString());
    m.put("unitPrice", unitPrice.plain());
    m.put("unit", unit);
    m.put("perMonth", perMonth.plain());
    m.put("currency", perMonth.currency());
    m.put("note", Localizer.neutral(note));
    m.put("source", source);
    m.put("fx", fx);
    m.put("pricedBy", pricedBy.wire());
    m.put("upfront", upfront == null ? null : upfront.plain());
    return m;
  }
}
