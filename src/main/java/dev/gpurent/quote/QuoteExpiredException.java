package dev.gpurent.quote;

import java.time.LocalDate;

/**
 * A source that says its own prices are no longer valid: every offer of a quote sheet is past its
 * valid-until date. Unlike a failed fetch, this is not a reason to keep the last good quotes: the
 * vendor leaves the ranking, with this message as the reason.
 */
public final class QuoteExpiredException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final LocalDate validUntil;

  /** @param validUntil the latest valid-until date of the source's offers */
  public QuoteExpiredException(LocalDate validUntil) {
    super("quote expired on " + validUntil.plusDays(1) + " (valid until " + validUntil + ")");
    this.validUntil = validUntil;
  }

  public LocalDate validUntil() {
    return validUntil;
  }

  /** The message of the first QuoteExpiredException in {@code t}'s causes, or null. */
  public static String find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof QuoteExpiredException e) return e.getMessage();
      if (c.getCause() == c) break;
    }
    return null;
  }
}
