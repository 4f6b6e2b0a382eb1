package dev.gpurent.alert;

import dev.gpurent.config.WireNames;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * One alert rule of a live scenario, as read by {@link AlertRules}: when it fires and where it
 * is sent.
 *
 * @param index     its place in the scenario's {@code alerts} list (part of every event's key)
 * @param when      what it watches
 * @param percent   for {@link Kind#TOTAL_MOVED_PERCENT}: the move, in percent, that fires it
 * @param amount    for {@link Kind#TOTAL_BELOW}: the monthly total, in the scenario's currency
 * @param vendor    for {@link Kind#VENDOR_DATED} and {@link Kind#VENDOR_UNAVAILABLE}: the vendor id
 * @param to        the webhook
 */
public record AlertRule(int index, Kind when, Optional<BigDecimal> percent, Optional<BigDecimal> amount,
                        Optional<String> vendor, Target to) {

  /** What a rule watches; its wire name is what {@code when} says. */
  public enum Kind {
    /** The #1 vendor changes (from one vendor to another, to none, or back from none). */
    WINNER_CHANGED(false),
    /** The best plan's monthly total moves by more than {@code percent} from one ranking to the next. */
    TOTAL_MOVED_PERCENT(false),
    /** The best plan's monthly total goes below {@code amount}. */
    TOTAL_BELOW(true),
    /** The vendor's plan starts resting on dated prices. */
    VENDOR_DATED(true),
    /** The vendor stops having a plan in the ranking (unavailable, expired or left out). */
    VENDOR_UNAVAILABLE(true),
    /** Some inference workload's cheapest per-token API costs less a month than the GPUs #1 rents for it. */
    API_CHEAPER(true);

    private final boolean state;

    Kind(boolean state) {
      this.state = state;
    }

    public String wire() {
      return WireNames.camel(this);
    }

    /**
     * Whether the rule watches a state (fires on entering it, and on a scenario's first ranking
     * when it is in it already) rather than a change between two rankings (needs a previous one).
     */
    public boolean state() {
      return state;
    }

    static Kind parse(String wire) {
      return WireNames.find(values(), Kind::wire, wire);
    }
  }

  /**
   * Where a rule's events go.
   *
   * @param secret the signing secret of a Feishu or DingTalk bot; never logged or answered
   */
  public record Target(Channel channel, String url, Optional<String> secret) {
    @Override
    public String toString() {
      return channel.wire() + " webhook";
    }
  }
}
