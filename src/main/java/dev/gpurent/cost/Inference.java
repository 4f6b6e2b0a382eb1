package dev.gpurent.cost;

import java.util.Optional;

/**
 * A model served online (guide 2.3): sized for peak QPS with N concurrent requests per card
 * of T seconds each, measured on a reference GPU.
 *
 * @param paramsBillions     model parameters, in billions
 * @param precision          weight precision
 * @param peakQps            peak queries per second
 * @param secondsPerRequest  T on the reference GPU
 * @param concurrentPerCard  N on the reference GPU
 * @param hoursPerDay        hours online each day
 * @param daysPerMonth       days online each month
 * @param latencyTargetSeconds latency a request must meet, or 0 for none
 * @param computeBound       true when speed scales with TFLOPS (image models), false for LLM
 *                           decoding, which scales with memory bandwidth
 * @param restartOverheadHours hours one spot interruption costs
 * @param allowMultiNode     a copy too big for one machine may span several, over the network
 * @param model              the named model and its load in tokens, when the workload names one (issue 31)
 */
public record Inference(String name, Optional<String> gpu, Optional<String> vendor, String referenceGpu,
                        boolean interruptible, double paramsBillions, Precision precision, double peakQps,
                        double secondsPerRequest, double concurrentPerCard, double hoursPerDay,
                        double daysPerMonth, double latencyTargetSeconds, boolean computeBound,
                        double restartOverheadHours, boolean allowMultiNode, Optional<ModelLoad> model) implements Workload {

  /** A model sized by the guide's figures alone (no model named). */
  public Inference(String name, Optional<String> gpu, Optional<String> vendor, String referenceGpu, boolean interruptible,
                   double paramsBillions, Precision precision, double peakQps, double secondsPerRequest,
                   double concurrentPerCard, double hoursPerDay, double daysPerMonth, double latencyTargetSeconds,
                   boolean computeBound, double restartOverheadHours, boolean allowMultiNode) {
    this(name, gpu, vendor, referenceGpu, interruptible, paramsBillions, precision, peakQps, secondsPerRequest,
        concurrentPerCard, hoursPerDay, daysPerMonth, latencyTargetSeconds, computeBound, restartOverheadHours, allowMultiNode,
        Optional.empty());
  }

  /** A model served from single machines. */
  public Inference(String name, Optional<String> gpu, Optional<String> vendor, String referenceGpu, boolean interruptible,
                   double paramsBillions, Precision precision, double peakQps, double secondsPerRequest,
                   double concurrentPerCard, double hoursPerDay, double daysPerMonth, double latencyTargetSeconds,
                   boolean computeBound, double restartOverheadHours) {
    this(name, gpu, vendor, referenceGpu, interruptible, paramsBillions, precision, peakQps, secondsPerRequest,
        concurrentPerCard, hoursPerDay, daysPerMonth, latencyTargetSeconds, computeBound, restartOverheadHours, false);
  }

  @Override
  public Kind kind() {
    return Kind.INFERENCE;
  }

  /** The named model sized from its architecture and measured speed, or empty for the guide's sizing (section 2.2-2.3). */
  public Optional<ModelLoad> modelSizing() {
    return model.filter(m -> !m.guideSizing());
  }

  /** Hours the cards are on each month; never more than the 730 a month has (24 h x 31 days is 744). */
  public double hoursPerMonth() {
    return Math.min(hoursPerDay * daysPerMonth, BillingPlanner.HOURS_PER_MONTH);
  }
}
