package dev.gpurent.catalog;

import java.util.List;

/**
 * One GPU model from {@code config/gpus.yaml}, with the datasheet figures the cost engine
 * scales by.
 *
 * @param id             canonical id, lowercase with dashes (e.g. {@code a100-80g-sxm})
 * @param name           display name
 * @param memoryGiB      card memory in GiB (a "40G" card has 40 GiB)
 * @param bandwidthGBs   memory bandwidth in GB/s; LLM decoding speed scales with it
 * @param fp16Tflops     dense FP16/BF16 tensor TFLOPS (no sparsity); compute-bound work scales with it
 * @param interconnect   card-to-card link within one machine
 * @param aliases        names vendors use for this card
 * @param maker          who makes the chip: nvidia, amd, intel
 * @param computeCapability NVIDIA CUDA compute capability (8.0 for the A100), 0 for cards without CUDA
 */
public record Gpu(String id, String name, double memoryGiB, double bandwidthGBs, double fp16Tflops,
                  Interconnect interconnect, List<String> aliases, String maker, double computeCapability) {

  private static final double BYTES_PER_GIB = 1024.0 * 1024 * 1024;

  public Gpu {
    aliases = List.copyOf(aliases);
    maker = maker == null || maker.isBlank() ? makerOf(name) : maker;
  }

  /** A card whose maker is read from its name and whose compute capability is not stated. */
  public Gpu(String id, String name, double memoryGiB, double bandwidthGBs, double fp16Tflops, Interconnect interconnect,
             List<String> aliases) {
    this(id, name, memoryGiB, bandwidthGBs, fp16Tflops, interconnect, aliases, null, 0);
  }

  /** "NVIDIA Tesla T4" -> nvidia, "AMD Instinct MI300X" -> amd: the first word of the display name. */
  static String makerOf(String name) {
    int space = name.indexOf(' ');
    return (space < 0 ? name : name.substring(0, space)).toLowerCase(java.util.Locale.ROOT);
  }

  /** Card memory in GB (10^9 bytes), the unit of the guide's VRAM estimates. */
  public double memoryGB() {
    return memoryGiB * BYTES_PER_GIB / 1e9;
  }
}
