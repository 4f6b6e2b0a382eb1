package dev.gpurent.store;

/** The snapshot asked for does not exist (never written, or deleted by retention). */
public final class NoSuchSnapshotException extends RuntimeException {

  public NoSuchSnapshotException(String message) {
    super(message);
  }
}
