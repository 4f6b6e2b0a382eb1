package dev.gpurent.service;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Log lines about bad client input: one line each, never a stack trace, and at most
 * {@value #PER_MINUTE} a minute; the rest are counted and the count is logged with the next line
 * let through. A client sending garbage in a loop must not be able to fill the disk.
 */
final class ClientLog {

  static final int PER_MINUTE = 20;
  private static final Logger LOG = Logger.getLogger("dev.gpurent.client");
  private static long windowStart;
  private static int inWindow;
  private static long suppressed;

  private ClientLog() {}

  static synchronized void bad(String what) {
    long now = System.nanoTime();
    if (now - windowStart > 60_000_000_000L) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > PER_MINUTE) {
      suppressed++;
      return;
    }
    String line = "bad client input: " + what.replace('\n', ' ')
        + (suppressed > 0 ? " (" + suppressed + " similar lines suppressed)" : "");
    suppressed = 0;
    LOG.log(Level.INFO, line);
  }
}
