package dev.gpurent.cost;

import dev.gpurent.catalog.Model;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.catalog.UnknownModelException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the fields of an inference workload that names its model (issue 31): {@code model},
 * {@code sizing} (model or guide), {@code contextTokens}, {@code concurrentSequences},
 * {@code requestsPerSecond} or {@code requestsPerHour}, {@code inputTokens}, {@code outputTokens},
 * {@code ttftSeconds}, {@code tpotSeconds}, {@code kvCachePrecision}. Problems are recorded on the
 * workload's fields, as {@link ScenarioReader} records its own.
 */
final class ModelFields {

  static final int MAX_TOKENS = 10_000_000;
  static final double MAX_SEQUENCES = 1_000_000;
  /** Fields of the guide's load that a model sized from measurements has no use for. */
  private static final List<String> GUIDE_ONLY = List.of("peakQps", "secondsPerRequest", "concurrentPerCard", "latencyTargetSeconds", "bound");

  private final ModelCatalog models;
  private final SpeedTable speeds;

  ModelFields(ModelCatalog models, SpeedTable speeds) {
    this.models = models;
    this.speeds = speeds;
  }

  /** The workload's named model and load, or empty when it names none (or the name is refused, recorded). */
  Optional<ModelLoad> read(Fields w) {
    String name = w.string("model", null);
    if (name == null) return Optional.empty();
    Model model;
    try {
      model = models.resolve(name);
    } catch (UnknownModelException e) {
      return w.fail("model", e.getMessage(), Optional.empty());
    }
    if (w.has("paramsBillions")) {
      w.raw("paramsBillions");
      w.fail("paramsBillions", "give model or paramsBillions, not both: " + model.id() + " has "
          + Sizing.fmt(model.paramsBillions()) + "B", null);
    }
    if (model.paramsBillions() <= 0) {
      return w.fail("model", model.id() + ": no recorded source states its parameter count; give paramsBillions instead", Optional.empty());
    }
    String sizing = w.string("sizing", model.hasKvFacts() ? "model" : "guide").trim().toLowerCase(Locale.ROOT);
    if (!sizing.equals("model") && !sizing.equals("guide")) {
      w.fail("sizing", "must be model (weights + KV cache, measured speed) or guide (params x bytes x 1.2, N/T), got '" + sizing + "'", null);
      sizing = "guide";
    }
    boolean guide = sizing.equals("guide");
    if (!guide && !model.hasKvFacts()) {
      w.fail("sizing", model.id() + " (" + model.kind() + ") has no KV-cache facts in config/models.yaml; use sizing: guide", null);
      guide = true;
    }
    if (!guide) {
      for (String f : GUIDE_ONLY) {
        if (w.has(f)) {
          w.raw(f);
          w.fail(f, "is for sizing: guide; a model sized from measurements states requestsPerSecond, inputTokens and outputTokens", null);
        }
      }
    }
    double rps = requestRate(w, !guide);
    int input = tokens(w, "inputTokens", rps > 0 || !guide);
    int output = tokens(w, "outputTokens", rps > 0 || !guide);
    int context = guide ? 0 : (int) w.between("contextTokens", Math.max(1, input + output), 1, MAX_TOKENS);
    if (!guide && model.maxContext() > 0 && context > model.maxContext()) {
      w.fail("contextTokens", "is over " + model.id() + "'s context of " + model.maxContext() + " tokens, got " + context, null);
    }
    double sequences = guide ? 0 : w.requiredBetween("concurrentSequences", 1, MAX_SEQUENCES);
    if (sequences != Math.rint(sequences)) sequences = w.fail("concurrentSequences", "must be a whole number", 1.0);
    double ttft = guide ? 0 : w.zeroOrBetween("ttftSeconds", 0, ScenarioReader.MIN_SECONDS, ScenarioReader.MAX_SECONDS);
    double tpot = guide ? 0 : w.zeroOrBetween("tpotSeconds", 0, ScenarioReader.MIN_SECONDS, ScenarioReader.MAX_SECONDS);
    String kvText = guide ? "fp16" : w.string("kvCachePrecision", "fp16");
    Precision kv = w.problems().attempt(() -> Precision.parse(w.at("kvCachePrecision"), kvText), Precision.FP16);
    if (kv != Precision.FP16 && kv != Precision.BF16 && kv != Precision.FP8) {
      kv = w.fail("kvCachePrecision", "must be fp16, bf16 or fp8, got '" + kvText + "'", Precision.FP16);
    }
    return Optional.of(new ModelLoad(model, guide, context, (int) sequences, rps, input, output, ttft, tpot, kv, speeds));
  }

  /** Requests a second, from {@code requestsPerSecond} or {@code requestsPerHour} (one of them; required when sized from measurements). */
  private static double requestRate(Fields w, boolean required) {
    boolean perSecond = w.has("requestsPerSecond"), perHour = w.has("requestsPerHour");
    if (perSecond && perHour) {
      w.raw("requestsPerHour");
      w.fail("requestsPerHour", "give requestsPerSecond or requestsPerHour, not both", null);
    }
    if (perHour && !perSecond) return w.requiredPositive("requestsPerHour", ScenarioReader.MAX_QPS * 3600) / 3600;
    if (perSecond || required) return w.requiredPositive("requestsPerSecond", ScenarioReader.MAX_QPS);
    return 0;
  }

  private static int tokens(Fields w, String field, boolean required) {
    if (!required && !w.has(field)) return 0;
    double t = w.requiredBetween(field, 1, MAX_TOKENS);
    if (t != Math.rint(t)) t = w.fail(field, "must be a whole number of tokens", 1.0);
    return (int) t;
  }
}
