package dev.gpurent.catalog;

/**
 * One measured serving throughput from {@code config/throughput.yaml}: output tokens a second per
 * GPU at maximum load, for one model on {@code gpus} cards of one kind at one precision and one
 * pair of input and output lengths.
 *
 * @param model            the model's catalog id
 * @param gpu              the card's catalog id
 * @param gpus             cards the measurement ran on (TP or DEP degree)
 * @param parallelism      as published: TP8, DEP4, TP2,PP2 ...
 * @param precision        as published, lowercase: fp8, fp16, fp4
 * @param perGpu           output tokens per second per GPU
 * @param source           the source id (trtllm-v0.17, ...), a key of {@link ModelCatalog#sourceText}
 * @param gpuAsPublished   the card as the source spells it
 * @param modelAsPublished the model as the source spells it
 */
public record Measurement(String model, String gpu, int gpus, String parallelism, String precision, int inputTokens,
                          int outputTokens, double perGpu, String source, String gpuAsPublished, String modelAsPublished) {

  /** How a bill names this row: "TensorRT-LLM perf overview v0.17, H100 80GB HBM3 x1 (TP1), LLaMA v3.1 70B fp8, 128/2048". */
  public String label(String sourceName) {
    return sourceName + ", " + gpuAsPublished + " x" + gpus + " (" + parallelism + "), " + modelAsPublished + " " + precision
        + ", " + inputTokens + "/" + outputTokens;
  }
}
