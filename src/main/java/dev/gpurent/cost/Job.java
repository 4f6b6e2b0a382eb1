package dev.gpurent.cost;

import java.util.Optional;

/**
 * Work measured in GPU-hours: fine-tuning, training or batch experiments.
 *
 * @param kind            fine-tune, training or batch
 * @param paramsBillions  model parameters in billions (0 for batch work that states memory directly)
 * @param method          how the model is tuned (training is full by default)
 * @param memoryGB        memory the job needs when stated directly (batch), else 0
 * @param gpuHoursPerMonth card-hours a month on the reference GPU, with as many reference
 *                        cards as the job needs for memory
 * @param cards           a card count forced by the user (0: as many as memory needs)
 * @param restartOverheadHours hours one spot interruption costs (lost work since the last
 *                        checkpoint, restart, reload)
 * @param allowMultiNode  the job may run over several machines, at the network's efficiency
 */
public record Job(String name, Kind kind, Optional<String> gpu, Optional<String> vendor, String referenceGpu,
                  boolean interruptible, double paramsBillions, TuneMethod method, double memoryGB,
                  double gpuHoursPerMonth, int cards, double restartOverheadHours, boolean allowMultiNode) implements Workload {

  /** A job that runs in one machine. */
  public Job(String name, Kind kind, Optional<String> gpu, Optional<String> vendor, String referenceGpu, boolean interruptible,
             double paramsBillions, TuneMethod method, double memoryGB, double gpuHoursPerMonth, int cards,
             double restartOverheadHours) {
    this(name, kind, gpu, vendor, referenceGpu, interruptible, paramsBillions, method, memoryGB, gpuHoursPerMonth, cards,
        restartOverheadHours, false);
  }
}
