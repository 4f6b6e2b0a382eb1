package dev.gpurent.quote;

import java.time.Duration;

/**
 * How old a vendor's quotes are. Fresh quotes came from the last refresh; stale ones survived a
 * failed refresh and still rank; expired ones are past the hard limit and leave the ranking. A
 * fresh quote whose source states no price date is {@link #UNDATED}: the fetch says when it was
 * read, not how old the price is.
 */
public record Freshness(State state, Duration age) {

  public enum State { FRESH, STALE, EXPIRED }

  public static Freshness fresh() {
    return new Freshness(State.FRESH, Duration.ZERO);
  }

  public boolean rankable() {
    return state != State.EXPIRED;
  }

  /** What a fresh quote whose source states no price date is called: never "fresh", whose fetch time is no price's date. */
  public static final String UNDATED = "undated";

  /** The word for one quote of this vendor: {@link #UNDATED} for a fresh one without a price date, else this word. */
  public String of(Quote q) {
    return state == State.FRESH && q.undated() ? UNDATED : toString();
  }

  @Override
  public String toString() {
    return state == State.FRESH ? "fresh" : state.name().toLowerCase() + " (" + age.toMinutes() + " min old)";
  }
}
