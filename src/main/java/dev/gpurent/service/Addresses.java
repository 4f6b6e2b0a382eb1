package dev.gpurent.service;

/**
 * Every event-bus address, in one place. Bodies are JSON except where noted: a QuoteBook travels
 * by reference with {@link LocalCodec} (it is immutable and can hold 100,000 quotes; clustered
 * nodes fetch their own quotes rather than receive books).
 */
public final class Addresses {

  private Addresses() {}

  /** Publish. Body: the new {@code QuoteBook} (local codec), after any change of quotes or freshness. */
  public static final String QUOTES_CHANGED = "gpurent.quotes.changed";

  /** Request-reply. Body: anything. Reply: the current {@code QuoteBook} (local codec). */
  public static final String QUOTES_BOOK = "gpurent.quotes.book";

  /** Request-reply. Body: anything. Reply: JSON array of vendor statuses (last success, last error, counts, breaker). */
  public static final String QUOTES_STATUS = "gpurent.quotes.status";

  /**
   * Request-reply. Body: {@code {"vendor": id}} or {@code {}} for every vendor. Refreshes now and
   * replies, once every refresh asked for has settled, with JSON {@code {"refreshed": [...], "failed": {...}}}.
   */
  public static final String QUOTES_REFRESH = "gpurent.quotes.refresh";
}
