package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One vendor's cheapest plan for a scenario: complete when every line is priced from the vendor's
 * own stated price, incomplete when a line is priced by a fallback provider or at a typical figure.
 *
 * @param savingsVsOnDemand what the chosen modes save against buying every GPU on-demand at
 *                          this vendor; empty when some workload is not sold on-demand here
 * @param savingsVsMonthly  the same against monthly
 * @param freshness         how old this vendor's prices are ("fresh", "stale (40 min old)")
 * @param gaps              services the scenario needs that this vendor does not state a price for:
 *                          not sold or price unknown (billed from a fallback provider), or a typical
 *                          figure in its vendor file; empty for a complete plan
 * @param priceDate         the oldest date its sources state for the GPU prices used (those that state
 *                          one; {@link #undated()} says whether one states none)
 * @param dated             true when that date is older than the allowed price age: re-check before signing
 * @param winsAt            for a vendor below #1, what it would take to be #1: the GPU discount, or for an
 *                          incomplete plan cheaper than #1 the prices its missing services may be quoted at;
 *                          empty for #1
 */
public record VendorPlan(String vendor, String displayName, Bill bill, List<Placement> placements,
                         Optional<Money> savingsVsOnDemand, Optional<Money> savingsVsMonthly, List<Message> warnings,
                         Message freshness, Message note, List<Gap> gaps, java.time.Instant priceDate, boolean dated,
                         Optional<WinsAt> winsAt) {

  public VendorPlan {
    placements = List.copyOf(placements);
    warnings = List.copyOf(warnings);
    gaps = List.copyOf(gaps);
  }

  public VendorPlan withWinsAt(WinsAt w) {
    return new VendorPlan(vendor, displayName, bill, placements, savingsVsOnDemand, savingsVsMonthly, warnings, freshness, note,
        gaps, priceDate, dated, Optional.of(w));
  }

  /** Whether every line is priced from the vendor's own stated price: a plan one can sign as it stands. */
  public boolean complete() {
    return gaps.isEmpty();
  }

  /** Whether a GPU price used states no date of its own: its age is unknown, so it is never called fresh. */
  public boolean undated() {
    return placements.stream().anyMatch(p -> p.quote().undated());
  }

  public Money monthlyTotal() {
    return bill.monthlyTotal();
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("vendor", vendor);
    m.put("displayName", displayName);
    m.put("monthlyTotal", bill.monthlyTotal().plain());
    m.put("horizonTotal", bill.horizonTotal().plain());
    m.put("currency", bill.monthlyTotal().currency());
    m.put("complete", complete());
    m.put("gaps", gaps.stream().map(Gap::toMap).toList());
    m.put("bill", bill.toMap());
    m.put("placements", placements.stream().map(Placement::toMap).toList());
    m.put("savingsVsOnDemand", savingsVsOnDemand.map(Money::plain).orElse(null));
    m.put("savingsVsMonthly", savingsVsMonthly.map(Money::plain).orElse(null));
    m.put("warnings", Localizer.neutral(warnings));
    m.put("freshness", Localizer.neutral(freshness));
    m.put("priceDate", priceDate == null ? null : priceDate.toString());
    m.put("dated", dated);
    m.put("undated", undated());
    m.put("winsAt", winsAt.map(WinsAt::toMap).orElse(null));
    m.put("note", Localizer.neutral(note));
    return m;
  }
}
