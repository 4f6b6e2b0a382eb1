package dev.gpurent.catalog;

/** A vendor or user spelling that no card in the catalog answers to. */
public final class UnknownGpuException extends RuntimeException {
  private final String spelling;
  private final transient java.util.List<String> nearest;

  public UnknownGpuException(String spelling, String message) {
    this(spelling, message, java.util.List.of());
  }

  /** With the ids of the cards the spelling comes nearest to (the message's "did you mean"), for an edge that says it anew. */
  public UnknownGpuException(String spelling, String message, java.util.List<String> nearest) {
    super(message);
    this.spelling = spelling;
    this.nearest = java.util.List.copyOf(nearest);
  }

  public java.util.List<String> nearest() {
    return nearest;
  }

  public String spelling() {
    return spelling;
  }
}
