package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.catalog.Gpu;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guide's sizing figures (sections 2.2, 2.3, 3.3 and 9), computed. */
class SizingTest {

  private static final Gpu RTX_4090 = CATALOG.resolve("rtx-4090");
  private static final Gpu A100_40G = CATALOG.resolve("a100-40g-sxm");
  private static final Gpu A100_80G = CATALOG.resolve("a100-80g-sxm");

  static Inference inference(double params, double qps, double seconds, double concurrent) {
    return new Inference("i", Optional.empty(), Optional.empty(), "rtx-4090", false, params, Precision.FP16, qps, seconds,
        concurrent, 24, 30, 0, false, 1.5);
  }

  static Job tune(double params, TuneMethod method) {
    return new Job("t", Workload.Kind.FINE_TUNE, Optional.empty(), Optional.empty(), "a100-80g-sxm", false, params, method,
        0, 100, 0, 1.5);
  }

  @Test
  void sizes_7b_fp16_inference_at_16_8_gb() {
    Sizing.VramNeed need = Sizing.vram(inference(7, 1, 2, 4));
    assertEquals(16.8, need.highGB(), 1e-9);
    assertEquals("7B x 2 B (fp16) x 1.2 = 16.8 GB", dev.gpurent.text.Localizer.en(need.formula()));
    assertEquals("7B x 2 B（fp16）x 1.2 = 16.8 GB", dev.gpurent.text.Localizer.text(need.formula(), dev.gpurent.text.Lang.ZH));
  }

  @Test
  void puts_16_8_gb_at_the_edge_of_a_16_gib_card() {
    Gpu v100 = CATALOG.resolve("v100-16g");
    assertEquals(1, Sizing.cardsForMemory(16.8, v100));
    assertEquals(16.8 / 17.179869184, 16.8 / v100.memoryGB(), 1e-9);
  }

  @Test
  void sizes_7b_lora_at_28_to_42_gb_and_full_at_112_to_140() {
    Sizing.VramNeed lora = Sizing.vram(tune(7, TuneMethod.LORA));
    assertEquals(28, lora.lowGB(), 1e-9);
    assertEquals(42, lora.highGB(), 1e-9);
    Sizing.VramNeed full = Sizing.vram(tune(7, TuneMethod.FULL));
    assertEquals(112, full.lowGB(), 1e-9);
    assertEquals(140, full.highGB(), 1e-9);
  }

  @Test
  void needs_one_a100_40g_or_two_4090s_for_7b_lora() {
    assertEquals(1, Sizing.cardsForMemory(42, A100_40G));
    assertEquals(2, Sizing.cardsForMemory(42, RTX_4090));
    assertEquals(2, Sizing.cardsForMemory(140, A100_80G));
  }

  @Test
  void needs_five_a100_80g_for_70b_lora_not_two() {
    Sizing.VramNeed need = Sizing.vram(tune(70, TuneMethod.LORA));
    assertEquals(280, need.lowGB(), 1e-9);
    assertEquals(420, need.highGB(), 1e-9);
    assertEquals(4, Sizing.cardsForMemory(need.lowGB(), A100_80G));
    assertEquals(5, Sizing.cardsForMemory(need.highGB(), A100_80G));
  }

  @Test
  void gives_2_qps_per_card_and_13_cards_for_20_qps_with_headroom() {
    Inference i = inference(7, 20, 2, 4);
    assertEquals(2.0, Sizing.referenceQpsPerCard(i), 1e-9);
    assertEquals(10, Sizing.cardsForQps(20, 2, 0));
    assertEquals(13, Sizing.cardsForQps(20, 2, 0.3));
    assertEquals(13, Fit.of(i, RTX_4090, RTX_4090, 0.3).cards());
  }

  @Test
  void speeds_two_pcie_4090s_up_1_5x_and_two_nvlinked_a100s_1_9x() {
    assertEquals(1.5, RTX_4090.interconnect().speedup(2), 1e-9);
    assertEquals(1.9, A100_40G.interconnect().speedup(2), 1e-9);
    assertEquals(1.0, RTX_4090.interconnect().speedup(1), 1e-9);
    assertEquals(4 * 0.75 * 0.75, RTX_4090.interconnect().speedup(4), 1e-9);
  }

  @Test
  void scales_llm_decoding_by_bandwidth_and_image_models_by_tflops() {
    Gpu l40s = CATALOG.resolve("l40s");
    assertEquals(l40s.bandwidthGBs() / RTX_4090.bandwidthGBs(), Sizing.relativeSpeed(l40s, 1, RTX_4090, 1, false), 1e-9);
    assertEquals(l40s.fp16Tflops() / RTX_4090.fp16Tflops(), Sizing.relativeSpeed(l40s, 1, RTX_4090, 1, true), 1e-9);
  }

  @Test
  void turns_reference_hours_into_billed_hours_on_two_pcie_cards() {
    Job lora = new Job("t", Workload.Kind.FINE_TUNE, Optional.empty(), Optional.empty(), "rtx-4090", false, 7,
        TuneMethod.LORA, 0, 150, 0, 1.5);
    Fit onTwo4090 = Fit.of(lora, RTX_4090, RTX_4090, 0.3);
    assertEquals(2, onTwo4090.cards());
    // Measured on the reference (two 4090s): 150 card-hours = 75 h wall-clock, unchanged here.
    assertEquals(75, onTwo4090.wallHours(2), 1e-9);
  }
}
