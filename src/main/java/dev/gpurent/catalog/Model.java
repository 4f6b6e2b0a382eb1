package dev.gpurent.catalog;

import java.util.List;

/**
 * One open model from {@code config/models.yaml}: the architecture facts its memory and speed are
 * worked out from, each as its source states it (models.csv of the recorded facts).
 *
 * @param id                   our short name, e.g. {@code Llama-3.1-70B} (the throughput table's join key)
 * @param hf                   the publisher's Hugging Face repository id
 * @param kind                 llm-dense, llm-moe, llm-moe-mla, speech-encoder-decoder, diffusion-unet, diffusion-transformer
 * @param paramsBillions       total parameters, all experts of a MoE (0 where no source states it)
 * @param activeParamsBillions parameters each token passes through (MoE), else the total
 * @param layers               num_hidden_layers (0 for models that are not language models)
 * @param kvHeads              num_key_value_heads (0 where not stated)
 * @param headDim              head_dim as published (or hidden_size / heads where the config gives none)
 * @param kvLoraRank           MLA compressed KV dimension, 0 without MLA
 * @param qkRopeHeadDim        MLA decoupled RoPE key dimension, 0 without MLA
 * @param maxContext           max_position_embeddings, 0 where not stated
 * @param weights              the precision the published checkpoint ships in when not 16-bit (DeepSeek: fp8), else null
 * @param source               where the architecture was read ({@code owner/repo:path@commit} or a URL)
 * @param paramsSource         where the parameter count was read
 * @param aliases              spellings people type beyond the name rule of {@link ModelCatalog#key}
 */
public record Model(String id, String hf, String kind, double paramsBillions, double activeParamsBillions, int layers,
                    int kvHeads, int headDim, int kvLoraRank, int qkRopeHeadDim, int maxContext, String weights,
                    String source, String paramsSource, List<String> aliases) {

  public Model {
    aliases = List.copyOf(aliases);
    if (activeParamsBillions <= 0) activeParamsBillions = paramsBillions;
  }

  public boolean isLanguageModel() {
    return kind.startsWith("llm");
  }

  /** DeepSeek's multi-head latent attention: the KV cache holds one compressed latent per layer. */
  public boolean isMla() {
    return kvLoraRank > 0;
  }

  public boolean isMoe() {
    return kind.startsWith("llm-moe");
  }

  /** Whether the KV cache can be worked out: a language model with its layers, KV heads and head size (or MLA ranks) known. */
  public boolean hasKvFacts() {
    return isLanguageModel() && layers > 0 && (isMla() || (kvHeads > 0 && headDim > 0));
  }

  /**
   * Elements the KV cache holds per token (models/README.md): 2 x layers x KV heads x head dim
   * (one K and one V per KV head), or with MLA (kv_lora_rank + qk_rope_head_dim) x layers.
   */
  public long kvElementsPerToken() {
    return isMla() ? (long) (kvLoraRank + qkRopeHeadDim) * layers : 2L * layers * kvHeads * headDim;
  }
}
