package dev.gpurent.catalog;

/** A model name that no entry of the model catalog answers to; the message names the closest known ones. */
public final class UnknownModelException extends RuntimeException {

  public UnknownModelException(String message) {
    super(message);
  }
}
