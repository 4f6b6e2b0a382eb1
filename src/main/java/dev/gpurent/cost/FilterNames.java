package dev.gpurent.cost;

import dev.gpurent.catalog.Regions;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names a scenario's filters may use, so that a name that names nothing is bad input (a 400
 * naming the field and the value, exit 2 on the command line) rather than a filter that silently
 * leaves no offer: vendor ids configured (with quotes or not), GPU makers of the catalog, and for
 * regions every region a quote of the book is in, every ISO 3166 country code and the six
 * continents. Compared case-insensitively, as {@link Constraints.Filter} compares them.
 *
 * @param vendors vendor ids, lower case, sorted (as the reasons list them)
 * @param regions region ids of the book, country codes and continents, lower case
 * @param makers  makers of the catalog's cards, lower case
 */
public record FilterNames(Set<String> vendors, Set<String> regions, Set<String> makers) {

  /** The names known to a book (its vendors, available or not, and its quotes' regions) and to the catalog's makers. */
  public static FilterNames of(QuoteBook book, Collection<String> makers) {
    Set<String> vendors = new TreeSet<>();
    book.vendors().keySet().forEach(v -> vendors.add(lower(v)));
    book.unavailable().keySet().forEach(v -> vendors.add(lower(v)));
    Set<String> regions = new TreeSet<>(Regions.CONTINENTS);
    Regions.countries().forEach(c -> regions.add(lower(c)));
    for (QuoteBook.Entry e : book.vendors().values()) {
      for (Quote q : e.quotes().quotes()) {
        if (!q.region().isEmpty()) regions.add(lower(q.region()));
      }
    }
    Set<String> m = new TreeSet<>();
    makers.forEach(x -> m.add(lower(x)));
    return new FilterNames(java.util.Collections.unmodifiableSet(vendors), java.util.Collections.unmodifiableSet(regions),
        java.util.Collections.unmodifiableSet(m));
  }

  /** The scenario's own filters that name nothing, each under its field ({@code regions.only[0]}). */
  public List<InvalidInputException.Problem> problems(Constraints c) {
    List<InvalidInputException.Problem> out = new ArrayList<>();
    out.addAll(vendors("vendors.only", c.vendors().only()));
    out.addAll(vendors("vendors.exclude", c.vendors().exclude()));
    out.addAll(regions("regions.only", c.regions().only()));
    out.addAll(regions("regions.exclude", c.regions().exclude()));
    out.addAll(makers("gpuMakers", c.gpuMakers()));
    return out;
  }

  /** The vendor ids of {@code values} that are not configured, under {@code field[i]}. */
  public List<InvalidInputException.Problem> vendors(String field, List<String> values) {
    return unknown(field, values, vendors, "vendor", "known: " + String.join(", ", vendors));
  }

  /** The regions of {@code values} that are no region quoted, country code or continent, under {@code field[i]}. */
  public List<InvalidInputException.Problem> regions(String field, List<String> values) {
    return unknown(field, values, regions, "region",
        "not a region any vendor quotes, an ISO country code (US, DE) or a continent (" + String.join(", ", Regions.CONTINENTS) + ")");
  }

  /** The makers of {@code values} that make no card of the catalog, under {@code field[i]}. */
  public List<InvalidInputException.Problem> makers(String field, List<String> values) {
    return unknown(field, values, makers, "maker", "known: " + String.join(", ", makers));
  }

  private static List<InvalidInputException.Problem> unknown(String field, List<String> values, Set<String> known, String what,
                                                             String hint) {
    List<InvalidInputException.Problem> out = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String v = values.get(i).trim();
      if (!known.contains(lower(v))) {
        String shown = v.length() > 64 ? v.substring(0, 64) + "..." : v;
        out.add(new InvalidInputException.Problem(field + "[" + i + "]", "unknown " + what + " '" + shown + "': " + hint));
      }
    }
    return out;
  }

  private static String lower(String s) {
    return s.trim().toLowerCase(Locale.ROOT);
  }
}
