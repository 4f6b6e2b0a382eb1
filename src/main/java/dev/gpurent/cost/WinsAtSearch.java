package dev.gpurent.cost;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a plan below #1 would need to take it: the GPU discount that wins, or, for an incomplete
 * plan already cheaper than a complete #1, the prices its missing services may be quoted at. Each
 * answer is the bill priced again line by line and rounded as the bill is, so it holds to the cent.
 */
final class WinsAtSearch {

  private final Scenario s;
  private final FxRates fx;
  private final RankingRules rules;
  private final OfferScan scan;
  private final DataLines data;

  WinsAtSearch(Scenario s, FxRates fx, RankingRules rules, OfferScan scan, DataLines data) {
    this.s = s;
    this.fx = fx;
    this.rules = rules;
    this.scan = scan;
    this.data = data;
  }

  /**
   * What it would take {@code plan} to take #1 from {@code best}: for an incomplete plan that already
   * costs less than a complete #1, the prices its missing services may be quoted at
   * ({@link #winsIfQuoted}); for any other, the GPU discount ({@link #winsAtDiscount}).
   */
  WinsAt winsAt(VendorPlan plan, Picks[] picks, VendorTerms terms, Ranking.Standing best) {
    boolean winsTies = plan.vendor().compareTo(best.vendor()) < 0;
    if (!plan.complete() && best.complete() && beats(plan.monthlyTotal(), best.monthlyTotal(), winsTies)) {
      return winsIfQuoted(plan, terms, best);
    }
    return winsAtDiscount(plan, picks, terms, best);
  }

  /**
   * The largest negotiated discount on {@code plan}'s GPU list prices (4 decimals) at which it takes
   * #1 from {@code best}: a uniform factor keeps the same winning offers, so only their lines move.
   * Ties on the total go to the lower vendor id, as in the ranking.
   */
  private WinsAt winsAtDiscount(VendorPlan plan, Picks[] picks, VendorTerms terms, Ranking.Standing best) {
    Money target = best.monthlyTotal();
    boolean winsTies = plan.vendor().compareTo(best.vendor()) < 0;
    Money gpus = PlanBuilder.placementsTotal(plan.placements(), s.currency());
    Money others = plan.monthlyTotal().minus(gpus);
    if (!beats(others, target, winsTies)) {
      return WinsAt.never(Words.of("winsAt.others", "others", others.cents().plain(), "target", target.plain(), "vendor", best.vendor()));
    }
    BigDecimal step = new BigDecimal("0.0001");
    BigDecimal f = terms.discount().multiply(target.minus(others).amount())
        .divide(gpus.amount(), 4, java.math.RoundingMode.DOWN).add(step.multiply(BigDecimal.valueOf(2)));
    f = f.min(terms.discount());
    for (int i = 0; i < 1000 && f.signum() > 0; i++, f = f.subtract(step)) {
      VendorTerms at = terms.withDiscount(f);
      Money total = others;
      for (Picks p : picks) total = total.plus(scan.exactCost(p.best, at).cents());
      if (!beats(total, target, winsTies)) continue;
      List<WinsAt.UnitPrice> prices = new ArrayList<>();
      for (int w = 0; w < picks.length; w++) {
        Pick p = picks[w].best;
        prices.add(new WinsAt.UnitPrice(s.workloads().get(w).name(), p.fit.gpu.id(), p.fit.gpu.name(), p.quote.billing().wire(),
            scan.unitPrice(p.quote, at).round(CostModel.UNIT_PRICE_DECIMALS), p.quote.unit().wire()));
      }
      return new WinsAt(Optional.of(f), prices, Words.EMPTY);
    }
    return WinsAt.never(Words.of("winsAt.none", "target", target.plain()));
  }

  /** The largest gap factor tried, in steps of 1/10000: a plan that still wins at 1000 x its gaps' figures is capped there. */
  private static final long MAX_GAP_STEPS = 10_000_000L;

  /**
   * The highest price of each of {@code plan}'s missing services at which it still beats {@code best}:
   * one factor on the figures its gaps are billed at (fallback or typical), the largest to 4 decimals
   * at which its bill (every line priced again and rounded to the cent, as the bill is) still wins,
   * ties going to the lower vendor id as in the ranking; each price at that factor, rounded down to
   * 4 decimals, so that a quote at it still wins. The bill only grows with the factor: a binary search.
   */
  private WinsAt winsIfQuoted(VendorPlan plan, VendorTerms terms, Ranking.Standing best) {
    Money target = best.monthlyTotal();
    boolean winsTies = plan.vendor().compareTo(best.vendor()) < 0;
    Money gpus = PlanBuilder.placementsTotal(plan.placements(), s.currency());
    java.util.function.LongPredicate wins = k -> {
      Money total = gpus;
      for (LineItem l : data.withGapFactor(factor(k)).of(plan.vendor(), terms).lines()) total = total.plus(l.perMonth());
      return beats(total.cents(), target, winsTies);
    };
    long lo = 0, hi = 10_000;
    while (hi < MAX_GAP_STEPS && wins.test(hi)) {
      lo = hi;
      hi *= 2;
    }
    if (wins.test(hi)) lo = hi;
    while (hi - lo > 1) {
      long mid = (lo + hi) >>> 1;
      if (wins.test(mid)) lo = mid;
      else hi = mid;
    }
    BigDecimal f = factor(lo);
    List<WinsAt.ServiceCap> caps = new ArrayList<>();
    java.util.Set<dev.gpurent.quote.ServicePrice.Service> done = java.util.EnumSet.noneOf(dev.gpurent.quote.ServicePrice.Service.class);
    for (Gap g : plan.gaps()) {
      if (!done.add(g.service())) continue;
      Money figure = g.pricedBy() == LineItem.PricedBy.TYPICAL ? terms.of(g.service()).price()
          : rules.fallback(g.service()).orElseThrow().price();
      Money now = fx.convert(figure, s.currency()).money();
      Money atMost = new Money(now.amount().multiply(f).setScale(CostModel.UNIT_PRICE_DECIMALS, java.math.RoundingMode.DOWN),
          s.currency());
      caps.add(new WinsAt.ServiceCap(g.service().key(), g.item(), g.pricedBy().wire(), now, atMost, unitOf(g.service()), best.vendor()));
    }
    return WinsAt.ifQuoted(caps);
  }

  private static BigDecimal factor(long steps) {
    return BigDecimal.valueOf(steps, 4);
  }

  /** The unit a service is billed by, as its bill line says it. */
  private static String unitOf(dev.gpurent.quote.ServicePrice.Service service) {
    return switch (service) {
      case OBJECT_STORAGE -> "GB-month";
      case EGRESS, INGRESS -> "GB";
      case LOAD_BALANCER -> "month";
    };
  }

  private static boolean beats(Money total, Money target, boolean winsTies) {
    int c = total.compareTo(target);
    return c < 0 || (c == 0 && winsTies);
  }
}
