package dev.gpurent.adapter;

import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A provider's prices in a second file of the feed held against its own file's: where both sell
 * the same card, count and billing mode and their cheapest prices per hour differ by more than the
 * tolerance, the second file's offer is refused for this vendor with both figures, so a status page
 * shows the disagreement. The vendor's own file wins: it is the provider's API or price page, the
 * second (getdeploying) a listing of it; agreeing offers and offers only one side sells are not
 * reported.
 */
final class FeedCrossCheck {

  private FeedCrossCheck() {}

  /** The tolerance when the vendor file names none: a tenth of the lower price. */
  static final double TOLERANCE = 0.10;

  /** {@code own} with the disagreements of {@code other} (read from {@code otherOrigin}) added to its refused rows. */
  static VendorQuotes judge(VendorQuotes own, List<Quote> other, String otherOrigin, double tolerance) {
    Map<String, Quote> mine = cheapest(own.quotes()), theirs = cheapest(other);
    List<String> rejected = new ArrayList<>(own.rejected());
    theirs.forEach((key, q) -> {
      Quote m = mine.get(key);
      if (m == null) return;
      double a = perHour(m), b = perHour(q);
      double apart = Math.abs(a - b) / Math.min(a, b);
      if (apart <= tolerance) return;
      rejected.add("cross-check " + otherOrigin + " (" + q.offerId() + ", " + q.gpuId() + " x" + FeedCards.fmt(q.gpuCount()) + " "
          + q.billing().wire() + "): " + FeedCards.fmt(b) + "/h there against " + FeedCards.fmt(a) + "/h here ("
          + m.offerId() + "), " + Math.round(apart * 100) + "% apart, beyond the tolerance of " + Math.round(tolerance * 100)
          + "%: this vendor's own file is kept");
    });
    return own.withQuotes(own.quotes(), rejected);
  }

  private static Map<String, Quote> cheapest(List<Quote> quotes) {
    Map<String, Quote> out = new TreeMap<>();
    for (Quote q : quotes) {
      out.merge(q.gpuId() + "|" + q.gpuCount() + "|" + q.billing().wire(), q, (x, y) -> perHour(x) <= perHour(y) ? x : y);
    }
    return out;
  }

  private static double perHour(Quote q) {
    return q.price().amount().doubleValue() / q.unit().hoursValue();
  }
}
