package dev.gpurent.quote;

import java.time.Duration;

/**
 * How old a vendor's quotes are. Fresh quotes came from the last refresh; stale ones survived a
 * failed refresh and still rank; expired ones are past the hard limit and leave the ranking.
 */
public record Freshness(State state, Duration age) {

  public enum State { FRESH, STALE, EXPIRED }

  public static Freshness fresh() {
    return new Freshness(State.FRESH, Duration.ZERO);
  }

  public boolean rankable() {
    return state != State.EXPIRED;
  }

  @Override
  public String toString() {
    return state == State.FRESH ? "fresh" : state.name().toLowerCase() + " (" + age.toMinutes() + " min old)";
  }
}
