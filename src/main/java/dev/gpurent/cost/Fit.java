package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import java.util.Locale;

/**
 * How one workload sits on one GPU model, before any offer is looked at: computed once per
 * (workload, card) and reused for every offer of that card, which keeps ranking cheap.
 */
public final class Fit {
  final Gpu gpu;
  final dev.gpurent.text.Message unfitReason;
  /** Cards the workload needs on this GPU (all replicas for inference). */
  final int cards;
  /** Cards that hold one copy of the model. */
  final int cardsPerCopy;
  /** Share of those cards' memory the model takes. */
  final double memoryShare;
  /** Inference: QPS one copy serves, and its seconds per request on this card. */
  final double qpsPerCopy;
  final double secondsPerRequest;
  /** Jobs: work in hours of one reference card, and this card's speed relative to it. */
  final double referenceCardHours;
  final double relativeSpeedPerCard;
  final boolean computeBound;
  /** A named model's speed on this card and where it came from (a measured row, or how it was scaled), else null. */
  final SpeedTable.Speed speed;

  private Fit(Gpu gpu, dev.gpurent.text.Message unfitReason, int cards, int cardsPerCopy, double memoryShare, double qpsPerCopy,
              double secondsPerRequest, double referenceCardHours, double relativeSpeedPerCard, boolean computeBound) {
    this(gpu, unfitReason, cards, cardsPerCopy, memoryShare, qpsPerCopy, secondsPerRequest, referenceCardHours, relativeSpeedPerCard,
        computeBound, null);
  }

  private Fit(Gpu gpu, dev.gpurent.text.Message unfitReason, int cards, int cardsPerCopy, double memoryShare, double qpsPerCopy,
              double secondsPerRequest, double referenceCardHours, double relativeSpeedPerCard, boolean computeBound,
              SpeedTable.Speed speed) {
    this.speed = speed;
    this.gpu = gpu;
    this.unfitReason = unfitReason;
    this.cards = cards;
    this.cardsPerCopy = cardsPerCopy;
    this.memoryShare = memoryShare;
    this.qpsPerCopy = qpsPerCopy;
    this.secondsPerRequest = secondsPerRequest;
    this.referenceCardHours = referenceCardHours;
    this.relativeSpeedPerCard = relativeSpeedPerCard;
    this.computeBound = computeBound;
  }

  public boolean ok() {
    return unfitReason == null;
  }

  /** Why the workload cannot run on this card (a latency target it misses), or null. */
  public dev.gpurent.text.Message unfitReason() {
    return unfitReason;
  }

  public Gpu gpu() {
    return gpu;
  }

  public int cards() {
    return cards;
  }

  public int cardsPerCopy() {
    return cardsPerCopy;
  }

  public double memoryShare() {
    return memoryShare;
  }

  public double qpsPerCopy() {
    return qpsPerCopy;
  }

  public double secondsPerRequest() {
    return secondsPerRequest;
  }

  /** A named model's speed on this card, with its source ("measured: TensorRT-LLM ..."), or null for the guide's sizing. */
  public SpeedTable.Speed speed() {
    return speed;
  }

  /**
   * Sizing on every card asked about, as {@code sizing} answers it on the command line and in
   * REST: the cards it fits first, then fewest cards, then least memory.
   */
  public static java.util.List<Fit> onEach(Workload w, java.util.Collection<Gpu> cards, Gpu ref, double headroom) {
    return cards.stream().map(g -> of(w, g, ref, headroom))
        .sorted(java.util.Comparator.comparing(Fit::ok).reversed().thenComparingInt(Fit::cards)
            .thenComparingDouble(f -> f.gpu().memoryGiB()))
        .toList();
  }

  /** Sizes {@code w} on {@code gpu}, its speed figures having been measured on {@code ref}. */
  public static Fit of(Workload w, Gpu gpu, Gpu ref, double headroom) {
    return of(w, Sizing.vram(w).highGB(), gpu, ref, headroom);
  }

  /** As above, with the workload's memory need (the high end, GB) already worked out: it is the same on every card. */
  static Fit of(Workload w, double need, Gpu gpu, Gpu ref, double headroom) {
    int perCopy = Sizing.cardsForMemory(need, gpu);
    if (perCopy > Sizing.MAX_CARDS) return tooMany(gpu, "fit.what.copy");
    int refPerCopy = Math.min(Sizing.cardsForMemory(need, ref), Sizing.MAX_CARDS);
    double share = need / (perCopy * gpu.memoryGB());
    if (w instanceof Inference i && i.modelSizing().isPresent()) return measured(i, i.modelSizing().get(), gpu, perCopy, need, headroom);
    if (w instanceof Inference i) {
      double speed = Sizing.relativeSpeed(gpu, perCopy, ref, refPerCopy, i.computeBound());
      double qps = Sizing.referenceQpsPerCard(i) * speed;
      double seconds = i.secondsPerRequest() / speed;
      if (i.latencyTargetSeconds() > 0 && seconds > i.latencyTargetSeconds() + 1e-9) {
        return unfit(gpu, Words.of("fit.latency", "gpu", gpu.id(), "seconds", String.format(Locale.ROOT, "%.2f", seconds),
            "target", String.format(Locale.ROOT, "%.2f", i.latencyTargetSeconds())));
      }
      long cards = (long) Sizing.cardsForQps(i.peakQps(), qps, headroom) * perCopy;
      if (cards > Sizing.MAX_CARDS) return tooMany(gpu, "fit.what.peak");
      return new Fit(gpu, null, (int) cards, perCopy, share, qps, seconds, 0, 0, i.computeBound());
    }
    Job j = (Job) w;
    int cards = Math.max(perCopy, j.cards());
    // The reference measurement ran on as many reference cards as memory needs there.
    double refHours = j.gpuHoursPerMonth() / refPerCopy * ref.interconnect().speedup(refPerCopy);
    double rel = Sizing.speedMetric(gpu, true) / Sizing.speedMetric(ref, true);
    Fit fit = new Fit(gpu, null, cards, perCopy, share, 0, 0, refHours, rel, true);
    // A month of work that only fits by renting sets of cards in parallel (committed modes do)
    // must stay within the limit too, or the planner's instance counts could overflow.
    if (Math.ceil(fit.wallHours(cards) / BillingPlanner.HOURS_PER_MONTH) * cards > Sizing.MAX_CARDS) {
      return tooMany(gpu, "fit.what.month");
    }
    return fit;
  }

  /**
   * A named model sized from measurements: a copy of a power-of-two count of cards serves the measured
   * output tokens a second per GPU x perCopy, so {@code / outputTokens} requests a second; copies
   * for the load with headroom. Latency targets are held to roofline floors, which no engine
   * beats: a token reads every active weight once (TPOT >= active bytes / the copy's bandwidth),
   * and a prompt takes 2 FLOPs a token per active parameter (TTFT >= 2 x active x input / the
   * copy's FP16 TFLOPS); a card whose floor misses the target is unfit.
   */
  /** NVIDIA's FP8 tensor cores start with Ada (8.9) and Hopper (9.0); every fp8 row measured ran on such cards. */
  static final double FP8_COMPUTE_CAPABILITY = 8.9;

  private static Fit measured(Inference i, ModelLoad m, Gpu gpu, int memoryCards, double need, double headroom) {
    // Tensor (or expert) parallelism splits heads and experts evenly: a copy runs on 1, 2, 4, 8 ... cards, as every measured row does.
    int perCopy = Integer.highestOneBit(memoryCards) == memoryCards ? memoryCards : Integer.highestOneBit(memoryCards) << 1;
    if (perCopy > Sizing.MAX_CARDS) return tooMany(gpu, "fit.what.copy");
    double share = need / (perCopy * gpu.memoryGB());
    if (i.precision() == Precision.FP8 && gpu.maker().equals("nvidia") && gpu.computeCapability() < FP8_COMPUTE_CAPABILITY) {
      return unfit(gpu, Words.of("fit.fp8", "gpu", gpu.id(), "cc", gpu.computeCapability()));
    }
    java.util.Optional<SpeedTable.Speed> found = m.speeds().perGpu(m.model(), i.precision(), m.inputTokens(), m.outputTokens(), gpu, perCopy);
    if (found.isEmpty()) return unfit(gpu, Words.of("fit.noSpeed", "model", m.model().id()));
    SpeedTable.Speed speed = found.get();
    double active = m.model().activeParamsBillions();
    double tpot = active * i.precision().bytesPerParam() / (gpu.bandwidthGBs() * perCopy);
    double ttft = 2 * active * 1e9 * m.inputTokens() / (gpu.fp16Tflops() * 1e12 * perCopy);
    if (m.tpotSeconds() > 0 && tpot > m.tpotSeconds() + 1e-12) {
      return unfit(gpu, Words.of("fit.tpot", "gpu", gpu.id(), "seconds", String.format(Locale.ROOT, "%.4f", tpot),
          "target", String.format(Locale.ROOT, "%.4f", m.tpotSeconds())));
    }
    if (m.ttftSeconds() > 0 && ttft > m.ttftSeconds() + 1e-12) {
      return unfit(gpu, Words.of("fit.ttft", "gpu", gpu.id(), "seconds", String.format(Locale.ROOT, "%.3f", ttft),
          "target", String.format(Locale.ROOT, "%.3f", m.ttftSeconds())));
    }
    double qps = speed.perGpu() * perCopy / m.outputTokens();
    long cards = (long) Sizing.cardsForQps(m.requestsPerSecond(), qps, headroom) * perCopy;
    if (cards > Sizing.MAX_CARDS) return tooMany(gpu, "fit.what.peak");
    return new Fit(gpu, null, (int) cards, perCopy, share, qps, ttft + m.outputTokens() * tpot, 0, 0, false, speed);
  }

  private static Fit unfit(Gpu gpu, dev.gpurent.text.Message reason) {
    return new Fit(gpu, reason, 0, 0, 0, 0, 0, 0, 0, false);
  }

  private static Fit tooMany(Gpu gpu, String whatCode) {
    return unfit(gpu, Words.of("fit.tooMany", "gpu", gpu.id(), "what", Words.of(whatCode), "max", Sizing.MAX_CARDS));
  }

  // Wall hours by card count up to a machine's 8 cards, computed once (the speed-up takes a log and a
  // power); made on first use, as only a job's fit asks, and a ranking makes a fit per workload and card.
  private double[] wallByCards;
  private static final int KEPT_COUNTS = 9;

  /** Jobs: wall-clock hours a month when running on {@code cardsUsed} of these cards. */
  double wallHours(int cardsUsed) {
    if (cardsUsed >= 0 && cardsUsed < KEPT_COUNTS) {
      double[] known = wallByCards;
      if (known == null) wallByCards = known = new double[KEPT_COUNTS];
      double w = known[cardsUsed];
      if (w == 0) {
        w = referenceCardHours / (relativeSpeedPerCard * gpu.interconnect().speedup(cardsUsed));
        known[cardsUsed] = w;
      }
      return w;
    }
    return referenceCardHours / (relativeSpeedPerCard * gpu.interconnect().speedup(cardsUsed));
  }
}
