package dev.gpurent.cost;

/** Input that cannot be used, naming the field (a dotted path such as {@code workloads[1].peakQps}) and why. */
public final class InvalidInputException extends RuntimeException {
  private final String field;
  private final String reason;

  public InvalidInputException(String field, String reason) {
    super(field + ": " + reason);
    this.field = field;
    this.reason = reason;
  }

  public String field() {
    return field;
  }

  public String reason() {
    return reason;
  }
}
