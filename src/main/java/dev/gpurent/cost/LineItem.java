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
 * so a unit price has as many decimals as reconciliation needs. Those roundings are worked out
 * on first read, and lines are equal when every output would show them the same.
 *
 * <p>The constructor's figures: {@code quantity}, how many units are billed a month (card-hours,
 * card-months, GB; a one-time line's units are spread over the horizon), given exact, kept as
 * shown (the workbook's quantity cell, which finance may edit); {@code unitPrice}, one unit's
 * price in the scenario currency, given exact, kept as shown; {@code unit}, what one unit is
 * ("card-hour", "card-month", "month", "GB", "GB-month", "GB once"); {@code perMonth}, the row's
 * monthly cost rounded to the cent; {@code fx}, "1 USD = 7.1 CNY (ECB 2025-05-09)" when
 * converted, else ""; {@code pricedBy}, who the price is from: the vendor's stated price, a
 * fallback provider for a service the vendor does not sell or whose price is unknown, or a typical
 * figure the vendor file marks as not a stated price (only the first is signable); {@code upfront},
 * what an all- or partial-upfront term asks on the day each term starts, for the whole line, in
 * the scenario currency (its per month spreads it), null when none.
 */
public final class LineItem {

  private final Message item;
  private final Message spec;
  private final BigDecimal exactQuantity;
  private final Money exactUnitPrice;
  private final String unit;
  private final Money perMonth;
  private final Message note;
  private final String source;
  private final String fx;
  private final PricedBy pricedBy;
  private final Money upfront;
  /**
   * The figures as shown, worked out on first read: the search for them is most of what a line
   * costs, and a ranking prices every vendor's plan but shows a few. An immutable record with
   * final fields, so a racing first read at worst works it out twice.
   */
  private LineFigures shown;

  public LineItem(Message item, Message spec, BigDecimal quantity, Money unitPrice, String unit, Money perMonth,
                  Message note, String source, String fx, PricedBy pricedBy, Money upfront) {
    this.item = item;
    this.spec = spec;
    this.exactQuantity = java.util.Objects.requireNonNull(quantity, "quantity");
    this.exactUnitPrice = unitPrice;
    this.unit = unit;
    this.perMonth = perMonth;
    this.note = note;
    this.source = source;
    this.fx = fx;
    this.pricedBy = pricedBy;
    this.upfront = upfront;
  }

  private LineFigures shown() {
    LineFigures f = shown;
    if (f == null) {
      LineFigures found = LineFigures.of(exactQuantity, exactUnitPrice.amount(), perMonth.amount());
      // 2, not 2.0 or 2E+0: quantities are read by people and spreadsheets
      BigDecimal q = found.quantity().signum() == 0 ? BigDecimal.ZERO : found.quantity().stripTrailingZeros();
      if (q.scale() < 0) q = q.setScale(0);
      f = new LineFigures(q, found.unitPrice());
      shown = f;
    }
    return f;
  }

  public Message item() {
    return item;
  }

  public Message spec() {
    return spec;
  }

  /** The quantity as shown: the shortest rounding of the exact one that reconciles. */
  public BigDecimal quantity() {
    return shown().quantity();
  }

  /** The unit price as shown, with the decimals reconciliation needs. */
  public Money unitPrice() {
    return new Money(shown().unitPrice(), exactUnitPrice.currency());
  }

  public String unit() {
    return unit;
  }

  public Money perMonth() {
    return perMonth;
  }

  public Message note() {
    return note;
  }

  public String source() {
    return source;
  }

  public String fx() {
    return fx;
  }

  public PricedBy pricedBy() {
    return pricedBy;
  }

  public Money upfront() {
    return upfront;
  }

  /** Lines are equal when every output would show them the same. */
  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof LineItem l)) return false;
    return item.equals(l.item) && spec.equals(l.spec) && unit.equals(l.unit) && perMonth.equals(l.perMonth)
        && note.equals(l.note) && source.equals(l.source) && fx.equals(l.fx) && pricedBy == l.pricedBy
        && java.util.Objects.equals(upfront, l.upfront) && shown().equals(l.shown());
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(item, spec, unit, perMonth, note, source, fx, pricedBy, upfront, shown());
  }

  @Override
  public String toString() {
    return "LineItem[item=" + item + ", spec=" + spec + ", quantity=" + quantity() + ", unitPrice=" + unitPrice() + ", unit=" + unit
        + ", perMonth=" + perMonth + ", note=" + note + ", source=" + source + ", fx=" + fx + ", pricedBy=" + pricedBy
        + ", upfront=" + upfront + "]";
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
    m.put("quantity", quantity().toPlainString());
    m.put("unitPrice", unitPrice().plain());
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
