package dev.gpurent.store;

/** The snapshot store cannot be used (a corrupt or unreadable file, a database that will not open): history is off, ranking is not. */
public final class StoreUnavailableException extends RuntimeException {
  public StoreUnavailableException(String message) {
    super(message, null, false, false);
  }
}
