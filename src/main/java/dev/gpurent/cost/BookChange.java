package dev.gpurent.cost;

import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.util.HashSet;
import java.util.Set;

/**
 * What differs between two books, as far as a ranking can tell: the vendors whose quotes, terms
 * or freshness changed (or that came or went), whether something every vendor's plan depends on
 * changed (FX rates, spot interruption rates), and whether the list of vendors without quotes did.
 * Worked out once per pair of books and shared by every live scenario moving between them.
 *
 * @param vendors     vendors to price again
 * @param bookWide    FX or spot rates changed: every vendor must be priced again
 * @param unavailable the book's vendors without quotes (and why) changed
 */
record BookChange(QuoteBook from, QuoteBook to, Set<String> vendors, boolean bookWide, boolean unavailable) {

  /** The last pair worked out: every live scenario moves from the same book to the same next one. */
  private static volatile BookChange last;

  static BookChange between(QuoteBook from, QuoteBook to) {
    BookChange kept = last;
    if (kept != null && kept.from == from && kept.to == to) return kept;
    Set<String> changed = new HashSet<>();
    for (var e : from.vendors().entrySet()) {
      QuoteBook.Entry next = to.vendors().get(e.getKey());
      if (next == null || !same(e.getValue(), next)) changed.add(e.getKey());
    }
    for (String v : to.vendors().keySet()) {
      if (!from.vendors().containsKey(v)) changed.add(v);
    }
    // A plan shows its vendor's display name with the id when another vendor shares it: a vendor that
    // came, went or was renamed changes how every vendor of its name (old or new) is shown.
    Set<String> names = new HashSet<>();
    for (String v : changed) {
      QuoteBook.Entry a = from.vendors().get(v), b = to.vendors().get(v);
      if (a != null) names.add(a.quotes().displayName());
      if (b != null) names.add(b.quotes().displayName());
    }
    for (var e : to.vendors().entrySet()) {
      if (names.contains(e.getValue().quotes().displayName())) changed.add(e.getKey());
    }
    boolean wide = from.fx() != to.fx() || from.spotRisk().orElse(null) != to.spotRisk().orElse(null);
    BookChange c = new BookChange(from, to, Set.copyOf(changed), wide, !from.unavailable().equals(to.unavailable()));
    last = c;
    return c;
  }

  /** The same quotes (the same payload, or an equal one) at the same freshness, as a plan shows it. */
  private static boolean same(QuoteBook.Entry a, QuoteBook.Entry b) {
    if (a == b) return true;
    Freshness fa = a.freshness(), fb = b.freshness();
    return fa.state() == fb.state() && fa.toString().equals(fb.toString())
        && (a.quotes() == b.quotes() || samePayload(a.quotes(), b.quotes()));
  }

  /**
   * Equal but for when they were fetched and each quote observed: the same payload fetched again.
   * No plan shows those times (its freshness says how old the quotes are, compared above), and an
   * identical refresh publishes no book, so the next book carries the vendor refetched: a live
   * ranking must not price it again for that.
   */
  private static boolean samePayload(VendorQuotes a, VendorQuotes b) {
    if (a.equals(b)) return true;
    if (!a.vendor().equals(b.vendor()) || !a.displayName().equals(b.displayName()) || !a.terms().equals(b.terms())
        || !a.note().equals(b.note()) || a.reference() != b.reference() || !a.rejected().equals(b.rejected())
        || a.quotes().size() != b.quotes().size()) {
      return false;
    }
    for (int i = 0; i < a.quotes().size(); i++) {
      Quote x = a.quotes().get(i), y = b.quotes().get(i);
      if (!x.equals(y) && !x.withObservedAt(y.observedAt()).equals(y)) return false;
    }
    return true;
  }
}
