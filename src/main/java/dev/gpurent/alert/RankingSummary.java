package dev.gpurent.alert;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What alert rules look at in a ranking: each plan's vendor, monthly total, whether its prices
 * are dated and whether it is complete, in the ranking's order, and the ranking's currency and
 * quote time. Only numbers, ids and
 * booleans are read, never texts (those are rendered per language elsewhere).
 *
 * @param quotesAt the ranking's {@code quotesAt} (the quote book it was ranked on), or null
 */
public record RankingSummary(String currency, String quotesAt, List<Plan> plans, List<Api> apis) {

  /**
   * One inference workload's cheapest per-token API against the GPUs #1 rents for it (the
   * ranking's {@code apis}); only workloads with both sides are kept.
   */
  public record Api(String workload, String provider, BigDecimal monthly, BigDecimal rented, String vendor) {

    public boolean cheaper() {
      return monthly.compareTo(rented) < 0;
    }
  }

  /** A summary without API comparisons. */
  public RankingSummary(String currency, String quotesAt, List<Plan> plans) {
    this(currency, quotesAt, plans, List.of());
  }

  /**
   * One vendor's plan.
   *
   * @param complete every line at the vendor's own stated price: only such a plan can be #1 while one exists
   */
  public record Plan(String vendor, BigDecimal monthlyTotal, boolean dated, boolean complete) {

    /** A complete plan. */
    public Plan(String vendor, BigDecimal monthlyTotal, boolean dated) {
      this(vendor, monthlyTotal, dated, true);
    }
  }

  public RankingSummary {
    plans = List.copyOf(plans);
    apis = List.copyOf(apis);
  }

  /**
   * The summary of a ranking as it travels on the bus (its {@code ranking} object, as nested maps
   * and lists).
   *
   * @throws IllegalArgumentException when it lacks what the rules read
   */
  public static RankingSummary of(Map<String, ?> ranking) {
    if (!(ranking.get("plans") instanceof List<?> raw)) throw new IllegalArgumentException("a ranking without plans");
    List<Plan> plans = new ArrayList<>();
    for (Object o : raw) {
      if (!(o instanceof Map<?, ?> p) || !(p.get("vendor") instanceof String vendor) || p.get("monthlyTotal") == null) {
        throw new IllegalArgumentException("a plan without vendor or monthlyTotal");
      }
      plans.add(new Plan(vendor, new BigDecimal(String.valueOf(p.get("monthlyTotal"))), Boolean.TRUE.equals(p.get("dated")),
          !Boolean.FALSE.equals(p.get("complete"))));
    }
    Object at = ranking.get("quotesAt");
    return new RankingSummary(String.valueOf(ranking.get("currency")), at == null ? null : String.valueOf(at), plans, apis(ranking));
  }

  /** Each comparison's cheapest API that carries its workload, with #1's rented cost; none when the ranking has no {@code apis}. */
  private static List<Api> apis(Map<String, ?> ranking) {
    List<Api> out = new ArrayList<>();
    if (!(ranking.get("apis") instanceof List<?> raw)) return out;
    for (Object o : raw) {
      if (!(o instanceof Map<?, ?> c) || !(c.get("cheapest") instanceof String provider) || c.get("rented") == null
          || !(c.get("options") instanceof List<?> options)) continue;
      for (Object x : options) {
        if (x instanceof Map<?, ?> opt && provider.equals(opt.get("provider")) && Boolean.TRUE.equals(opt.get("carries"))) {
          out.add(new Api(String.valueOf(c.get("workload")), provider, new BigDecimal(String.valueOf(opt.get("monthly"))),
              new BigDecimal(String.valueOf(c.get("rented"))), String.valueOf(c.get("rentedAt"))));
          break;
        }
      }
    }
    return out;
  }

  /** The first workload whose cheapest API costs less than renting its GPUs at #1, if any. */
  public Optional<Api> cheaperApi() {
    return apis.stream().filter(Api::cheaper).findFirst();
  }

  /**
   * The #1 plan, if any vendor can carry the scenario: the first complete plan (the ranking puts
   * them first, cheapest first), or the first plan when none is complete.
   */
  public Optional<Plan> best() {
    return plans.stream().filter(Plan::complete).findFirst().or(() -> plans.stream().findFirst());
  }

  /** The plan of a vendor, if it has one in this ranking. */
  public Optional<Plan> plan(String vendor) {
    return plans.stream().filter(p -> p.vendor().equals(vendor)).findFirst();
  }
}
