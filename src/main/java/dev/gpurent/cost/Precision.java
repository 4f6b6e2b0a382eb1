package dev.gpurent.cost;

import java.util.Locale;

/** Numeric precision of model weights, with the bytes one parameter takes. */
public enum Precision {
  FP32(4), BF16(2), FP16(2), FP8(1), INT8(1), INT4(0.5);

  private final double bytesPerParam;

  Precision(double bytesPerParam) {
    this.bytesPerParam = bytesPerParam;
  }

  public double bytesPerParam() {
    return bytesPerParam;
  }

  public static Precision parse(String field, String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(field, "unknown precision '" + s + "'; known: fp32, bf16, fp16, fp8, int8, int4");
    }
  }

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
