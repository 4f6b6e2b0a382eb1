package dev.gpurent.cost;

import dev.gpurent.quote.Money;
import java.util.Optional;

/**
 * A one-time move of data into the chosen vendor (guide 6.2), spread over the horizon.
 *
 * @param gb                 data to move
 * @param sourceEgressPerGb  what the source charges per GB to send it out
 * @param fromVendor         vendor the data sits at now, if any: moving to it costs nothing
 * @param bandwidthMbps      the bandwidth the copy gets, Mbit/s; 0 for the source vendor's stated one, else
 *                           {@link #DEFAULT_MBPS}
 */
public record Migration(double gb, Money sourceEgressPerGb, Optional<String> fromVendor, double bandwidthMbps) {

  /** A copy over an ordinary 100 Mbit/s business line, when neither the scenario nor the source says. */
  public static final double DEFAULT_MBPS = 100;

  public Migration(double gb, Money sourceEgressPerGb, Optional<String> fromVendor) {
    this(gb, sourceEgressPerGb, fromVendor, 0);
  }

  /** Days the copy takes at {@code mbps}: 5,000 GB at 100 Mbit/s is 4.63 days. */
  public static double transferDays(double gb, double mbps) {
    return gb * 8000 / mbps / 86400;
  }
}
