package dev.gpurent.quote;

import dev.gpurent.config.WireNames;
import java.util.Locale;

/**
 * How an offer is billed. Pay-as-you-go modes ({@link #ON_DEMAND}, {@link #SPOT}) charge for
 * hours used; commitments charge for every hour of their term whether used or not.
 */
public enum Billing {
  ON_DEMAND("on-demand", 0),
  SPOT("spot", 0),
  MONTHLY("monthly", 1),
  THREE_MONTHS("3-month", 3),
  SIX_MONTHS("6-month", 6),
  YEARLY("yearly", 12),
  THREE_YEARS("3-year", 36);

  private final String wire;
  private final int commitmentMonths;

  Billing(String wire, int commitmentMonths) {
    this.wire = wire;
    this.commitmentMonths = commitmentMonths;
  }

  /** The name used in YAML, JSON and on the command line. */
  public String wire() {
    return wire;
  }

  /** Months paid for at once; 0 for pay-as-you-go. */
  public int commitmentMonths() {
    return commitmentMonths;
  }

  public boolean isCommitment() {
    return commitmentMonths > 0;
  }

  public static Billing parse(String s) {
    String k = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    Billing b = WireNames.find(values(), Billing::wire, k);
    if (b != null) return b;
    switch (k) {
      case "ondemand", "hourly", "pay-as-you-go" -> { return ON_DEMAND; }
      case "preemptible", "interruptible" -> { return SPOT; }
      case "1-year", "reserved-1y", "annual" -> { return YEARLY; }
      case "reserved-3y", "3-years" -> { return THREE_YEARS; }
      default -> throw new IllegalArgumentException("unknown billing mode '" + s + "'; known: "
          + WireNames.known(values(), Billing::wire));
    }
  }

  @Override
  public String toString() {
    return wire;
  }
}
