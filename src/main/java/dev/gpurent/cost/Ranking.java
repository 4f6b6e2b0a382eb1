package dev.gpurent.cost;

import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Every vendor's cheapest plan in two groups: first the complete plans (every line at the vendor's
 * own stated price: one can sign them as they stand), cheapest first, then the incomplete ones
 * (a line priced by a fallback provider or at a typical figure), cheapest first, each cheaper one
 * with the prices its missing services may be quoted at to take #1 ({@link WinsAt#services}). #1,
 * the first plan, is thus the cheapest complete plan; only when no plan is complete is it an
 * incomplete one. Ties on the monthly total (to the cent) go to the vendor id in alphabetical
 * order, so the same inputs always give the same order.
 *
 * @param mix          the mixed plan ({@link #mixed}) and why there is none ({@link #mixedNote}), worked
 *                     out when first read
 * @param unavailable  vendors that cannot carry the whole scenario, each with the reason
 * @param reference    the reference sheet's plan (the guide's prices), shown beside the ranking, never in it
 * @param excluded     quotes the scenario's filters left out, by rule (vendor, region, gpuMaker, computeCapability, inStock)
 * @param skipped      offers that would have been picked but whose source says they cannot be rented now, cheapest first
 * @param apis         rent or call an API: for each inference workload whose model an API sells per token, the APIs' prices against #1
 */
public record Ranking(String scenario, String currency, int horizonMonths, List<VendorPlan> plans, Mix mix,
                      List<Unavailable> unavailable, Instant quotesAt, Optional<VendorPlan> reference, Map<String, Integer> excluded,
                      List<Skipped> skipped, List<ApiComparison> apis) {

  public static final String EXCLUDED_VENDOR = "vendor", EXCLUDED_REGION = "region", EXCLUDED_MAKER = "gpuMaker",
      EXCLUDED_COMPUTE_CAPABILITY = "computeCapability", EXCLUDED_IN_STOCK = "inStock";

  public Ranking {
    plans = plans instanceof RankedPlans ? plans : List.copyOf(plans);  // built as read, never modified
    unavailable = List.copyOf(unavailable);
    excluded = excluded.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(excluded));
    skipped = List.copyOf(skipped);
    apis = List.copyOf(apis);
  }

  /** A ranking with its mixed plan (or why there is none) already worked out. */
  public Ranking(String scenario, String currency, int horizonMonths, List<VendorPlan> plans, Optional<MixedPlan> mixed,
                 Message mixedNote, List<Unavailable> unavailable, Instant quotesAt, Optional<VendorPlan> reference,
                 Map<String, Integer> excluded, List<Skipped> skipped, List<ApiComparison> apis) {
    this(scenario, currency, horizonMonths, plans, Mix.of(mixed, mixedNote), unavailable, quotesAt, reference, excluded, skipped, apis);
  }

  /** A ranking with no offer skipped for want of stock and no API comparison. */
  public Ranking(String scenario, String currency, int horizonMonths, List<VendorPlan> plans, Optional<MixedPlan> mixed,
                 Message mixedNote, List<Unavailable> unavailable, Instant quotesAt, Optional<VendorPlan> reference,
                 Map<String, Integer> excluded) {
    this(scenario, currency, horizonMonths, plans, mixed, mixedNote, unavailable, quotesAt, reference, excluded, List.of(), List.of());
  }

  /**
   * "#1 costs 12% less than the guide's reference": the best plan against the reference sheet's, or
   * {@link Words#EMPTY} when either is missing.
   */
  public Message referenceNote() {
    if (reference.isEmpty() || plans.isEmpty()) return Words.EMPTY;
    java.math.BigDecimal ref = reference.get().monthlyTotal().amount();
    if (ref.signum() <= 0) return Words.EMPTY;
    java.math.BigDecimal best = standing(0).monthlyTotal().amount();
    long pct = Math.round(Math.abs(1 - best.doubleValue() / ref.doubleValue()) * 100);
    int cmp = best.compareTo(ref);
    return cmp == 0 ? Words.of("reference.same")
        : Words.of(cmp < 0 ? "reference.less" : "reference.more", "pct", pct, "total", reference.get().monthlyTotal().cents());
  }

  /**
   * Each workload at its cheapest vendor, with data moved between them; present only when it
   * differs from the best single vendor.
   */
  public Optional<MixedPlan> mixed() {
    return mix.get().plan;
  }

  /** Why there is no mixed plan ("no mix of vendors beats #1 x"); {@link Words#EMPTY} when there is one. */
  public Message mixedNote() {
    return mix.get().note;
  }

  /**
   * The mixed plan and why there is none, worked out once, when first read: a one-off ranking's
   * reader may never ask. Thread-safe; equal when what they work out is.
   */
  public static final class Mix {

    private Supplier<Mix> source;
    private Optional<MixedPlan> plan;
    private Message note;

    private Mix(Optional<MixedPlan> plan, Message note, Supplier<Mix> source) {
      this.plan = plan;
      this.note = note;
      this.source = source;
    }

    /** What is already known. */
    static Mix of(Optional<MixedPlan> plan, Message note) {
      return new Mix(java.util.Objects.requireNonNull(plan), java.util.Objects.requireNonNull(note), null);
    }

    /** What {@code source} works out when first asked. */
    static Mix later(Supplier<Mix> source) {
      return new Mix(null, null, source);
    }

    private synchronized Mix get() {
      if (source != null) {
        Mix m = source.get();
        plan = m.plan;
        note = m.note;
        source = null;
      }
      return this;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Mix m && get().plan.equals(m.get().plan) && note.equals(m.note);
    }

    @Override
    public int hashCode() {
      return get().plan.hashCode() * 31 + note.hashCode();
    }

    @Override
    public String toString() {
      return get().plan + ", " + note;
    }
  }

  /**
   * What a plan ranks by, as alerts and summaries read it, without its bill: a live ranking gives
   * the very same object for a plan it kept from one book to the next (its readers may tell a kept
   * plan by identity).
   *
   * @param complete every line at the vendor's own stated price
   * @param dated    its prices are older than the allowed age
   */
  public record Standing(String vendor, dev.gpurent.quote.Money monthlyTotal, boolean complete, boolean dated) {

    public static Standing of(VendorPlan p) {
      return new Standing(p.vendor(), p.monthlyTotal(), p.complete(), p.dated());
    }
  }

  /** Plan i's standing, read off its draft when the plan is not built. */
  public Standing standing(int i) {
    return plans instanceof RankedPlans r ? r.draft(i).standing() : Standing.of(plans.get(i));
  }

  /** Whether {@code vendor} has a plan here (read off the standings: nothing is built or copied). */
  public boolean hasPlan(String vendor) {
    for (int i = 0; i < plans.size(); i++) {
      if (standing(i).vendor().equals(vendor)) return true;
    }
    return false;
  }

  /** Every plan's standing, in the ranking's order. */
  public List<Standing> standings() {
    List<Standing> out = new java.util.ArrayList<>(plans.size());
    for (int i = 0; i < plans.size(); i++) out.add(standing(i));
    return out;
  }

  /** A vendor left out, and why. */
  public record Unavailable(String vendor, Message reason) {}

  /** #1: the cheapest complete plan (the cheapest plan of all when none is complete). */
  public Optional<VendorPlan> best() {
    return plans.isEmpty() ? Optional.empty() : Optional.of(plans.get(0));
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", scenario);
    m.put("currency", currency);
    m.put("horizonMonths", horizonMonths);
    m.put("quotesAt", quotesAt == null ? null : quotesAt.toString());
    m.put("plans", plans.stream().map(VendorPlan::toMap).toList());
    m.put("mixed", mixed().map(MixedPlan::toMap).orElse(null));
    m.put("mixedNote", Localizer.neutral(mixedNote()));
    m.put("reference", reference.map(VendorPlan::toMap).orElse(null));
    m.put("referenceNote", Localizer.neutral(referenceNote()));
    m.put("excluded", new LinkedHashMap<>(excluded));
    // Ordered keys (Map.of's order changes from one JVM to the next): the same ranking encodes to the same text.
    m.put("unavailable", unavailable.stream().map(u -> {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("vendor", u.vendor());
      one.put("reason", Localizer.neutral(u.reason()));
      return one;
    }).toList());
    m.put("skipped", skipped.stream().map(Skipped::toMap).toList());
    m.put("apis", apis.stream().map(ApiComparison::toMap).toList());
    return m;
  }
}
