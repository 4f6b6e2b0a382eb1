package dev.gpurent.quote;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Whether an offer can be rented now, as its source states it: most sources state nothing
 * ({@link #UNKNOWN}); some say it is available, sometimes with how many (a feed's
 * {@code available_count}); some say it is not (Vast's {@code rentable: false}, Tencent's
 * {@code SOLD_OUT}, Alibaba's {@code WithoutStock}). The engine never picks an unavailable offer.
 *
 * @param state what the source says
 * @param count how many the source says are free, or null when it gives no count (only when available)
 * @param said  the source's own words ("rentable: false", "SOLD_OUT"), shown with the state; "" when unknown
 */
public record Stock(State state, Integer count, String said) {

  /** What a source says about an offer's availability. */
  public enum State {
    UNKNOWN, AVAILABLE, UNAVAILABLE;

    /** The name used in JSON ("unknown", "available", "unavailable"). */
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static State parse(String s) {
      for (State st : values()) {
        if (st.wire().equals(s)) return st;
      }
      throw new IllegalArgumentException("unknown stock state '" + s + "'; known: unknown, available, unavailable");
    }
  }

  /** The source says nothing about availability: the default for every quote. */
  public static final Stock UNKNOWN = new Stock(State.UNKNOWN, null, "");

  public Stock {
    Objects.requireNonNull(state, "state");
    said = said == null ? "" : said;
    if (count != null && (state != State.AVAILABLE || count < 0)) {
      throw new IllegalArgumentException("a stock count (" + count + ") needs an available state and no sign");
    }
  }

  /** Available, with the count the source states (null for none). */
  public static Stock available(Integer count, String said) {
    return new Stock(State.AVAILABLE, count, said);
  }

  /** Not rentable now, in the source's words. */
  public static Stock unavailable(String said) {
    return new Stock(State.UNAVAILABLE, null, said);
  }

  public boolean isUnavailable() {
    return state == State.UNAVAILABLE;
  }

  public boolean isAvailable() {
    return state == State.AVAILABLE;
  }

  public boolean isKnown() {
    return state != State.UNKNOWN;
  }

  /** {@code {"state": "available", "count": 3, "said": "available_count=3"}}: count only when stated, said only when not empty. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("state", state.wire());
    if (count != null) m.put("count", count);
    if (!said.isEmpty()) m.put("said", said);
    return m;
  }
}
