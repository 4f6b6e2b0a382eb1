package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A priced bill: its rows, the monthly total (the sum of the rounded rows) and the total over the horizon. */
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

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("lines", lines.stream().map(LineItem::toMap).toList());
    m.put("monthlyTotal", monthlyTotal.plain());
    m.put("horizonTotal", horizonTotal.plain());
    m.put("horizonMonths", horizonMonths);
    m.put("currency", monthlyTotal.currency());
    return m;
  }
}
