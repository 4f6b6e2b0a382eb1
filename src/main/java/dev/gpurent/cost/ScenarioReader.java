package dev.gpurent.cost;

import dev.gpurent.catalog.GpuCatalog;
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

  private final GpuCatalog catalog;

  public ScenarioReader(GpuCatalog catalog) {
    this.catalog = catalog;
  }

  public Scenario read(Object root) {
    Fields f = new Fields("", root);
    String name = f.string("name", "scenario");
    String currency = f.string("currency", "USD").trim().toUpperCase(Locale.ROOT);
    if (!currency.matches("[A-Z]{3}")) throw new InvalidInputException("currency", "must be a 3-letter ISO code, got '" + currency + "'");
    double horizon = f.between("horizonMonths", 12, 1, 120);
    if (horizon != Math.rint(horizon)) throw new InvalidInputException("horizonMonths", "must be a whole number of months");
    double headroom = f.between("headroom", 0.3, 0, 10);
    List<Object> rawWorkloads = f.list("workloads");
    if (rawWorkloads.isEmpty()) throw new InvalidInputException("workloads", "at least one workload is required");
    List<Workload> workloads = new ArrayList<>();
    for (int i = 0; i < rawWorkloads.size(); i++) {
      workloads.add(workload(new Fields("workloads[" + i + "]", rawWorkloads.get(i)), i));
    }
    double storedGb = f.nonNegative("storedGb", 0);
    double egress = f.nonNegative("egressGbPerMonth", 0);
    double compression = f.positive("compressionRatio", 1);
    double lbs = f.nonNegative("loadBalancers", 0);
    if (lbs != Math.rint(lbs)) throw new InvalidInputException("loadBalancers", "must be a whole number");
    Optional<Migration> migration = Optional.ofNullable(f.object("migration")).map(m -> migration(m, currency));
    f.done();
    return new Scenario(name, currency, (int) horizon, headroom, workloads, storedGb, egress, compression, (int) lbs, migration);
  }

  private Migration migration(Fields m, String currency) {
    double gb = m.requiredPositive("gb");
    double egressPerGb = m.nonNegative("sourceEgressPerGb", 0);
    String from = m.string("fromVendor", null);
    m.done();
    return new Migration(gb, new Money(BigDecimal.valueOf(egressPerGb), currency), Optional.ofNullable(from));
  }

  private Workload workload(Fields w, int index) {
    Workload.Kind kind = Workload.Kind.parse(w.at("kind"), w.requiredString("kind"));
    String name = w.string("name", kind.wire() + "-" + (index + 1));
    Optional<String> gpu = Optional.ofNullable(w.string("gpu", null)).map(g -> gpuId(w.at("gpu"), g));
    Optional<String> vendor = Optional.ofNullable(w.string("vendor", null));
    String defaultRef = kind == Workload.Kind.INFERENCE ? DEFAULT_INFERENCE_REFERENCE : DEFAULT_JOB_REFERENCE;
    String reference = gpuId(w.at("referenceGpu"), w.string("referenceGpu", defaultRef));
    boolean interruptible = w.bool("interruptible", kind == Workload.Kind.BATCH);
    Workload result = kind == Workload.Kind.INFERENCE
        ? inference(w, name, gpu, vendor, reference, interruptible)
        : job(w, kind, name, gpu, vendor, reference, interruptible);
    w.done();
    return result;
  }

  private Inference inference(Fields w, String name, Optional<String> gpu, Optional<String> vendor, String ref,
                              boolean interruptible) {
    double params = w.requiredPositive("paramsBillions");
    Precision precision = Precision.parse(w.at("precision"), w.string("precision", "fp16"));
    double qps = w.requiredPositive("peakQps");
    double seconds = w.requiredPositive("secondsPerRequest");
    double concurrent = w.requiredPositive("concurrentPerCard");
    double hoursPerDay = w.between("hoursPerDay", 24, 0.1, 24);
    double days = w.between("daysPerMonth", 30, 1, 31);
    double latency = w.nonNegative("latencyTargetSeconds", 0);
    String bound = w.string("bound", "memory").trim().toLowerCase(Locale.ROOT);
    if (!bound.equals("memory") && !bound.equals("compute")) {
      throw new InvalidInputException(w.at("bound"), "must be memory (LLM decoding) or compute (image models), got '" + bound + "'");
    }
    return new Inference(name, gpu, vendor, ref, interruptible, params, precision, qps, seconds, concurrent,
        hoursPerDay, days, latency, bound.equals("compute"));
  }

  private Job job(Fields w, Workload.Kind kind, String name, Optional<String> gpu, Optional<String> vendor, String ref,
                  boolean interruptible) {
    double params = kind == Workload.Kind.BATCH ? w.nonNegative("paramsBillions", 0) : w.requiredPositive("paramsBillions");
    String defaultMethod = kind == Workload.Kind.FINE_TUNE ? "lora" : "full";
    TuneMethod method = TuneMethod.parse(w.at("method"), w.string("method", defaultMethod));
    double memory = w.nonNegative("memoryGB", 0);
    if (kind != Workload.Kind.BATCH && memory > 0) {
      throw new InvalidInputException(w.at("memoryGB"), "only batch work states memory directly; give paramsBillions and method");
    }
    double hours = w.requiredPositive("gpuHoursPerMonth");
    double cards = w.nonNegative("cards", 0);
    if (cards != Math.rint(cards) || cards > 1024) throw new InvalidInputException(w.at("cards"), "must be a whole number up to 1024");
    return new Job(name, kind, gpu, vendor, ref, interruptible, params, method, memory, hours, (int) cards);
  }

  private String gpuId(String field, String spelling) {
    try {
      return catalog.resolve(spelling).id();
    } catch (UnknownGpuException e) {
      throw new InvalidInputException(field, e.getMessage());
    }
  }
}
