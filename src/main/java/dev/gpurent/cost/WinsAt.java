package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What it would take a vendor below #1 to take #1 for this scenario: the negotiated discount on
 * its GPU list prices (the YAML's {@code discount}) at which its whole bill is the cheapest, ties
 * going to the vendor id as in the ranking, and what that makes each of its winning offers cost.
 * Or, when no GPU discount can do it, why: its other services alone cost #1's whole bill.
 *
 * @param discount   the largest factor on list prices, to 4 decimals, that wins; empty when none can
 * @param unitPrices the winning offers at that factor, one per workload
 * @param reason     why no discount wins; {@link Words#EMPTY} when one does
 */
public record WinsAt(Optional<BigDecimal> discount, List<UnitPrice> unitPrices, Message reason) {

  /**
   * One workload's offer at the winning discount.
   *
   * @param unitPrice the price per {@code unit} in the scenario's currency at which the vendor wins
   */
  public record UnitPrice(String workload, String gpu, String gpuName, String billing, Money unitPrice, String unit) {}

  public WinsAt {
    unitPrices = List.copyOf(unitPrices);
  }

  static WinsAt never(Message reason) {
    return new WinsAt(Optional.empty(), List.of(), reason);
  }

  /** "wins at 0.8734 x list (NVIDIA RTX A5000 on-demand at 1.0118/hour or less)" or the reason none can. */
  public Message text() {
    if (discount.isEmpty()) return Words.of("winsAt.never", "reason", reason);
    List<Message> prices = unitPrices.stream().map(u -> Words.of("winsAt.price", "gpu", u.gpuName(),
        "mode", Words.of("billing." + u.billing()), "price", u.unitPrice().plain(), "unit", u.unit())).toList();
    return Words.of("winsAt.discount", "discount", discount.get().toPlainString(), "prices", prices);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("possible", discount.isPresent());
    m.put("discount", discount.map(BigDecimal::toPlainString).orElse(null));
    m.put("unitPrices", unitPrices.stream().map(u -> {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("workload", u.workload());
      x.put("gpu", u.gpu());
      x.put("billing", u.billing());
      x.put("unitPrice", u.unitPrice().plain());
      x.put("unit", u.unit());
      return x;
    }).toList());
    m.put("reason", Localizer.neutral(reason));
    m.put("text", Localizer.neutral(text()));
    return m;
  }
}
