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
 * What it would take a vendor below #1 to take #1 for this scenario, in one of two forms.
 *
 * <p>For a plan that costs more than #1: the negotiated discount on its GPU list prices (the YAML's
 * {@code discount}) at which its whole bill is the cheapest, ties going to the vendor id as in the
 * ranking, and what that makes each of its winning offers cost. Or, when no GPU discount can do it,
 * why: its other services alone cost #1's whole bill.
 *
 * <p>For an incomplete plan that costs less than #1 (the cheapest complete plan): the highest price
 * for each of its missing services (those priced from a fallback provider or a typical figure) at
 * which it would still beat #1, worked out the same way: one factor on all of those figures, the
 * largest to 4 decimals at which its exact bill still wins, each price at that factor rounded down.
 * A quote at or under every one of them makes it the cheapest plan one can sign.
 *
 * @param discount   the largest factor on list prices, to 4 decimals, that wins; empty when none can
 *                   or for the second form
 * @param unitPrices the winning offers at that factor, one per workload
 * @param services   the second form's price ceilings, one per missing service; empty for the first
 * @param reason     why no discount wins; {@link Words#EMPTY} when one does
 */
public record WinsAt(Optional<BigDecimal> discount, List<UnitPrice> unitPrices, List<ServiceCap> services, Message reason) {

  /**
   * One workload's offer at the winning discount.
   *
   * @param unitPrice the price per {@code unit} in the scenario's currency at which the vendor wins
   */
  public record UnitPrice(String workload, String gpu, String gpuName, String billing, Money unitPrice, String unit) {}

  /**
   * One missing service's price ceiling.
   *
   * @param service  its key ({@code objectStorage}, {@code egress}, {@code ingress}, {@code loadBalancer})
   * @param pricedBy how the plan prices it now: {@code fallback} or {@code typical}
   * @param billedAt the figure it is billed at now, per {@code unit}, in the scenario's currency
   * @param atMost   the highest price per {@code unit} at which the plan still wins, to 4 decimals, rounded down
   * @param unit     "GB-month", "GB" or "month"
   * @param against  the vendor whose plan (the cheapest complete one) it would beat
   */
  public record ServiceCap(String service, Message item, String pricedBy, Money billedAt, Money atMost, String unit,
                           String against) {}

  public WinsAt {
    unitPrices = List.copyOf(unitPrices);
    services = List.copyOf(services);
  }

  WinsAt(Optional<BigDecimal> discount, List<UnitPrice> unitPrices, Message reason) {
    this(discount, unitPrices, List.of(), reason);
  }

  static WinsAt never(Message reason) {
    return new WinsAt(Optional.empty(), List.of(), reason);
  }

  static WinsAt ifQuoted(List<ServiceCap> services) {
    return new WinsAt(Optional.empty(), List.of(), services, Words.EMPTY);
  }

  /** Whether the plan can take #1: at a GPU discount, or with its missing services quoted at most at {@link #services}. */
  public boolean possible() {
    return discount.isPresent() || !services.isEmpty();
  }

  /**
   * "wins at 0.8734 x list (NVIDIA RTX A5000 on-demand at 1.0118/hour or less)", "beats #1 azure if
   * its object storage costs at most 0.9321/GB-month: ask for a quote", or the reason none can.
   */
  public Message text() {
    if (!services.isEmpty()) {
      List<Message> caps = services.stream().map(c -> Words.of("winsAt.service", "item", c.item(), "price", c.atMost().plain(),
          "unit", Words.unit(c.unit()))).toList();
      return Words.of("winsAt.quote", "vendor", services.get(0).against(), "prices", caps);
    }
    if (discount.isEmpty()) return Words.of("winsAt.never", "reason", reason);
    List<Message> prices = unitPrices.stream().map(u -> Words.of("winsAt.price", "gpu", u.gpuName(),
        "mode", Words.of("billing." + u.billing()), "price", u.unitPrice().plain(), "unit", Words.unit(u.unit()))).toList();
    return Words.of("winsAt.discount", "discount", discount.get().toPlainString(), "prices", prices);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("possible", possible());
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
    m.put("services", services.stream().map(c -> {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("service", c.service());
      x.put("item", Localizer.neutral(c.item()));
      x.put("pricedBy", c.pricedBy());
      x.put("billedAt", c.billedAt().plain());
      x.put("atMost", c.atMost().plain());
      x.put("unit", c.unit());
      x.put("against", c.against());
      return x;
    }).toList());
    m.put("reason", Localizer.neutral(reason));
    m.put("text", Localizer.neutral(text()));
    return m;
  }
}
