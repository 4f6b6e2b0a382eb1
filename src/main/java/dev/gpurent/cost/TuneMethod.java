package dev.gpurent.cost;

import dev.gpurent.config.WireNames;
import java.util.Locale;

/**
 * How a model is tuned, with the guide's VRAM need per parameter (2.2) as a range.
 * QLoRA is ours: 4-bit base weights (0.5 B/param) plus adapters, their optimizer state and
 * activations; Dettmers et al. (2023) fine-tuned a 65B model on one 48 GB card, about
 * 0.74 B/param, so we take 0.7 to 1.0 B/param.
 */
public enum TuneMethod {
  FULL(16, 20), LORA(4, 6), QLORA(0.7, 1.0);

  private final double lowBytesPerParam;
  private final double highBytesPerParam;

  TuneMethod(double low, double high) {
    this.lowBytesPerParam = low;
    this.highBytesPerParam = high;
  }

  public double lowBytesPerParam() {
    return lowBytesPerParam;
  }

  public double highBytesPerParam() {
    return highBytesPerParam;
  }

  public static TuneMethod parse(String field, String s) {
    TuneMethod m = WireNames.find(values(), TuneMethod::wire, s.trim().toLowerCase(Locale.ROOT));
    if (m == null) throw new InvalidInputException(field, "unknown method '" + s + "'; known: " + WireNames.known(values(), TuneMethod::wire));
    return m;
  }

  public String wire() {
    return WireNames.camel(this);
  }
}
