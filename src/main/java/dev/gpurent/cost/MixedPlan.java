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
 * @param gaps          services priced from fallback providers, as on a vendor plan
 */
public record MixedPlan(String homeVendor, Bill bill, List<Placement> placements, Money savingsVsBest, List<Gap> gaps) {

  public MixedPlan {
    placements = List.copyOf(placements);
    gaps = List.copyOf(gaps);
  }

  public boolean complete() {
    return gaps.isEmpty();
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("homeVendor", homeVendor);
    m.put("monthlyTotal", bill.monthlyTotal().plain());
    m.put("horizonTotal", bill.horizonTotal().plain());
    m.put("complete", complete());
    m.put("gaps", gaps.stream().map(Gap::toMap).toList());
    m.put("bill", bill.toMap());
    m.put("placements", placements.stream().map(Placement::toMap).toList());
    m.put("savingsVsBest", savingsVsBest.plain());
    return m;
  }
}
