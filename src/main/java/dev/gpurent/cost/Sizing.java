package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;

/**
 * The guide's sizing rules (sections 2.2, 2.3, 3.3): how much memory a workload needs, how many
 * cards memory and load call for, and how fast a set of cards runs relative to the reference.
 * Pure functions over datasheet figures.
 */
public final class Sizing {

  /** Inference overhead on top of the weights: KV cache, activations, runtime (guide 2.2). */
  public static final double INFERENCE_OVERHEAD = 1.2;
  /** Above this share of card memory a plan is "at the edge" (guide 2.2: 16.8 GB on a 16 GB card). */
  public static final double MEMORY_EDGE = 0.9;

  /**
   * The most cards any plan may rent for one workload (about the largest GPU clusters built).
   * Past it a card is unfit, with the reason: card counts stay far from int overflow, so no
   * product of counts can wrap to a plan of 0 cards.
   */
  public static final int MAX_CARDS = 100_000;

  private static final double EPS = 1e-9;

  private Sizing() {}

  /**
   * VRAM need in GB (10^9 bytes) as a range; cards are sized on the high end.
   *
   * @param formula how the figure was computed, for explanations
   */
  public record VramNeed(double lowGB, double highGB, dev.gpurent.text.Message formula) {}

  public static VramNeed vram(Workload w) {
    if (w instanceof Inference i && i.modelSizing().isPresent()) {
      ModelMemory m = ModelMemory.of(i, i.modelSizing().get());
      return new VramNeed(m.totalGB(), m.totalGB(), m.formula(i, i.modelSizing().get()));
    }
    if (w instanceof Inference i) {
      double gb = i.paramsBillions() * i.precision().bytesPerParam() * INFERENCE_OVERHEAD;
      return new VramNeed(gb, gb, Words.of("vram.inference", "params", i.paramsBillions(), "bytes", i.precision().bytesPerParam(),
          "precision", i.precision().wire(), "overhead", INFERENCE_OVERHEAD, "gb", gb));
    }
    Job j = (Job) w;
    if (j.memoryGB() > 0 || j.paramsBillions() == 0) {
      return new VramNeed(j.memoryGB(), j.memoryGB(), Words.of("vram.stated", "gb", j.memoryGB()));
    }
    TuneMethod m = j.method();
    double low = j.paramsBillions() * m.lowBytesPerParam();
    double high = j.paramsBillions() * m.highBytesPerParam();
    return new VramNeed(low, high, Words.of("vram.tune", "params", j.paramsBillions(), "lowBytes", m.lowBytesPerParam(),
        "highBytes", m.highBytesPerParam(), "method", Words.of("tune." + m.wire()), "low", low, "high", high));
  }

  /** Cards whose memory together holds {@code needGB}; at least one, and {@link #MAX_CARDS} + 1 for any count past the limit. */
  public static int cardsForMemory(double needGB, Gpu gpu) {
    return capped(Math.ceil(needGB / gpu.memoryGB() - EPS));
  }

  /** The guide's per-card QPS on the reference card: N concurrent requests / T seconds. */
  public static double referenceQpsPerCard(Inference i) {
    return i.concurrentPerCard() / i.secondsPerRequest();
  }

  /** Cards for a peak load: peak / per-card QPS x (1 + headroom), rounded up (20 QPS at 2 -> 10 -> 13). */
  public static int cardsForQps(double peakQps, double qpsPerCard, double headroom) {
    return capped(Math.ceil(peakQps / qpsPerCard * (1 + headroom) - EPS));
  }

  /** A card count as an int: at least 1, and past {@link #MAX_CARDS} (or not a number) {@code MAX_CARDS + 1}. */
  static int capped(double cards) {
    if (!(cards <= MAX_CARDS)) return MAX_CARDS + 1;
    return Math.max(1, (int) cards);
  }

  /** The figure a card's speed scales by: memory bandwidth for LLM decoding, TFLOPS for compute-bound work. */
  public static double speedMetric(Gpu gpu, boolean computeBound) {
    return computeBound ? gpu.fp16Tflops() : gpu.bandwidthGBs();
  }

  /**
   * Speed of {@code cards} cards of {@code gpu} relative to {@code refCards} cards of the
   * reference, counting the interconnect's scaling loss on both sides.
   */
  public static double relativeSpeed(Gpu gpu, int cards, Gpu ref, int refCards, boolean computeBound) {
    return (speedMetric(gpu, computeBound) * gpu.interconnect().speedup(cards))
        / (speedMetric(ref, computeBound) * ref.interconnect().speedup(refCards));
  }

  /** A quantity for people: at most two decimals, no trailing zeros (16.8, 2, 86.19). */
  static String fmt(double d) {
    return dev.gpurent.text.Messages.number(d);
  }
}
