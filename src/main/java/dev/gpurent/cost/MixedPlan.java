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
 * @param lineVendors   per line of the bill, in its order, the vendor it is bought from (a GPU line at
 *                      its workload's vendor, every other line at the home vendor)
 * @param savingsVsBest what mixing saves against #1, the cheapest complete single vendor (negative: it costs more)
 * @param gaps          services priced from fallback providers or typical figures, as on a vendor plan
 */
public record MixedPlan(String homeVendor, Bill bill, List<String> lineVendors, List<Placement> placements, Money savingsVsBest,
                        List<Gap> gaps) {

  public MixedPlan {
    lineVendors = List.copyOf(lineVendors);
    placements = List.copyOf(placements);
    gaps = List.copyOf(gaps);
    if (lineVendors.size() != bill.lines().size()) throw new IllegalArgumentException("one vendor per line");
  }

  /** The vendor line {@code i} of the bill is bought from. */
  public String vendorOf(int i) {
    return lineVendors.get(i);
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
    Map<String, Object> billMap = bill.toMap();
    // Each line names the vendor it is bought from: a mixed bill is bought from several.
    List<?> lines = (List<?>) billMap.get("lines");
    for (int i = 0; i < lines.size(); i++) {
      @SuppressWarnings("unchecked") Map<String, Object> line = (Map<String, Object>) lines.get(i);
      Map<String, Object> withVendor = new LinkedHashMap<>();
      withVendor.put("vendor", lineVendors.get(i));
      withVendor.putAll(line);
      line.clear();
      line.putAll(withVendor);
    }
    m.put("bill", billMap);
    m.put("placements", placements.stream().map(Placement::toMap).toList());
    m.put("savingsVsBest", savingsVsBest.plain());
    return m;
  }
}
