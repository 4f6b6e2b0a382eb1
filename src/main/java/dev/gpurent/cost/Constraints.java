package dev.gpurent.cost;

import java.util.List;
import java.util.Locale;

/**
 * What a buyer rules out before anything is priced: vendors, regions (by region id, ISO country
 * code or continent), GPU makers and CUDA compute capability; whether only complete plans may
 * rank; and whether the reference price sheet is ranked as if it were a vendor. Offers left
 * out are counted in the ranking, never silently dropped.
 *
 * @param vendors              vendor ids to keep only, or to exclude
 * @param regions              region ids, country codes ("RU") or continents ("europe")
 * @param gpuMakers            makers allowed ("nvidia"); empty for any
 * @param minComputeCapability lowest CUDA compute capability allowed (8.0); 0 for any
 * @param requireComplete      rank only plans that need no fallback provider
 * @param includeReference     rank the reference sheet (the guide's prices) like a vendor
 * @param inStock              only offers whose source states they are available now (an offer its source
 *                             says is unavailable is never picked, whatever this says)
 */
public record Constraints(Filter vendors, Filter regions, List<String> gpuMakers, double minComputeCapability,
                          boolean requireComplete, boolean includeReference, boolean inStock) {

  public static final Constraints NONE = new Constraints(Filter.NONE, Filter.NONE, List.of(), 0, false, false);

  /** Constraints that take offers of unstated stock too. */
  public Constraints(Filter vendors, Filter regions, List<String> gpuMakers, double minComputeCapability, boolean requireComplete,
                     boolean includeReference) {
    this(vendors, regions, gpuMakers, minComputeCapability, requireComplete, includeReference, false);
  }

  public Constraints {
    gpuMakers = gpuMakers.stream().map(m -> m.toLowerCase(Locale.ROOT)).toList();
  }

  public Constraints withIncludeReference(boolean include) {
    return new Constraints(vendors, regions, gpuMakers, minComputeCapability, requireComplete, include, inStock);
  }

  /**
   * Names to keep only (empty: all) and names to leave out; compared case-insensitively.
   */
  public record Filter(List<String> only, List<String> exclude) {
    public static final Filter NONE = new Filter(List.of(), List.of());

    public Filter {
      only = only.stream().map(String::trim).toList();
      exclude = exclude.stream().map(String::trim).toList();
    }

    public boolean isEmpty() {
      return only.isEmpty() && exclude.isEmpty();
    }

    /** Whether anything named by {@code names} (a region's id, country, continent) passes. */
    public boolean admits(String... names) {
      for (String e : exclude) for (String n : names) if (!n.isEmpty() && n.equalsIgnoreCase(e)) return false;
      if (only.isEmpty()) return true;
      for (String o : only) for (String n : names) if (!n.isEmpty() && n.equalsIgnoreCase(o)) return true;
      return false;
    }
  }
}
