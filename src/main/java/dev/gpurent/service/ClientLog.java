package dev.gpurent.service;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Log lines about what clients do wrong: bad input, wrong admin tokens. One line each, never a
 * stack trace, and of each kind at most {@value #PER_MINUTE} a minute; the rest are counted and
 * the count is logged with the next line let through. A client sending garbage (or guessing
 * tokens) in a loop must not be able to fill the disk.
 */
public final class ClientLog {

  static final int PER_MINUTE = 20;
  private static final Logger LOG = Logger.getLogger("dev.gpurent.client");
  private static final Window BAD_INPUT = new Window();
  private static final Window ADMIN = new Window();

  private ClientLog() {}

  public static void bad(String what) {
    BAD_INPUT.log(Level.INFO, "bad client input: " + what);
  }

  /** A wrong or missing admin token (the token itself is never logged). */
  public static void adminRefused(String what) {
    ADMIN.log(Level.WARNING, "admin token refused: " + what);
  }

  /** One kind of line's minute: how many went out, how many were held back. */
  private static final class Window {
    private long start;
    private int lines;
    private long suppressed;

    synchronized void log(Level level, String text) {
      long now = System.nanoTime();
      if (now - start > 60_000_000_000L) {
        start = now;
        lines = 0;
      }
      if (++lines > PER_MINUTE) {
        suppressed++;
        return;
      }
      String line = text.replace('\n', ' ') + (suppressed > 0 ? " (" + suppressed + " similar lines suppressed)" : "");
      suppressed = 0;
      LOG.log(level, line);
    }
  }
}
