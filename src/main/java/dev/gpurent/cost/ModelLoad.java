package dev.gpurent.cost;

import dev.gpurent.catalog.Model;

/**
 * An inference workload that names its model (issue 31): the model's catalog entry, how it is
 * sized, and its load in tokens. With {@code guideSizing} the guide's rules size it (params x
 * bytes x 1.2, N/T on a reference card) and only the parameter count comes from the model; else
 * its memory is the weights plus the KV cache ({@link ModelMemory}) and its cards are counted
 * from measured throughput ({@link SpeedTable}).
 *
 * @param model               the catalog's model
 * @param guideSizing         sized by the guide's rules rather than from the architecture
 * @param contextTokens       tokens of context each sequence holds in the KV cache
 * @param concurrentSequences sequences served at once (each holds its KV cache)
 * @param requestsPerSecond   requests a second (0 when the load is stated the guide's way)
 * @param inputTokens         prompt tokens per request
 * @param outputTokens        generated tokens per request
 * @param ttftSeconds         time-to-first-token target, 0 for none
 * @param tpotSeconds         time-per-output-token target, 0 for none
 * @param kvPrecision         the KV cache's element type (16-bit unless the engine is told fp8)
 * @param speeds              the measured throughputs cards are counted from
 */
public record ModelLoad(Model model, boolean guideSizing, int contextTokens, int concurrentSequences,
                        double requestsPerSecond, int inputTokens, int outputTokens, double ttftSeconds,
                        double tpotSeconds, Precision kvPrecision, SpeedTable speeds) {

  /** Whether the load is stated in tokens (requests a second with input and output tokens each). */
  public boolean hasTokenLoad() {
    return requestsPerSecond > 0 && outputTokens > 0;
  }
}
