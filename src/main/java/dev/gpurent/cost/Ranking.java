package dev.gpurent.cost;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every vendor's cheapest complete plan, best first; ties on the monthly total (to the cent)
 * go to the vendor id in alphabetical order, so the same inputs always give the same order.
 *
 * @param mixed        each workload at its cheapest vendor, with data moved between them; present
 *                     only when it differs from the best single vendor
 * @param unavailable  vendors that cannot carry the whole scenario, each with the reason
 */
public record Ranking(String scenario, String currency, int horizonMonths, List<VendorPlan> plans,
                      Optional<MixedPlan> mixed, List<Unavailable> unavailable, Instant quotesAt) {

  public Ranking {
    plans = List.copyOf(plans);
    unavailable = List.copyOf(unavailable);
  }

  /** A vendor left out, and why. */
  public record Unavailable(String vendor, String reason) {}

  public Optional<VendorPlan> best() {
    return plans.isEmpty() ? Optional.empty() : Optional.of(plans.get(0));
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", scenario);
    m.put("currency", currency);
    m.put("horizonMonths", horizonMonths);
    m.put("quotesAt", quotesAt == null ? null : quotesAt.toString());
    m.put("plans", plans.stream().map(VendorPlan::toMap).toList());
    m.put("mixed", mixed.map(MixedPlan::toMap).orElse(null));
    // Ordered keys (Map.of's order changes from one JVM to the next): the same ranking encodes to the same text.
    m.put("unavailable", unavailable.stream().map(u -> {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("vendor", u.vendor());
      one.put("reason", u.reason());
      return one;
    }).toList());
    return m;
  }
}
