package dev.gpurent.cost;

import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A service the scenario needs that the vendor does not sell, or sells at a price nobody has
 * read: the plan carries it from a fallback provider and is not complete.
 *
 * @param item   the bill's item ("object storage")
 * @param reason "not sold by hyperbolic: priced at Amazon S3 Standard ..."
 */
public record Gap(Message item, Message reason) {

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("item", Localizer.neutral(item));
    m.put("reason", Localizer.neutral(reason));
    return m;
  }
}
