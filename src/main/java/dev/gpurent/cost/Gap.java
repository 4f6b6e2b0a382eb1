package dev.gpurent.cost;

import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A service the scenario needs that the vendor does not state a price for: not sold, sold at a
 * price nobody has read (the plan carries it from a fallback provider), or priced in the vendor
 * file at a typical figure only. Either way the plan is not complete.
 *
 * @param item     the bill's item ("object storage")
 * @param reason   "not sold by hyperbolic: priced at Amazon S3 Standard ..."
 * @param service  which service it is
 * @param pricedBy how the line is priced instead: {@code FALLBACK} or {@code TYPICAL}
 */
public record Gap(Message item, Message reason, dev.gpurent.quote.ServicePrice.Service service, LineItem.PricedBy pricedBy) {

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("item", Localizer.neutral(item));
    m.put("service", service.key());
    m.put("pricedBy", pricedBy.wire());
    m.put("reason", Localizer.neutral(reason));
    return m;
  }
}
