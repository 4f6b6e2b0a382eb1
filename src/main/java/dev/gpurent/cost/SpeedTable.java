package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Measurement;
import dev.gpurent.catalog.Model;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.text.Message;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * How fast a card serves a model, from the measured throughputs of {@code config/throughput.yaml}
 * (issue 31, item 3). The row is chosen and scaled in this order, and every step that is not a
 * measurement is said in the returned source:
 * <ol>
 *   <li>the model's own rows, else the nearest measured language model by active parameters,
 *       scaled by active parameters (decoding reads every active weight once a token);</li>
 *   <li>the card's own rows at the asked precision; else its rows at another precision, scaled
 *       by bytes per weight; else the nearest measured card, by memory bandwidth (decoding) or
 *       FP16 TFLOPS (a prefill-heavy load), scaled by that figure;</li>
 *   <li>of those, the rows at the nearest input/output lengths, and of them the one on as many
 *       cards as a copy needs; else the nearest count, scaled by the guide's multi-card
 *       calibration ({@link dev.gpurent.catalog.Interconnect#speedup}) on the card's interconnect.</li>
 * </ol>
 */
public final class SpeedTable {

  /** Input tokens per output token past which a load is prefill-heavy, and a card is scaled by TFLOPS instead of bandwidth. */
  public static final double PREFILL_HEAVY = 4;

  /** A card's speed: output tokens a second per GPU, how it was found, and whether it is a measurement as it stands. */
  public record Speed(double perGpu, Message source, boolean measured) {}

  private final ModelCatalog models;
  private final Map<String, Gpu> cards;
  private final Map<String, List<Measurement>> byModel;

  public SpeedTable(ModelCatalog models, GpuCatalog gpus) {
    this.models = models;
    this.cards = models.measurements().stream().map(Measurement::gpu).distinct()
        .collect(Collectors.toUnmodifiableMap(id -> id, id -> gpus.byId(id)
            .orElseThrow(() -> new IllegalArgumentException("throughput: unknown GPU id '" + id + "'"))));
    this.byModel = models.measurements().stream().collect(Collectors.groupingBy(Measurement::model));
  }

  /** No measurements: what a reader built without the model catalog holds. */
  static final SpeedTable NONE = new SpeedTable(ModelCatalog.EMPTY, new GpuCatalog(List.of()));

  /**
   * Output tokens a second per GPU of {@code gpu} serving {@code model} at {@code precision}, for
   * requests of {@code input}/{@code output} tokens, a copy of the model spanning {@code copyCards} cards.
   * Empty when no language model has a measurement.
   */
  public Optional<Speed> perGpu(Model model, Precision precision, int input, int output, Gpu gpu, int copyCards) {
    Optional<Model> measured = byModel.containsKey(model.id()) ? Optional.of(model) : nearestMeasured(model);
    if (measured.isEmpty()) return Optional.empty();
    Model ref = measured.get();
    List<Measurement> rows = byModel.get(ref.id());
    boolean prefillHeavy = output <= 0 || (double) input / output >= PREFILL_HEAVY;
    String asked = precisionName(precision);
    Predicate<Measurement> samePrecision = r -> r.precision().equals(asked);
    List<Message> notes = new ArrayList<>();
    double factor = 1;
    List<Measurement> pool = pick(rows, r -> r.gpu().equals(gpu.id()), samePrecision);
    Gpu rowCard = gpu;
    if (pool.isEmpty()) {
      rowCard = nearestCard(rows, gpu, prefillHeavy, rows.stream().anyMatch(samePrecision) ? samePrecision : r -> true);
      Gpu from = rowCard;
      pool = pick(rows, r -> r.gpu().equals(from.id()), samePrecision);
      double ratio = Sizing.speedMetric(gpu, prefillHeavy) / Sizing.speedMetric(rowCard, prefillHeavy);
      factor *= ratio;
      notes.add(Words.of("speed.card", "from", rowCard.id(), "metric", Words.of(prefillHeavy ? "speed.metric.tflops" : "speed.metric.bandwidth"),
          "fromFigure", Sizing.fmt(Sizing.speedMetric(rowCard, prefillHeavy)), "figure", Sizing.fmt(Sizing.speedMetric(gpu, prefillHeavy)),
          "unit", prefillHeavy ? "TFLOPS" : "GB/s"));
    }
    Measurement row = nearest(pool, input, output, copyCards);
    if (!row.precision().equals(asked)) {
      factor *= bytesOf(row.precision()) / precision.bytesPerParam();
      notes.add(Words.of("speed.precision", "from", row.precision(), "to", asked));
    }
    if (ref != model) {
      factor *= ref.activeParamsBillions() / model.activeParamsBillions();
      notes.add(Words.of("speed.model", "from", ref.id(), "fromParams", Sizing.fmt(ref.activeParamsBillions()),
          "params", Sizing.fmt(model.activeParamsBillions())));
    }
    if (row.gpus() != copyCards) {
      // per-card efficiency at the copy's count over that at the row's, on the card actually rented
      factor *= (gpu.interconnect().speedup(copyCards) / copyCards) / (gpu.interconnect().speedup(row.gpus()) / row.gpus());
      notes.add(Words.of("speed.cards", "cards", copyCards, "rowCards", row.gpus(), "link", gpu.interconnect().label()));
    }
    String label = row.label(models.sourceName(row.source()));
    boolean isMeasured = notes.isEmpty();
    List<Message> parts = new ArrayList<>();
    parts.add(isMeasured ? Words.of("speed.measured", "row", label)
        : rowCard != gpu ? Words.of("speed.estimated.card", "card", rowCard.name(), "metric",
            Words.of(prefillHeavy ? "speed.metric.tflops" : "speed.metric.bandwidth"), "row", label)
        : Words.of("speed.estimated", "row", label));
    parts.addAll(notes);
    return Optional.of(new Speed(row.perGpu() * factor, Words.list(parts), isMeasured));
  }

  /** The rows passing {@code where} at the asked precision, else at any precision. */
  private static List<Measurement> pick(List<Measurement> rows, Predicate<Measurement> where, Predicate<Measurement> precision) {
    List<Measurement> exact = rows.stream().filter(where.and(precision)).toList();
    return exact.isEmpty() ? rows.stream().filter(where).toList() : exact;
  }

  /** The measured card closest to {@code gpu} in the figure its speed scales by (log ratio), ties to the id. */
  private Gpu nearestCard(List<Measurement> rows, Gpu gpu, boolean prefillHeavy, Predicate<Measurement> usable) {
    double metric = Sizing.speedMetric(gpu, prefillHeavy);
    return rows.stream().filter(usable).map(r -> cards.get(r.gpu())).distinct()
        .min(Comparator.comparingDouble((Gpu g) -> Math.abs(Math.log(Sizing.speedMetric(g, prefillHeavy) / metric)))
            .thenComparing(Gpu::id))
        .orElseThrow();
  }

  /** The row at the nearest lengths (log distance), and of those the nearest card count; ties to the fewer cards. */
  private static Measurement nearest(List<Measurement> rows, int input, int output, int copyCards) {
    Comparator<Measurement> byLengths = Comparator.comparingDouble(
        r -> Math.abs(Math.log((double) r.inputTokens() / Math.max(1, input))) + Math.abs(Math.log((double) r.outputTokens() / Math.max(1, output))));
    Measurement closest = rows.stream().min(byLengths).orElseThrow();
    return rows.stream().filter(r -> r.inputTokens() == closest.inputTokens() && r.outputTokens() == closest.outputTokens())
        .min(Comparator.comparingInt((Measurement r) -> Math.abs(r.gpus() - copyCards)).thenComparingInt(Measurement::gpus)
            .thenComparing(r -> -r.perGpu()))
        .orElseThrow();
  }

  /** The measured language model nearest in active parameters (log ratio), a MoE preferring a MoE. */
  private Optional<Model> nearestMeasured(Model model) {
    return byModel.keySet().stream().map(id -> models.byId(id).orElseThrow())
        .filter(m -> m.isMoe() == model.isMoe() || byModel.keySet().stream().noneMatch(id -> models.byId(id).orElseThrow().isMoe() == model.isMoe()))
        .min(Comparator.comparingDouble((Model m) -> Math.abs(Math.log(m.activeParamsBillions() / model.activeParamsBillions())))
            .thenComparing(Model::id));
  }

  /** The table's name for a precision: 16-bit weights are measured as fp16 whether bf16 or fp16. */
  static String precisionName(Precision p) {
    return p == Precision.BF16 ? "fp16" : p.wire();
  }

  private static double bytesOf(String precision) {
    return switch (precision.toLowerCase(Locale.ROOT)) {
      case "fp4", "int4" -> 0.5;
      case "fp8", "int8" -> 1;
      case "fp32" -> 4;
      default -> 2;
    };
  }
}
