package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.Money;
import dev.gpurent.text.Localizer;
import java.io.StringReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Sizing by a model's name (issue 31): memory from the architecture with the KV cache, cards from
 * the measured throughput table; every figure worked by hand from config/models.yaml and
 * config/throughput.yaml (which ModelFactsTest holds to ../shared/data).
 */
class ModelSizingTest {

  static final ModelCatalog MODELS = ModelCatalog.besides(Path.of("config/gpus.yaml"));

  /** Llama 3.1 70B at fp8, 2 requests a second of 1000/1000 tokens, 8 sequences of 2k context. */
  static final String LLAMA_70B_FP8 = """
      model: Llama-3.1-70B
      precision: fp8
      contextTokens: 2048
      concurrentSequences: 8
      requestsPerSecond: 2
      inputTokens: 1000
      outputTokens: 1000
      """;

  static Inference read(String fields) {
    String yaml = "workloads:\n  - kind: inference\n" + fields.indent(4);
    Scenario s = new ScenarioReader(CATALOG, MODELS, 50).read(YamlFiles.parse(new StringReader(yaml), "test"));
    return (Inference) s.workloads().get(0);
  }

  static ModelMemory memory(Inference i) {
    return ModelMemory.of(i, i.modelSizing().orElseThrow());
  }

  @Test
  void llama_3_1_70b_holds_327680_bytes_a_token_and_429_gb_at_32k_by_40() {
    Inference i = read("""
        model: llama3.1:70b
        precision: fp16
        contextTokens: 32768
        concurrentSequences: 40
        requestsPerSecond: 0.6
        inputTokens: 1000
        outputTokens: 500
        """);
    ModelMemory m = memory(i);
    // 2 (K and V) x 80 layers x 8 KV heads x 128 head dim x 2 B (fp16) = 327,680 B a token
    assertEquals(327_680, m.kvBytesPerToken());
    // 327,680 B x 32,768 tokens x 40 sequences = 429,496,729,600 B = 429.4967296 GB: more than the weights
    assertEquals(429.4967296, m.kvGB(), 1e-9);
    // 70B x 2 B = 140 GB
    assertEquals(140, m.weightsGB(), 1e-9);
    // (140 + 429.4967296) / 0.9 = 632.7741440 GB, so the runtime share is 63.2774144 GB
    assertEquals(63.2774144, m.overheadGB(), 1e-6);
    assertEquals(632.774144, Sizing.vram(i).highGB(), 1e-6);
    assertEquals("Llama-3.1-70B: weights 140 GB (70B x 2 B, fp16) + KV cache 429.5 GB (2 x layers x KV heads x head dim: "
        + "327680 B a token at fp16 x 32768 tokens x 40 sequences) + runtime 63.28 GB (the engine gives weights and cache 90% "
        + "of card memory) = 632.77 GB", Localizer.en(Sizing.vram(i).formula()));
    // 632.77 GB over an 80 GiB (85.899 GB) H100: 7.37, so 8 cards hold one copy
    assertEquals(8, Fit.of(i, CATALOG.resolve("h100-sxm"), CATALOG.resolve("rtx-4090"), 0.3).cardsPerCopy());
  }

  @Test
  void deepseek_v3_caches_the_mla_latent_not_128_heads() {
    Inference i = read("""
        model: deepseek-v3
        contextTokens: 1000
        concurrentSequences: 1
        requestsPerSecond: 1
        inputTokens: 500
        outputTokens: 500
        """);
    ModelMemory m = memory(i);
    // MLA: (kv_lora_rank 512 + qk_rope_head_dim 64) x 61 layers = 35,136 elements x 2 B = 70,272 B a token,
    // where the per-head formula would give 2 x 61 x 128 x 128 x 2 = 3,997,696 B (57 times as much)
    assertEquals(70_272, m.kvBytesPerToken());
    assertEquals(0.070272, m.kvGB(), 1e-12);
    // the published checkpoint is FP8 (quantization_config), so by default 671B x 1 B = 671 GB
    assertEquals(Precision.FP8, i.precision());
    assertEquals(671, m.weightsGB(), 1e-9);
  }

  @Test
  void qwen3_235b_a22b_holds_all_experts_but_computes_with_the_active_ones() {
    Inference i = read("""
        model: Qwen/Qwen3-235B-A22B
        precision: fp8
        contextTokens: 2048
        concurrentSequences: 10
        requestsPerSecond: 1
        inputTokens: 1000
        outputTokens: 1000
        tpotSeconds: 0.01
        """);
    ModelMemory m = memory(i);
    // memory: all 128 experts resident, 235B x 1 B = 235 GB
    assertEquals(235, m.weightsGB(), 1e-9);
    // 2 x 94 layers x 4 KV heads x 128 x 2 B = 192,512 B a token
    assertEquals(192_512, m.kvBytesPerToken());
    assertTrue(Localizer.en(Sizing.vram(i).formula()).contains("all experts resident, 22B active a token"));
    // compute: the active 22B only. A token reads 22B x 1 B = 22 GB; 4 H100s (3350 GB/s each) take
    // 22 / 13400 = 1.64 ms, within the 10 ms TPOT target; the 235 GB of all experts would take 17.5 ms and miss it
    Fit h100 = Fit.of(i, CATALOG.resolve("h100-sxm"), CATALOG.resolve("rtx-4090"), 0.3);
    assertTrue(h100.ok());
    // (235 + 192,512 x 2048 x 10 / 1e9 = 3.943 GB) / 0.9 = 265.49 GB over 85.9 GB cards: 4 a copy
    assertEquals(4, h100.cardsPerCopy());
    // its nearest measured row is the developer guide's H100 DEP8 at 1000/1000, 1932 tokens/s a GPU; a copy of 4 is
    // scaled by the guide's calibration on NVLink 900 GB/s (0.97 kept a doubling, the clamp): per GPU
    // 1932 x 0.97^2 / 0.97^3 = 1932 / 0.97 = 1991.75
    assertEquals(1932 / 0.97, h100.speed().perGpu(), 1e-9);
    assertEquals("estimated: TensorRT-LLM developer guide perf overview, H100 x8 (DEP8), Qwen3 235B A22B fp8, 1000/1000; "
        + "4-card speed from the 8-card row by the guide's calibration (NVLink 900 GB/s)", Localizer.en(h100.speed().source()));
  }

  @Test
  void counts_h100_cards_from_the_measured_tensorrt_llm_row() {
    Inference i = read(LLAMA_70B_FP8);
    Gpu h100 = CATALOG.resolve("h100-sxm");
    Fit f = Fit.of(i, h100, CATALOG.resolve("rtx-4090"), 0.3);
    // memory: 70 GB + 327,680 x 2048 x 8 / 1e9 = 5.369 GB, / 0.9 = 83.74 GB: one 80 GiB (85.9 GB) card
    assertEquals(1, f.cardsPerCopy());
    // throughput.yaml: TensorRT-LLM v0.17, H100 80GB HBM3, TP1, LLaMA v3.1 70B FP8, 1000/1000: 839.97 output tokens/s.
    // A copy serves 839.97 / 1000 = 0.83997 requests/s; 2 x 1.3 / 0.83997 = 3.095, so 4 cards
    assertEquals(0.83997, f.qpsPerCopy(), 1e-9);
    assertEquals(4, f.cards());
    assertTrue(f.speed().measured());
    assertEquals("measured: TensorRT-LLM perf overview v0.17, H100 80GB HBM3 x1 (TP1), LLaMA v3.1 70B fp8, 1000/1000",
        Localizer.en(f.speed().source()));
  }

  @Test
  void scales_a_card_with_no_measurement_from_the_nearest_measured_card_and_says_so() {
    Inference i = read(LLAMA_70B_FP8);
    // The H100 PCIe (2000 GB/s) has no row; of the cards measured at fp8 (H200 4800, GH200 4000, H100 SXM 3350,
    // L40S 864 GB/s) the H100 SXM is nearest in bandwidth: 839.97 x 2000 / 3350 = 501.47 tokens/s a GPU
    Fit f = Fit.of(i, CATALOG.resolve("h100-pcie"), CATALOG.resolve("rtx-4090"), 0.3);
    assertFalse(f.speed().measured());
    assertEquals(839.97 * 2000 / 3350, f.speed().perGpu(), 1e-9);
    // one 80 GiB card a copy; 2 x 1.3 / 0.50147 = 5.18, so 6 cards
    assertEquals(6, f.cards());
    assertEquals("estimated from NVIDIA H100 SXM by memory bandwidth: TensorRT-LLM perf overview v0.17, H100 80GB HBM3 x1 (TP1), "
        + "LLaMA v3.1 70B fp8, 1000/1000; memory bandwidth 3350 GB/s on h100-sxm, 2000 GB/s here", Localizer.en(f.speed().source()));
  }

  @Test
  void scales_an_unmeasured_model_from_the_nearest_measured_one_by_active_parameters() {
    Inference i = read("""
        model: qwen2.5-72b
        precision: fp8
        contextTokens: 2048
        concurrentSequences: 4
        requestsPerSecond: 1
        inputTokens: 1000
        outputTokens: 1000
        """);
    // memory: 72.7 GB + 327,680 x 2048 x 4 / 1e9 = 2.68 GB, / 0.9 = 83.76 GB: one H100.
    // Qwen2.5-72B (72.7B) has no row; Llama-3.1-70B is the nearest measured model (3.1 before 3.3 at equal size),
    // its H100 TP1 fp8 1000/1000 row 839.97 tokens/s scaled by 70 / 72.7
    Fit f = Fit.of(i, CATALOG.resolve("h100-sxm"), CATALOG.resolve("rtx-4090"), 0.3);
    assertEquals(839.97 * 70 / 72.7, f.speed().perGpu(), 1e-9);
    assertTrue(Localizer.en(f.speed().source()).endsWith("scaled from Llama-3.1-70B (70B active) to 72.7B active parameters"));
  }

  @Test
  void guide_sizing_of_a_named_model_keeps_the_guides_1_2_rule() {
    Inference i = read("""
        model: mistral:7b
        sizing: guide
        peakQps: 20
        secondsPerRequest: 2
        concurrentPerCard: 4
        """);
    // the guide's 2.2 and 2.3: 7B x 2 B x 1.2 = 16.8 GB; 20 QPS at N/T = 2 with 30% headroom: 13 RTX 4090s
    assertEquals(16.8, Sizing.vram(i).highGB(), 1e-9);
    assertEquals(13, Fit.of(i, CATALOG.resolve("rtx-4090"), CATALOG.resolve("rtx-4090"), 0.3).cards());
  }

  @Test
  void bills_a_named_model_at_the_guides_prices_and_says_where_its_speed_came_from() {
    Scenario s = new ScenarioReader(CATALOG, MODELS, 50).read(YamlFiles.load(Path.of("config/scenarios/models/chat-llama-8b.yaml")));
    Ranking r = new CostModel(CATALOG, dev.gpurent.Fixtures.RULES)
        .rank(s.withConstraints(s.constraints().withIncludeReference(true)), dev.gpurent.Fixtures.book(dev.gpurent.Fixtures.guideReference()));
    VendorPlan plan = r.plans().get(0);
    // Llama-3.1-8B fp16: 16 GB + 131,072 B x 4096 x 8 = 4.29 GB, / 0.9 = 22.55 GB: one 24 GiB RTX 4090 (88%).
    // No 4090 row: the A100 80GB SXM fp16 row (TP1, 1000/1000) scaled by bandwidth, 3786.83 x 1008 / 2039 = 1872.06
    // tokens/s, / 500 = 3.74 requests/s a copy: one card carries 1 request/s with 30% headroom, on the guide's
    // monthly 1500.00, + storage 1000 GB x 0.10 + egress 250 GB x 0.80 = 1800.00 CNY
    assertEquals(Money.of("1800.00", "CNY"), plan.monthlyTotal());
    Placement p = plan.placements().get(0);
    assertEquals("rtx-4090", p.gpu().id());
    assertEquals(1, p.cards());
    assertTrue(Localizer.en(p.explanation()).contains("1872.06 output tokens/s per GPU (estimated from NVIDIA A100 80GB SXM by "
        + "memory bandwidth: TensorRT-LLM perf overview v0.17, A100-SXM4-80GB x1 (TP1), LLaMA v3.1 8B fp16, 1000/1000; "
        + "memory bandwidth 2039 GB/s on a100-80g-sxm, 1008 GB/s here)"), Localizer.en(p.explanation()));
  }

  @Test
  void gives_the_token_demand_a_month_for_the_api_comparison() {
    Inference i = read("""
        model: meta-llama/Llama-3.1-70B-Instruct
        precision: fp8
        contextTokens: 2048
        concurrentSequences: 8
        requestsPerHour: 2160
        inputTokens: 1000
        outputTokens: 500
        """);
    TokenDemand d = TokenDemand.of(i).orElseThrow();
    assertEquals("Llama-3.1-70B", d.modelId());
    assertEquals("meta-llama/Llama-3.1-70B", d.hfId());
    assertTrue(d.names().contains("meta-llama/Llama-3.1-70B-Instruct"));
    // 2160 requests an hour = 0.6 a second; x 730 h = 1,576,800 requests a month; x 1000 in / 500 out
    assertEquals(1_576_800_000, d.inputTokensPerMonth(), 1e-3);
    assertEquals(788_400_000, d.outputTokensPerMonth(), 1e-3);
  }
}
