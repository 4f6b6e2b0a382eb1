package dev.gpurent.quote;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a freshly fetched payload before it may replace a vendor's last good quotes. A payload
 * with any impossible quote is refused whole: a vendor that starts sending zeros or garbage must
 * not silently lose half its offers, or be priced at zero.
 */
public final class QuoteIntegrity {

  /** More GPUs than this in one offer is a parsing error, not a machine. */
  public static final int MAX_GPUS_PER_OFFER = 64;

  private QuoteIntegrity() {}

  /**
   * The first problem found, or empty when the payload may replace {@code previous}.
   *
   * @param knownGpus canonical GPU ids of the catalog
   * @param previous  the vendor's last good quotes, if any
   */
  public static Optional<String> problem(VendorQuotes fresh, Set<String> knownGpus, VendorQuotes previous) {
    List<Quote> quotes = fresh.quotes();
    if (quotes.isEmpty()) {
      String why = fresh.rejected().isEmpty() ? "" : "; first rejected row: " + fresh.rejected().get(0);
      return Optional.of("the payload holds no usable quote (" + fresh.rejected().size() + " rows rejected" + why + ")");
    }
    Map<String, Quote> onDemand = new HashMap<>();
    for (Quote q : quotes) {
      if (!q.price().isPositive()) return Optional.of(q.offerId() + " in " + q.region() + " is priced at " + q.price() + ": prices must be > 0");
      if (!knownGpus.contains(q.gpuId())) return Optional.of(q.offerId() + " names unknown GPU '" + q.gpuId() + "'");
      if (!(q.gpuCount() > 0) || q.gpuCount() > MAX_GPUS_PER_OFFER) {
        return Optional.of(q.offerId() + " claims " + q.gpuCount() + " GPUs: counts must be in (0, " + MAX_GPUS_PER_OFFER + "]");
      }
      if (q.billing() == Billing.ON_DEMAND && q.unit() == PriceUnit.HOUR) onDemand.put(offer(q), q);
    }
    for (Quote q : quotes) {
      if (q.billing() != Billing.SPOT || q.unit() != PriceUnit.HOUR) continue;
      Quote od = onDemand.get(offer(q));
      if (od != null && od.price().currency().equals(q.price().currency()) && q.price().compareTo(od.price()) > 0) {
        return Optional.of(q.offerId() + " in " + q.region() + ": spot " + q.price() + " is above on-demand " + od.price());
      }
    }
    if (previous != null && quotes.size() * 2 < previous.quotes().size()) {
      return Optional.of("the payload holds " + quotes.size() + " quotes where the last good one held "
          + previous.quotes().size() + ": refusing to drop more than half of a vendor's offers at once");
    }
    return Optional.empty();
  }

  private static String offer(Quote q) {
    return q.region() + '|' + q.offerId();
  }
}
