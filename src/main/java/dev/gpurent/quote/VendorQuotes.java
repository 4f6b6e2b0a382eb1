package dev.gpurent.quote;

import java.time.Instant;
import java.util.List;

/**
 * Everything one vendor's adapter produced in one fetch: its offers and its other terms.
 *
 * @param vendor      vendor id
 * @param displayName what a person reads
 * @param terms       storage, egress, load balancer and discount terms
 * @param quotes      the accepted quotes
 * @param rejected    rows the adapter refused, each with its reason (for status pages)
 * @param fetchedAt   when the fetch finished
 * @param note        a caveat shown with every plan at this vendor ("reference prices, not a real vendor"), or ""
 * @param reference   a reference price sheet, not a vendor: never ranked unless a scenario asks for it
 */
public record VendorQuotes(String vendor, String displayName, VendorTerms terms, List<Quote> quotes,
                           List<String> rejected, Instant fetchedAt, String note, boolean reference) {

  public VendorQuotes {
    quotes = List.copyOf(quotes);
    rejected = List.copyOf(rejected);
    note = note == null ? "" : note;
  }

  /** A real vendor's payload. */
  public VendorQuotes(String vendor, String displayName, VendorTerms terms, List<Quote> quotes, List<String> rejected,
                      Instant fetchedAt, String note) {
    this(vendor, displayName, terms, quotes, rejected, fetchedAt, note, false);
  }

  /** The same payload stamped with another fetch time (the pipeline's clock, not the adapter's). */
  public VendorQuotes withFetchedAt(Instant at) {
    return new VendorQuotes(vendor, displayName, terms, quotes, rejected, at, note, reference);
  }

  /** The same payload, marked as a reference sheet or a vendor as its definition says. */
  public VendorQuotes withReference(boolean isReference) {
    return isReference == reference ? this
        : new VendorQuotes(vendor, displayName, terms, quotes, rejected, fetchedAt, note, isReference);
  }

  /**
   * Whether {@code other} says what this payload says: the same terms, names, notes, refused rows
   * and offers at the same prices, whenever each was fetched (a refresh that found nothing new).
   */
  public boolean samePrices(VendorQuotes other) {
    if (this == other) return true;
    if (!vendor.equals(other.vendor) || !displayName.equals(other.displayName) || !terms.equals(other.terms)
        || !note.equals(other.note) || reference != other.reference || !rejected.equals(other.rejected)
        || quotes.size() != other.quotes.size()) {
      return false;
    }
    for (int i = 0; i < quotes.size(); i++) {
      if (!quotes.get(i).sameOffer(other.quotes.get(i))) return false;
    }
    return true;
  }

  /** The same payload with other quotes (and the rows rejected on the way). */
  public VendorQuotes withQuotes(List<Quote> kept, List<String> allRejected) {
    return new VendorQuotes(vendor, displayName, terms, kept, allRejected, fetchedAt, note, reference);
  }
}
