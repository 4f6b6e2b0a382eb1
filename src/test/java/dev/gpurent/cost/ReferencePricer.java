package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.Regions;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quote.ServicePrice.Service;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plain, obviously right pricer the fast scan is held to: every quote of every vendor priced
 * whole in BigDecimal, the placement rules written out once more, the cheapest kept by the
 * documented order (cents, then fewer cards, then smaller machines, then billing mode, then the
 * offer key). Slow on purpose; it shares only the sizing ({@link Fit}) and FX conversion with
 * the engine. An offer its source says is unavailable is never a winner (nor, under
 * {@code inStock}, one whose source states no stock); the cheapest such offer below a workload's
 * winner, in quote order on a tie, is listed as skipped.
 */
final class ReferencePricer {

  /** A vendor's winning quote per workload and its whole monthly total, to the cent. */
  record Plan(List<Quote> winners, BigDecimal monthlyTotal, boolean complete) {}

  private static final MathContext MC = MathContext.DECIMAL128;
  private static final BigDecimal MONTH_HOURS = BigDecimal.valueOf(730);

  private final GpuCatalog catalog;
  private final RankingRules rules;

  ReferencePricer(GpuCatalog catalog, RankingRules rules) {
    this.catalog = catalog;
    this.rules = rules;
  }

  /** Every vendor that can carry the whole scenario under its constraints, with its plan. */
  Map<String, Plan> price(Scenario s, QuoteBook book) {
    return price(s, book, new ArrayList<>());
  }

  /** The same, adding to {@code skipped} "vendor|workload|quote key" of each offer left out for want of stock that would have won. */
  Map<String, Plan> price(Scenario s, QuoteBook book, List<String> skipped) {
    Map<String, Plan> out = new LinkedHashMap<>();
    Constraints c = s.constraints();
    for (QuoteBook.Entry e : book.vendors().values()) {
      String vendor = e.quotes().vendor();
      if (e.quotes().reference() && !c.includeReference()) continue;
      if (!c.vendors().admits(vendor) || !e.freshness().rankable()) continue;
      List<Quote> winners = new ArrayList<>();
      BigDecimal total = BigDecimal.ZERO;
      boolean carried = true;
      for (Workload w : s.workloads()) {
        List<Priced> all = e.quotes().quotes().stream()
            .map(q -> priced(s, w, q, e.quotes().terms().discount(), book))
            .flatMap(Optional::stream).toList();
        Optional<Priced> best = all.stream().filter(p -> rentable(s, p.quote()))
            .min(Comparator.comparing(Priced::cents).thenComparing(Priced::cards).thenComparing(Priced::perInstance)
                .thenComparing(p -> p.quote().billing().ordinal()).thenComparing(p -> p.quote().key()));
        all.stream().filter(p -> p.quote().stock().isUnavailable())
            .filter(p -> best.isEmpty() || p.cents().compareTo(best.get().cents()) < 0)
            .min(Comparator.comparing(Priced::cents))
            .ifPresent(p -> skipped.add(vendor + '|' + w.name() + '|' + p.quote().key()));
        if (best.isEmpty() || !carried) {
          carried = false;
          continue;
        }
        winners.add(best.get().quote());
        total = total.add(best.get().cents());
      }
      if (!carried) continue;
      Data data = data(s, vendor, e.quotes().terms(), book);
      if (data == null || (c.requireComplete() && !data.complete())) continue;
      out.put(vendor, new Plan(winners, total.add(data.total()), data.complete()));
    }
    return out;
  }

  private record Priced(Quote quote, BigDecimal cents, int cards, double perInstance) {}

  /** Whether an offer may be picked: not stated unavailable, and stated available when the scenario asks for stock. */
  private static boolean rentable(Scenario s, Quote q) {
    return !q.stock().isUnavailable() && (!s.constraints().inStock() || q.stock().isAvailable());
  }

  /** One quote for one workload, priced whole; empty when it cannot carry it or is filtered out. */
  private Optional<Priced> priced(Scenario s, Workload w, Quote q, BigDecimal discount, QuoteBook book) {
    Constraints c = s.constraints();
    Gpu gpu = catalog.byId(q.gpuId()).orElse(null);
    if (gpu == null) return Optional.empty();
    if (!c.regions().admits(q.region(), q.country(), Regions.continentOf(q.country()).orElse(""))) return Optional.empty();
    if (!c.gpuMakers().isEmpty() && !c.gpuMakers().contains(gpu.maker())) return Optional.empty();
    if (gpu.computeCapability() < c.minComputeCapability()) return Optional.empty();
    if (w.gpu().isPresent() && !w.gpu().get().equals(q.gpuId())) return Optional.empty();
    if (w.vendor().isPresent() && !w.vendor().get().equals(q.vendor())) return Optional.empty();
    if (q.billing() == Billing.SPOT && !w.interruptible()) return Optional.empty();
    if (q.gpuCount() < 1 || q.gpuCount() != Math.rint(q.gpuCount())) return Optional.empty();
    Fit fit = Fit.of(w, gpu, catalog.byId(w.referenceGpu()).orElseThrow(), s.headroom());
    if (!fit.ok()) return Optional.empty();
    int per = (int) q.gpuCount();
    int instances;
    double hours;
    if (w instanceof Inference inf) {
      int copyCards = fit.cardsPerCopy();
      if (per >= copyCards) {
        int copiesPerMachine = per / copyCards;
        int copies = fit.cards() / copyCards;
        instances = (copies + copiesPerMachine - 1) / copiesPerMachine;
      } else if (w.allowMultiNode()) {
        int machines = (copyCards + per - 1) / per;
        double share = Placements.NETWORK.speedup(machines) / machines;
        instances = Sizing.cardsForQps(inf.peakQps(), fit.qpsPerCopy() * share, s.headroom()) * machines;
      } else {
        return Optional.empty();
      }
      hours = Math.min(inf.hoursPerDay() * inf.daysPerMonth(), 730);
    } else {
      int machines = per >= fit.cards() ? 1 : (fit.cards() + per - 1) / per;
      if (machines > 1 && !w.allowMultiNode()) return Optional.empty();
      hours = wall(fit, per, machines);
      while (hours > 730 + 1e-9 && w.allowMultiNode() && machines < 64) hours = wall(fit, per, ++machines);
      if (hours > 730 + 1e-9) return Optional.empty();
      instances = machines;
    }
    BigDecimal paid;
    BigDecimal used = BigDecimal.valueOf(hours);
    if (q.billing().isCommitment()) {
      int term = q.billing().commitmentMonths();
      int terms = (s.horizonMonths() + term - 1) / term;
      paid = MONTH_HOURS.multiply(BigDecimal.valueOf((long) term * terms)).divide(BigDecimal.valueOf(s.horizonMonths()), MC);
    } else if (q.billing() == Billing.SPOT) {
      double overhead = book.interruptionRate(q).isPresent()
          ? BillingPlanner.spotOverhead(book.interruptionRate(q).getAsDouble(), w.restartOverheadHours())
          : BillingPlanner.SPOT_RESTART_OVERHEAD;
      paid = used.multiply(BigDecimal.ONE.add(BigDecimal.valueOf(overhead)), MC);
    } else {
      paid = used;
    }
    Money unit;
    try {
      unit = book.fx().convert(q.price(), s.currency()).money().times(discount);
    } catch (IllegalArgumentException noRate) {
      return Optional.empty();
    }
    BigDecimal cost = unit.amount().multiply(BigDecimal.valueOf(instances)).multiply(paid, MC)
        .divide(q.unit().hours(), MC);
    return Optional.of(new Priced(q, cost.setScale(2, RoundingMode.HALF_UP), instances * per, q.gpuCount()));
  }

  private static double wall(Fit fit, int per, int machines) {
    double one = fit.wallHours(per);
    return machines == 1 ? one : one / Placements.NETWORK.speedup(machines);
  }

  private record Data(BigDecimal total, boolean complete) {}

  /** Storage, egress, load balancers and migration at the vendor, each a price or its fallback; null when unpriceable. */
  private Data data(Scenario s, String vendor, VendorTerms t, QuoteBook book) {
    FxRates fx = book.fx();
    BigDecimal total = BigDecimal.ZERO;
    boolean complete = true;
    try {
      if (s.storedGb() > 0) {
        Money p = unit(t, Service.OBJECT_STORAGE);
        if (p == null) return null;
        complete &= t.storagePerGbMonth().isStated();
        total = total.add(cents(fx.convert(p, s.currency()).money().amount().multiply(BigDecimal.valueOf(s.storedGb()))));
      }
      if (s.billedEgressGb() > 0) {
        BigDecimal gb = BigDecimal.valueOf(s.billedEgressGb());
        Money cost;
        if (t.egress().isPriced()) {
          complete &= !t.egress().typical();
          cost = Money.zero(t.currency());
          BigDecimal done = BigDecimal.ZERO;
          for (VendorTerms.EgressTier tier : t.egressTiers()) {
            BigDecimal end = tier.upToGb() == null ? gb : tier.upToGb().min(gb);
            if (end.compareTo(done) > 0) cost = cost.plus(tier.perGb().times(end.subtract(done)));
            done = done.max(end);
          }
        } else {
          Money p = unit(t, Service.EGRESS);
          if (p == null) return null;
          complete = false;
          cost = p.times(gb);
        }
        total = total.add(cents(fx.convert(cost, s.currency()).money().amount()));
      }
      if (s.loadBalancers() > 0) {
        Money p = unit(t, Service.LOAD_BALANCER);
        if (p == null) return null;
        complete &= t.loadBalancerPerMonth().isStated();
        total = total.add(cents(fx.convert(p, s.currency()).money().amount().multiply(BigDecimal.valueOf(s.loadBalancers()))));
      }
      if (s.migration().isPresent() && !s.migration().get().fromVendor().map(vendor::equals).orElse(false)) {
        Migration m = s.migration().get();
        Money p = unit(t, Service.INGRESS);
        if (p == null) return null;
        complete &= t.ingressPerGb().isStated();
        BigDecimal perGb = m.sourceEgressPerGb().amount().add(fx.convert(p, s.currency()).money().amount());
        if (t.migrationInPerGb().isPriced()) perGb = perGb.add(fx.convert(t.migrationInPerGb().price(), s.currency()).money().amount());
        Optional<VendorTerms> source = m.fromVendor().flatMap(v -> Optional.ofNullable(book.vendors().get(v))).map(e -> e.quotes().terms());
        if (source.isPresent() && source.get().migrationOutPerGb().isPriced()) {
          perGb = perGb.add(fx.convert(source.get().migrationOutPerGb().price(), s.currency()).money().amount());
        }
        total = total.add(cents(perGb.multiply(BigDecimal.valueOf(m.gb())).divide(BigDecimal.valueOf(s.horizonMonths()), MC)));
      }
    } catch (IllegalArgumentException noRate) {
      return null;
    }
    return new Data(total, complete);
  }

  private Money unit(VendorTerms t, Service service) {
    ServicePrice p = t.of(service);
    if (p.isPriced()) return p.price();
    return rules.fallback(service).map(RankingRules.Fallback::price).orElse(null);
  }

  private static BigDecimal cents(BigDecimal amount) {
    return amount.setScale(2, RoundingMode.HALF_UP);
  }
}
