package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.quote.Money;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds a {@link Scenario} from parsed YAML or JSON (nested maps and lists), validating every
 * field once, here. Unknown fields, wrong types, impossible values and unknown GPUs fail with an
 * {@link InvalidInputException} naming the field.
 */
public final class ScenarioReader {

  /** Reference cards assumed when a workload does not name one. */
  public static final String DEFAULT_INFERENCE_REFERENCE = "rtx-4090";
  public static final String DEFAULT_JOB_REFERENCE = "a100-80g-sxm";
  /** Hourly checkpoints lose half an hour of work on average; restart and reload take about another hour. */
  public static final double DEFAULT_RESTART_HOURS = 1.5;
  /** Workloads one scenario may hold unless configured otherwise ({@code ranking.maxWorkloads}). */
  public static final int DEFAULT_MAX_WORKLOADS = (Integer) dev.gpurent.config.ConfigSchema.keys().get("ranking.maxWorkloads").dflt();

  // The ranges of the figures (README "Limits"): wide enough for any real plan, narrow enough that
  // sizing and pricing them cannot overflow.
  static final double MAX_PARAMS_BILLIONS = 100_000;
  static final double MAX_QPS = 1_000_000;
  static final double MIN_SECONDS = 0.001, MAX_SECONDS = 3600;  // a millisecond: also the least latency target (0: none)
  static final double MIN_CONCURRENT = 0.01, MAX_CONCURRENT = 100_000;
  static final double MAX_GB = 1e9;
  static final double MAX_MEMORY_GB = 1e6;
  static final double MAX_GPU_HOURS = 1e7;
  // Floors where a tiny figure in range would give a bill of 0.00 or a copy of infinite days: each is
  // the least a plan can mean. An hour is what hourly billing charges at the least; a migration of less
  // than a GB costs nothing to plan; a link under 1 Mbit/s is no data-centre link (0: the vendor's own).
  static final double MIN_GPU_HOURS = 1;
  static final double MIN_MIGRATION_GB = 1;
  static final double MIN_MBPS = 1, MAX_MBPS = 1_000_000;
  static final double MAX_RESTART_HOURS = 720;
  static final double MIN_COMPRESSION = 0.01, MAX_COMPRESSION = 1000;
  static final double MAX_LOAD_BALANCERS = 1000;
  static final double MAX_PRICE_PER_GB = 1000;

  private final GpuCatalog catalog;
  private final int maxWorkloads;
  private final ModelFields modelFields;

  /** A reader without the model catalog: a workload naming a {@code model} is refused. */
  public ScenarioReader(GpuCatalog catalog) {
    this(catalog, DEFAULT_MAX_WORKLOADS);
  }

  /** @param maxWorkloads the most workloads a scenario may hold; more is refused before any is read */
  public ScenarioReader(GpuCatalog catalog, int maxWorkloads) {
    this(catalog, ModelCatalog.EMPTY, maxWorkloads);
  }

  /** A reader that knows the models of {@code config/models.yaml} and their measured speeds. */
  public ScenarioReader(GpuCatalog catalog, ModelCatalog models, int maxWorkloads) {
    this.catalog = catalog;
    this.maxWorkloads = maxWorkloads;
    this.modelFields = new ModelFields(models, models == ModelCatalog.EMPTY ? SpeedTable.NONE : new SpeedTable(models, catalog));
  }

  public Scenario read(Object root) {
    Fields f = new Fields("", root, new Fields.Problems());
    String name = f.string("name", "scenario");
    String currency = f.string("currency", "USD").trim().toUpperCase(Locale.ROOT);
    if (!currency.matches("[A-Z]{3}")) currency = f.fail("currency", Fields.say("input.currencyCode", "got", currency), "USD");
    else if (!isMoney(currency)) currency = f.fail("currency", Fields.say("input.currencyUnknown", "got", currency), "USD");
    double horizon = f.between("horizonMonths", 12, 1, 120);
    if (horizon != Math.rint(horizon)) horizon = f.fail("horizonMonths", Fields.say("input.wholeMonths"), 12.0);
    double headroom = f.between("headroom", 0.3, 0, 10);
    List<Object> rawWorkloads = f.list("workloads");
    if (rawWorkloads.isEmpty() && (f.raw("workloads") == null || f.raw("workloads") instanceof List)) {
      f.fail("workloads", Fields.say("input.workloadsNone"), null);
    }
    if (rawWorkloads.size() > maxWorkloads) {
      f.fail("workloads", Fields.say("input.workloadsMax", "max", maxWorkloads, "got", rawWorkloads.size()), null);
      rawWorkloads = List.of();
    }
    List<Workload> workloads = new ArrayList<>();
    for (int i = 0; i < rawWorkloads.size(); i++) {
      Workload w = workload(new Fields("workloads[" + i + "]", rawWorkloads.get(i), f.problems()), i);
      if (w != null) workloads.add(w);
    }
    double storedGb = f.nonNegative("storedGb", 0, MAX_GB);
    double egress = f.nonNegative("egressGbPerMonth", 0, MAX_GB);
    double compression = f.between("compressionRatio", 1, MIN_COMPRESSION, MAX_COMPRESSION);
    double lbs = f.nonNegative("loadBalancers", 0, MAX_LOAD_BALANCERS);
    if (lbs != Math.rint(lbs)) lbs = f.fail("loadBalancers", Fields.say("input.whole"), 0.0);
    String cur = currency;
    Optional<Migration> migration = Optional.ofNullable(f.object("migration")).map(m -> migration(m, cur));
    Constraints constraints = constraints(f);
    f.done();
    f.problems().throwIfAny();
    return new Scenario(name, currency, (int) horizon, headroom, workloads, storedGb, egress, compression, (int) lbs, migration,
        constraints);
  }

  /** The scenario's filters: {@code vendors}, {@code regions}, {@code gpuMakers}, {@code minComputeCapability} and three switches. */
  private Constraints constraints(Fields f) {
    Constraints.Filter vendors = filter(f, "vendors");
    Constraints.Filter regions = filter(f, "regions");
    List<String> makers = f.strings("gpuMakers");
    for (int i = 0; i < makers.size(); i++) {
      if (!catalog.makers().contains(makers.get(i).toLowerCase(Locale.ROOT))) {
        f.fail("gpuMakers[" + i + "]", Fields.say("input.makerUnknown", "got", makers.get(i), "known", String.join(", ", catalog.makers())), null);
      }
    }
    double cc = f.between("minComputeCapability", 0, 0, 20);
    return new Constraints(vendors, regions, makers, cc, f.bool("requireComplete", false), f.bool("includeReference", false),
        f.bool("inStock", false));
  }

  private static Constraints.Filter filter(Fields f, String field) {
    Fields o = f.object(field);
    if (o == null) return Constraints.Filter.NONE;
    Constraints.Filter filter = new Constraints.Filter(o.strings("only"), o.strings("exclude"));
    o.done();
    return filter;
  }

  /**
   * Whether an ISO 4217 code names money: known to the JDK, and not one of the codes without
   * minor units there (XXX "no currency", XTS for tests, gold, SDRs), which no price is quoted in.
   */
  public static boolean isMoney(String code) {
    try {
      return java.util.Currency.getInstance(code).getDefaultFractionDigits() >= 0;
    } catch (IllegalArgumentException unknown) {
      return false;
    }
  }

  private Migration migration(Fields m, String currency) {
    double gb = m.requiredBetween("gb", MIN_MIGRATION_GB, MAX_GB);
    double egressPerGb = m.nonNegative("sourceEgressPerGb", 0, MAX_PRICE_PER_GB);
    String from = m.string("fromVendor", null);
    double mbps = m.zeroOrBetween("bandwidthMbps", 0, MIN_MBPS, MAX_MBPS);
    m.done();
    return new Migration(gb, new Money(BigDecimal.valueOf(egressPerGb), currency), Optional.ofNullable(from), mbps);
  }

  /** One workload, or null when its kind is unusable (the problem is recorded). */
  private Workload workload(Fields w, int index) {
    String kindText = w.requiredString("kind");
    if (kindText == null) return null;
    Workload.Kind kind = w.problems().attempt(() -> Workload.Kind.parse(w.at("kind"), kindText), null);
    if (kind == null) return null;
    String name = w.string("name", kind.wire() + "-" + (index + 1));
    String defaultRef = kind == Workload.Kind.INFERENCE ? DEFAULT_INFERENCE_REFERENCE : DEFAULT_JOB_REFERENCE;
    Optional<String> gpu = Optional.ofNullable(w.string("gpu", null)).map(g -> gpuId(w, "gpu", g, defaultRef));
    Optional<String> vendor = Optional.ofNullable(w.string("vendor", null));
    String reference = gpuId(w, "referenceGpu", w.string("referenceGpu", defaultRef), defaultRef);
    boolean interruptible = w.bool("interruptible", kind == Workload.Kind.BATCH);
    Workload result = kind == Workload.Kind.INFERENCE
        ? inference(w, name, gpu, vendor, reference, interruptible)
        : job(w, kind, name, gpu, vendor, reference, interruptible);
    w.done();
    return result;
  }

  private Inference inference(Fields w, String name, Optional<String> gpu, Optional<String> vendor, String ref,
                              boolean interruptible) {
    // A named model (issue 31) gives the parameter count; sized from measurements, it states its load in tokens.
    Optional<ModelLoad> named = modelFields.read(w);
    if (named.isEmpty() && w.has("model")) {
      w.readAll();  // the model's refusal says it all; the fields it would have sized are not refused one by one
      return null;
    }
    boolean measured = named.isPresent() && !named.get().guideSizing();
    double params = named.isPresent() ? named.get().model().paramsBillions() : w.requiredPositive("paramsBillions", MAX_PARAMS_BILLIONS);
    String precisionText = w.string("precision", named.map(n -> n.model().weights()).filter(p -> p != null).orElse("fp16"));
    Precision precision = w.problems().attempt(() -> Precision.parse(w.at("precision"), precisionText), Precision.FP16);
    double qps = measured ? named.get().requestsPerSecond() : w.requiredPositive("peakQps", MAX_QPS);
    double seconds = measured ? 0 : w.requiredBetween("secondsPerRequest", MIN_SECONDS, MAX_SECONDS);
    double concurrent = measured ? 0 : w.requiredBetween("concurrentPerCard", MIN_CONCURRENT, MAX_CONCURRENT);
    double hoursPerDay = w.between("hoursPerDay", 24, 0.1, 24);
    // left out: every day of the billing month, so round the clock is the 730 h commitments are priced at
    double days = w.between("daysPerMonth", BillingPlanner.DAYS_PER_MONTH, 1, 31);
    double latency = measured ? 0 : w.zeroOrBetween("latencyTargetSeconds", 0, MIN_SECONDS, MAX_SECONDS);
    String bound = measured ? "memory" : w.string("bound", "memory").trim().toLowerCase(Locale.ROOT);
    if (!bound.equals("memory") && !bound.equals("compute")) {
      w.fail("bound", Fields.say("input.bound", "got", bound), null);
    }
    double restart = w.positive("restartOverheadHours", DEFAULT_RESTART_HOURS, MAX_RESTART_HOURS);
    return new Inference(name, gpu, vendor, ref, interruptible, params, precision, qps, seconds, concurrent,
        hoursPerDay, days, latency, bound.equals("compute"), restart, w.bool("allowMultiNode", false), named);
  }

  private Job job(Fields w, Workload.Kind kind, String name, Optional<String> gpu, Optional<String> vendor, String ref,
                  boolean interruptible) {
    double params = kind == Workload.Kind.BATCH ? w.nonNegative("paramsBillions", 0, MAX_PARAMS_BILLIONS)
        : w.requiredPositive("paramsBillions", MAX_PARAMS_BILLIONS);
    String defaultMethod = kind == Workload.Kind.FINE_TUNE ? "lora" : "full";
    String methodText = w.string("method", defaultMethod);
    TuneMethod method = w.problems().attempt(() -> TuneMethod.parse(w.at("method"), methodText), TuneMethod.LORA);
    double memory = w.nonNegative("memoryGB", 0, MAX_MEMORY_GB);
    if (kind != Workload.Kind.BATCH && memory > 0) {
      memory = w.fail("memoryGB", Fields.say("input.memoryBatchOnly"), 0.0);
    }
    double hours = w.requiredBetween("gpuHoursPerMonth", MIN_GPU_HOURS, MAX_GPU_HOURS);
    double cards = w.nonNegative("cards", 0);
    if (cards != Math.rint(cards) || cards > 1024) cards = w.fail("cards", Fields.say("input.cardsWhole"), 0.0);
    double restart = w.positive("restartOverheadHours", DEFAULT_RESTART_HOURS, MAX_RESTART_HOURS);
    return new Job(name, kind, gpu, vendor, ref, interruptible, params, method, memory, hours, (int) cards, restart,
        w.bool("allowMultiNode", false));
  }

  private String gpuId(Fields w, String field, String spelling, String dflt) {
    try {
      return catalog.resolve(spelling).id();
    } catch (UnknownGpuException e) {
      return w.fail(field, e.getMessage(), dflt);
    }
  }
}
