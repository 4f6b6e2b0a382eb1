package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Right-sizing advice for a fleet in service (guide 5.3-5.4): what its utilization says, and
 * the cheapest fleet that serves its observed peak with headroom, across the quoted vendors and
 * the current card at its current price.
 *
 * @param signals        what the utilization figures mean, per the guide's thresholds
 * @param current        the fleet's cost now
 * @param recommendation the cheapest fleet found, if any fits
 * @param saving         current minus recommended, per month
 */
public record Advice(String fleet, List<Message> signals, Money current, Optional<Option> recommendation,
                     Optional<Money> saving, List<Option> alternatives) {

  /** Below these the card is too big (guide 5.3). */
  public static final double LOW_GPU = 0.30, HIGH_GPU = 0.80, LOW_VRAM = 0.50;

  /**
   * A fleet that would serve the load.
   *
   * @param capacityQps peak QPS it serves at full use
   */
  public record Option(String vendor, String gpu, String gpuName, int cards, String billing, Money perMonth,
                       double capacityQps, Message explanation) {
    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("vendor", vendor);
      m.put("gpu", gpu);
      m.put("gpuName", gpuName);
      m.put("cards", cards);
      m.put("billing", billing);
      m.put("perMonth", perMonth.plain());
      m.put("capacityQps", Math.round(capacityQps * 100) / 100.0);
      m.put("explanation", Localizer.neutral(explanation));
      return m;
    }
  }

  public static Advice advise(Fleet fleet, QuoteBook book, GpuCatalog catalog) {
    return advise(fleet, book, catalog, Constraints.NONE.withIncludeReference(fleet.includeReference()));
  }

  /** As above, the vendors' plans ranked under {@code constraints} (filters, the reference sheet). */
  public static Advice advise(Fleet fleet, QuoteBook book, GpuCatalog catalog, Constraints constraints) {
    List<Message> signals = signals(fleet);
    List<Option> options = new ArrayList<>();
    Gpu current = catalog.byId(fleet.gpu()).orElseThrow();
    Gpu ref = catalog.byId(fleet.workload().referenceGpu()).orElseThrow();
    Fit keep = Fit.of(fleet.workload(), current, ref, fleet.headroom());
    if (keep.ok()) {
      options.add(new Option("current vendor", current.id(), current.name(), keep.cards, "as now",
          fleet.pricePerCardMonth().times(keep.cards).cents(), keep.cards / keep.cardsPerCopy * keep.qpsPerCopy,
          Words.of("advice.keep", "gpu", current.name(), "cards", keep.cards)));
    }
    Scenario scenario = new Scenario(fleet.name(), fleet.currency(), 12, fleet.headroom(), List.of(fleet.workload()), 0, 0, 1,
        0, Optional.empty(), constraints);
    for (VendorPlan plan : new CostModel(catalog).rank(scenario, book).plans()) {
      Placement p = plan.placements().get(0);
      Fit f = Fit.of(fleet.workload(), p.gpu(), ref, fleet.headroom());
      options.add(new Option(plan.vendor(), p.gpu().id(), p.gpu().name(), p.cards(), p.billing().wire(),
          p.perMonth().cents(), p.cards() / f.cardsPerCopy * f.qpsPerCopy, p.explanation()));
    }
    options.sort(java.util.Comparator.comparing((Option o) -> o.perMonth().amount()).thenComparing(Option::vendor));
    Money now = fleet.monthlyCost();
    Optional<Option> best = options.stream().findFirst();
    Optional<Money> saving = best.map(o -> now.minus(o.perMonth()));
    return new Advice(fleet.name(), signals, now, best, saving, options.size() > 1 ? options.subList(1, options.size()) : List.of());
  }

  static List<Message> signals(Fleet f) {
    List<Message> out = new ArrayList<>();
    long u = Explanations.pctOf(f.gpuUtilization());
    if (f.gpuUtilization() < LOW_GPU) out.add(Words.of("advice.gpuLow", "share", u));
    else if (f.gpuUtilization() > HIGH_GPU) out.add(Words.of("advice.gpuHigh", "share", u));
    if (f.vramUtilization() < LOW_VRAM) out.add(Words.of("advice.vramLow", "share", Explanations.pctOf(f.vramUtilization())));
    if (f.queueing()) out.add(Words.of("advice.queue"));
    if (out.isEmpty()) out.add(Words.of("advice.ok"));
    return out;
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("fleet", fleet);
    m.put("signals", Localizer.neutral(signals));
    m.put("currentPerMonth", current.plain());
    m.put("currency", current.currency());
    m.put("recommendation", recommendation.map(Option::toMap).orElse(null));
    m.put("savingPerMonth", saving.map(Money::plain).orElse(null));
    m.put("alternatives", alternatives.stream().map(Option::toMap).toList());
    return m;
  }
}
