package dev.gpurent.cli;

/** The exit status of every command: Main and the commands share it without importing each other. */
public final class ExitCodes {

  public static final int DONE = 0;
  public static final int FAILED = 1;
  public static final int BAD_INPUT = 2;

  private ExitCodes() {}
}
