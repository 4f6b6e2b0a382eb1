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
 */
public record VendorQuotes(String vendor, String displayName, VendorTerms terms, List<Quote> quotes,
                           List<String> rejected, Instant fetchedAt, String note) {

  public VendorQuotes {
    quotes = List.copyOf(quotes);
    rejected = List.copyOf(rejected);
    note = note == null ? "" : note;
  }

  /** The same payload stamped with another fetch time (the pipeline's clock, not the adapter's). */
  public VendorQuotes withFetchedAt(Instant at) {
    return new VendorQuotes(vendor, displayName, terms, quotes, rejected, at, note);
  }
}
