package dev.gpurent.catalog;

/** A vendor or user spelling that no card in the catalog answers to. */
public final class UnknownGpuException extends RuntimeException {
  private final String spelling;

  public UnknownGpuException(String spelling, String message) {
    super(message);
    this.spelling = spelling;
  }

  public String spelling() {
    return spelling;
  }
}
