package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Money;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds a {@link Fleet} from parsed YAML or JSON:
 *
 * <pre>
 * name: ...
 * currency: CNY
 * headroom: 0.3
 * fleet: {gpu: A100 80G, count: 4, pricePerCardMonth: 7500}
 * utilization: {gpuPercent: 22, vramPercent: 30, peakQps: 8, queueing: false}
 * workload: {paramsBillions: 3.5, precision: fp16, secondsPerRequest: 2, concurrentPerCard: 4,
 *            referenceGpu: rtx-4090, bound: compute}
 * </pre>
 */
public final class FleetReader {

  /**
   * The most cards a fleet may have, and the lowest and highest price per card-month (in any
   * currency): below a cent the fleet costs 0.00 and every saving is a division by nothing.
   */
  static final double MAX_CARDS = Sizing.MAX_CARDS, MIN_PRICE = 0.01, MAX_PRICE = 1e9;

  private final GpuCatalog catalog;

  public FleetReader(GpuCatalog catalog) {
    this.catalog = catalog;
  }

  public Fleet read(Object root) {
    Fields f = new Fields("", root, new Fields.Problems());
    String name = f.string("name", "fleet");
    String currency = f.string("currency", "USD").trim().toUpperCase(Locale.ROOT);
    if (!currency.matches("[A-Z]{3}") || !ScenarioReader.isMoney(currency)) {
      currency = f.fail("currency", Fields.say("input.currencyUnknown", "got", Fields.shown(currency)), "USD");
    }
    double headroom = f.between("headroom", 0.3, 0, 10);
    Fields fleet = f.object("fleet");
    if (fleet == null) throw new InvalidInputException("fleet", "is required: gpu, count, pricePerCardMonth");
    String spelling = fleet.requiredString("gpu");
    String gpu = spelling == null ? null : catalog.find(spelling).map(g -> g.id())
        .orElseGet(() -> fleet.fail("gpu", "unknown GPU '" + spelling + "'; see config/gpus.yaml for the known cards", null));
    double count = fleet.requiredPositive("count", MAX_CARDS);
    if (count != Math.rint(count)) count = fleet.fail("count", Fields.say("input.whole"), 1.0);
    double price = fleet.requiredBetween("pricePerCardMonth", MIN_PRICE, MAX_PRICE);
    fleet.done();
    Fields u = f.object("utilization");
    if (u == null) throw new InvalidInputException("utilization", "is required: gpuPercent, vramPercent, peakQps");
    double gpuPct = u.between("gpuPercent", 0, 0, 100);
    double vramPct = u.between("vramPercent", 0, 0, 100);
    double peak = u.requiredPositive("peakQps", ScenarioReader.MAX_QPS);
    boolean queueing = u.bool("queueing", false);
    u.done();
    boolean includeReference = f.bool("includeReference", false);
    Object rawWorkload = f.raw("workload");
    if (rawWorkload == null) throw new InvalidInputException("workload", "is required: the served model's size and speed");
    f.done();
    f.problems().throwIfAny();
    Map<String, Object> w = new LinkedHashMap<>(asMap(rawWorkload));
    w.put("kind", "inference");
    w.put("peakQps", peak);
    Map<String, Object> scenario = new LinkedHashMap<>();
    scenario.put("currency", currency);
    scenario.put("headroom", headroom);
    scenario.put("workloads", List.of(w));
    Inference inference;
    try {
      inference = (Inference) new ScenarioReader(catalog).read(scenario).workloads().get(0);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(e.problems().stream()
          .map(p -> p.at(p.field().replace("workloads[0]", "workload"))).toList());
    }
    return new Fleet(name, currency, gpu, (int) count, new Money(BigDecimal.valueOf(price), currency), gpuPct / 100,
        vramPct / 100, peak, queueing, inference, headroom, includeReference);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object o) {
    if (!(o instanceof Map<?, ?>)) throw new InvalidInputException("workload", "must be an object");
    return (Map<String, Object>) o;
  }
}
