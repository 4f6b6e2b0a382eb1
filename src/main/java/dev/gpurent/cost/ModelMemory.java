package dev.gpurent.cost;

import dev.gpurent.text.Message;

/**
 * The memory a named model needs (issue 31, item 2), in GB (10^9 bytes) as the guide counts:
 * <ul>
 *   <li>weights: total parameters x bytes at the precision; a MoE keeps all its experts resident;</li>
 *   <li>KV cache: bytes a token x contextTokens x concurrentSequences, a token's bytes being
 *       2 x layers x KV heads x head dim x bytes, or with MLA (kv_lora_rank + qk_rope_head_dim) x
 *       layers x bytes (the formulas of ../shared/data/models/README.md);</li>
 *   <li>runtime: what the engine cannot give to weights and cache. vLLM takes
 *       {@link #USABLE_SHARE} of a card's memory by default ({@code --gpu-memory-utilization 0.9},
 *       vLLM engine arguments) and leaves the rest to the CUDA context, CUDA graphs and allocator
 *       slack; so the need is (weights + KV) / 0.9, and the runtime share is the difference.</li>
 * </ul>
 *
 * @param kvBytesPerToken bytes one token of one sequence holds in the KV cache
 */
public record ModelMemory(double weightsGB, double kvGB, double overheadGB, long kvBytesPerToken) {

  /** Share of card memory an engine gives weights and KV cache (vLLM's default gpu_memory_utilization). */
  public static final double USABLE_SHARE = 0.9;

  public static ModelMemory of(Inference i, ModelLoad m) {
    double weights = m.model().paramsBillions() * i.precision().bytesPerParam();
    long perToken = Math.round(m.model().kvElementsPerToken() * m.kvPrecision().bytesPerParam());
    double kv = (double) perToken * m.contextTokens() * m.concurrentSequences() / 1e9;
    double overhead = (weights + kv) / USABLE_SHARE - weights - kv;
    return new ModelMemory(weights, kv, overhead, perToken);
  }

  public double totalGB() {
    return weightsGB + kvGB + overheadGB;
  }

  /** "weights 140 GB (70B x 2 B, fp16) + KV cache 429.5 GB (327680 B a token x 32768 tokens x 40 sequences) + runtime ..." */
  Message formula(Inference i, ModelLoad m) {
    return Words.of(m.model().isMoe() ? "vram.model.moe" : "vram.model", "model", m.model().id(),
        "params", Sizing.fmt(m.model().paramsBillions()), "bytes", i.precision().bytesPerParam(), "precision", i.precision().wire(),
        "weights", Sizing.fmt(weightsGB), "kv", Sizing.fmt(kvGB), "perToken", kvBytesPerToken, "context", m.contextTokens(),
        "sequences", m.concurrentSequences(), "kvPrecision", m.kvPrecision().wire(), "overhead", Sizing.fmt(overheadGB),
        "share", USABLE_SHARE, "gb", Sizing.fmt(totalGB()), "active", Sizing.fmt(m.model().activeParamsBillions()),
        "attention", Words.of(m.model().isMla() ? "vram.model.mla" : "vram.model.gqa"));
  }
}
