package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A priced bill: its rows, the monthly total (the sum of the rounded rows), the total over the
 * horizon, and what upfront terms ask on the day they start ({@link #upfront}).
 */
public record Bill(List<LineItem> lines, Money monthlyTotal, Money horizonTotal, int horizonMonths) {

  public Bill {
    lines = List.copyOf(lines);
  }

  public static Bill of(List<LineItem> lines, String currency, int horizonMonths) {
    Money total = Money.zero(currency);
    for (LineItem l : lines) total = total.plus(l.perMonth());
    total = total.cents();
    return new Bill(lines, total, total.times(BigDecimal.valueOf(horizonMonths)).cents(), horizonMonths);
  }

  /** What the bill's all- and partial-upfront terms ask when they start, already spread into its monthly figures. */
  public Money upfront() {
    Money total = Money.zero(monthlyTotal.currency());
    for (LineItem l : lines) if (l.upfront() != null) total = total.plus(l.upfront());
    return total.cents();
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("lines", lines.stream().map(LineItem::toMap).toList());
    m.put("monthlyTotal", monthlyTotal.plain());
    m.put("horizonTotal", horizonTotal.plain());
    m.put("horizonMonths", horizonMonths);
    m.put("currency", monthlyTotal.currency());
    m.put("upfront", upfront().plain());
    return m;
  }
}
