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
 */
public record Gpu(String id, String name, double memoryGiB, double bandwidthGBs, double fp16Tflops,
                  Interconnect interconnect, List<String> aliases) {

  private static final double BYTES_PER_GIB = 1024.0 * 1024 * 1024;

  public Gpu {
    aliases = List.copyOf(aliases);
  }

  /** Card memory in GB (10^9 bytes), the unit of the guide's VRAM estimates. */
  public double memoryGB() {
    return memoryGiB * BYTES_PER_GIB / 1e9;
  }
}
