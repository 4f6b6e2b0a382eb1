package dev.gpurent.cost;

import dev.gpurent.quote.Money;

/**
 * A fleet in service and what monitoring says of it (guide 5.3-5.4).
 *
 * @param gpu               canonical id of the card rented now
 * @param count             cards rented
 * @param pricePerCardMonth what one card costs a month now
 * @param gpuUtilization    average GPU utilization, 0-1
 * @param vramUtilization   average memory utilization, 0-1
 * @param peakQps           observed peak load
 * @param queueing          whether requests often wait in a queue
 * @param workload          the served model, sized as a scenario's inference workload
 *                          (its peakQps is the observed one)
 * @param includeReference  count the guide's reference sheet among the vendors to move to
 */
public record Fleet(String name, String currency, String gpu, int count, Money pricePerCardMonth, double gpuUtilization,
                    double vramUtilization, double peakQps, boolean queueing, Inference workload, double headroom,
                    boolean includeReference) {

  public Money monthlyCost() {
    return pricePerCardMonth.times(count).cents();
  }
}
