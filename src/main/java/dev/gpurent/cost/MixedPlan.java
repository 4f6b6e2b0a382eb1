package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each workload at its cheapest vendor. Storage, egress and load balancers stay at the home
 * vendor (the one serving inference, else the one with the largest GPU bill); the stored data
 * is copied once to each other vendor used, at the home vendor's egress price, spread over
 * the horizon.
 *
 * @param savingsVsBest what mixing saves against the best single vendor (negative: it costs more)
 */
public record MixedPlan(String homeVendor, Bill bill, List<Placement> placements, Money savingsVsBest) {

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("homeVendor", homeVendor);
    m.put("monthlyTotal", bill.monthlyTotal().plain());
    m.put("horizonTotal", bill.horizonTotal().plain());
    m.put("bill", bill.toMap());
    m.put("placements", placements.stream().map(Placement::toMap).toList());
    m.put("savingsVsBest", savingsVsBest.plain());
    return m;
  }
}
