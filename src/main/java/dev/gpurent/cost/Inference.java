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
 */
public record Inference(String name, Optional<String> gpu, Optional<String> vendor, String referenceGpu,
                        boolean interruptible, double paramsBillions, Precision precision, double peakQps,
                        double secondsPerRequest, double concurrentPerCard, double hoursPerDay,
                        double daysPerMonth, double latencyTargetSeconds, boolean computeBound,
                        double restartOverheadHours) implements Workload {

  @Override
  public Kind kind() {
    return Kind.INFERENCE;
  }

  /** Hours the cards are on each month. */
  public double hoursPerMonth() {
    return hoursPerDay * daysPerMonth;
  }
}
