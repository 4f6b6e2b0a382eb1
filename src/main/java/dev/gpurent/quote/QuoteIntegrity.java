package dev.gpurent.quote;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a freshly fetched payload before it may replace a vendor's last good quotes. A payload
 * with any impossible quote is refused whole: a vendor that starts sending zeros or garbage must
 * not silently lose half its offers, or be priced at zero. A quote that is merely too cheap to be
 * true can only be told against the other vendors' prices, so {@link MarketPlausibility} judges it
 * where the whole book is built.
 */
public final class QuoteIntegrity {

  /** More GPUs than this in one offer is a parsing error, not a machine. */
  public static final int MAX_GPUS_PER_OFFER = 64;

  private QuoteIntegrity() {}

  /** Above this share of spot quotes priced over on-demand, the payload itself is suspect (swapped columns). */
  public static final double MAX_SPOT_ABOVE_ON_DEMAND = 0.05;

  /**
   * What a rejected row says when the source itself withdrew that quote (a quote sheet past its
   * valid-until date): one such row per quote, followed by the first day it no longer holds. These
   * are not offers lost to a bad payload, so they do not count against the half-gone rule.
   */
  public static final String EXPIRED_MARK = ": quote expired on ";

  /**
   * What a check decided: refused with the reason, or accepted, possibly with a few quotes dropped
   * (each recorded in the payload's rejected rows).
   */
  public record Verdict(Optional<String> refusal, VendorQuotes accepted) {}

  /**
   * Checks a payload before it may replace {@code previous}. Refused whole: no usable quote, any
   * price at or below zero, an unknown GPU, an absurd GPU count, more than half the offers gone
   * (not counting quotes the source withdrew as expired, see {@link #EXPIRED_MARK}), or spot above on-demand on more than 5% of spot quotes. A few spot prices above on-demand (real
   * feeds have them, in one zone or another) are dropped, with the reason.
   *
   * @param knownGpus canonical GPU ids of the catalog
   * @param previous  the vendor's last good quotes, if any
   */
  public static Verdict check(VendorQuotes fresh, Set<String> knownGpus, VendorQuotes previous) {
    List<Quote> quotes = fresh.quotes();
    if (quotes.isEmpty()) {
      String why = fresh.rejected().isEmpty() ? "" : "; first rejected row: " + fresh.rejected().get(0);
      return refuse("the payload holds no usable quote (" + fresh.rejected().size() + " rows rejected" + why + ")");
    }
    Map<String, Quote> onDemand = new HashMap<>();
    for (Quote q : quotes) {
      if (!q.price().isPositive()) return refuse(q.offerId() + " in " + q.region() + " is priced at " + q.price() + ": prices must be > 0");
      if (!knownGpus.contains(q.gpuId())) return refuse(q.offerId() + " names unknown GPU '" + q.gpuId() + "'");
      if (!(q.gpuCount() > 0) || q.gpuCount() > MAX_GPUS_PER_OFFER) {
        return refuse(q.offerId() + " claims " + q.gpuCount() + " GPUs: counts must be in (0, " + MAX_GPUS_PER_OFFER + "]");
      }
      if (q.billing() == Billing.ON_DEMAND && q.unit() == PriceUnit.HOUR) onDemand.put(offer(q), q);
    }
    List<Quote> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    int spot = 0;
    for (Quote q : quotes) {
      if (q.billing() == Billing.SPOT) spot++;
      Quote od = q.billing() == Billing.SPOT && q.unit() == PriceUnit.HOUR ? onDemand.get(offer(q)) : null;
      if (od != null && od.price().currency().equals(q.price().currency()) && q.price().compareTo(od.price()) > 0) {
        dropped.add(q.offerId() + " in " + q.region() + ": spot " + q.price() + " is above on-demand " + od.price() + ", dropped");
      } else {
        kept.add(q);
      }
    }
    if (dropped.size() > MAX_SPOT_ABOVE_ON_DEMAND * spot) {
      return refuse(dropped.size() + " of " + spot + " spot prices are above on-demand (first: " + dropped.get(0) + ")");
    }
    long withdrawn = fresh.rejected().stream().filter(r -> r.contains(EXPIRED_MARK)).count();
    if (previous != null && (kept.size() + withdrawn) * 2 < previous.quotes().size()) {
      return refuse("the payload holds " + kept.size() + " quotes where the last good one held "
          + previous.quotes().size() + ": refusing to drop more than half of a vendor's offers at once");
    }
    if (dropped.isEmpty()) return new Verdict(Optional.empty(), fresh);
    List<String> rejected = new ArrayList<>(fresh.rejected());
    rejected.addAll(dropped);
    return new Verdict(Optional.empty(), fresh.withQuotes(kept, rejected));
  }

  private static Verdict refuse(String why) {
    return new Verdict(Optional.of(why), null);
  }

  private static String offer(Quote q) {
    return q.region() + '|' + q.offerId();
  }
}
