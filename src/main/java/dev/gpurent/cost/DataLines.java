package dev.gpurent.cost;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.ServicePrice.Service;
import dev.gpurent.quote.ServicePrice;
import dev.gpurent.quote.VendorTerms;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The bill's lines besides GPUs: object storage, public bandwidth, load balancers and a data
 * migration, priced from one vendor's terms. A service the scenario needs that the vendor does
 * not sell, or whose price is unknown, is priced from its fallback provider and recorded as a
 * {@link Gap}; with no fallback configured for it the vendor cannot be priced at all
 * ({@link Unpriceable}). A service the vendor file prices at a typical figure is billed at it, and
 * recorded as a gap too. Nothing is ever billed at 0.00 for want of a price.
 *
 * <p>{@link #withGapFactor} prices every gap at a factor of its fallback or typical figure: what a
 * plan would cost if the vendor quoted its missing services at that factor ({@link PlanBuilder#winsIfQuoted}).
 */
final class DataLines {

  static final Message EGRESS_ITEM = Words.service(Service.EGRESS);
  static final Message TRANSFER_ITEM = Words.of("item.transfer");
  static final Message MIGRATION_ITEM = Words.of("item.migration");
  private static final Message STORAGE_SPEC = Words.of("spec.storage"), LB_SPEC = Words.of("spec.lb");

  /** A needed service with neither a vendor price nor a fallback: the vendor cannot carry the scenario. */
  static final class Unpriceable extends RuntimeException {
    final Message reason;

    Unpriceable(Message reason) {
      super(reason.code(), null, false, false);
      this.reason = reason;
    }
  }

  /** The lines, the gaps they carry, and what a buyer should hear of them (a migration that takes weeks). */
  record Result(List<LineItem> lines, List<Gap> gaps, List<Message> warnings) {}

  /** Days in an average month, for comparing a transfer's days with a horizon in months. */
  private static final double DAYS_PER_MONTH = 365.25 / 12;

  /** One service's unit price as billed, in the price's own currency, and whose it is. */
  private record Unit(Money price, String source, LineItem.PricedBy by, Message note, Gap gap) {}

  private final Scenario s;
  private final FxRates fx;
  private final RankingRules rules;
  /** A vendor's terms by id, for the source of a migration. */
  private final Function<String, Optional<VendorTerms>> termsOf;
  // The scenario's figures as numbers, the same at every vendor: made once per ranking.
  private final BigDecimal storedGb;
  private final BigDecimal egressGb;
  private final Message egressSpec;
  /** The factor on every gap's price: 1 for a bill, another for "what would it take". */
  private final BigDecimal gapFactor;
  private final double gapFactorValue;

  DataLines(Scenario s, FxRates fx, RankingRules rules, Function<String, Optional<VendorTerms>> termsOf) {
    this(s, fx, rules, termsOf, BigDecimal.ONE);
  }

  private DataLines(Scenario s, FxRates fx, RankingRules rules, Function<String, Optional<VendorTerms>> termsOf,
                    BigDecimal gapFactor) {
    this.gapFactor = gapFactor;
    this.gapFactorValue = gapFactor.doubleValue();
    this.s = s;
    this.fx = fx;
    this.rules = rules;
    this.termsOf = termsOf;
    storedGb = BigDecimal.valueOf(s.storedGb());
    egressGb = s.billedEgressGb() > 0 ? BigDecimal.valueOf(s.billedEgressGb()) : null;
    egressSpec = s.compressionRatio() == 1 ? Words.of("spec.egress")
        : Words.of("spec.egress.compressed", "gb", s.egressGbPerMonth(), "ratio", s.compressionRatio());
  }

  /** The same lines with every gap (fallback or typical figure) priced at {@code factor} times its figure. */
  DataLines withGapFactor(BigDecimal factor) {
    return new DataLines(s, fx, rules, termsOf, factor);
  }

  /**
   * The data lines of a plan at {@code vendor}.
   *
   * @throws Unpriceable              a needed service has no price and no fallback
   * @throws IllegalArgumentException no FX rate to the scenario's currency
   */
  Result of(String vendor, VendorTerms terms) {
    List<LineItem> lines = new ArrayList<>();
    List<Gap> gaps = new ArrayList<>();
    if (s.storedGb() > 0) {
      Unit u = unit(vendor, terms, Service.OBJECT_STORAGE, gaps);
      FxRates.Conversion c = fx.convert(u.price(), s.currency());
      lines.add(line(Words.service(Service.OBJECT_STORAGE), STORAGE_SPEC, storedGb, c.money(), "GB-month",
          c.money().times(storedGb), u, terms, c));
    }
    if (egressGb != null) lines.add(egress(vendor, terms, gaps));
    if (s.loadBalancers() > 0) {
      Unit u = unit(vendor, terms, Service.LOAD_BALANCER, gaps);
      FxRates.Conversion c = fx.convert(u.price(), s.currency());
      lines.add(line(Words.service(Service.LOAD_BALANCER), LB_SPEC,
          BigDecimal.valueOf(s.loadBalancers()), c.money(), "month", c.money().times(s.loadBalancers()), u, terms, c));
    }
    List<Message> warnings = new ArrayList<>();
    s.migration().ifPresent(m -> lines.add(migration(m, vendor, terms, gaps, warnings)));
    return new Result(lines, gaps, warnings);
  }

  /**
   * What {@link #of}'s lines come to a month in cents, each line rounded as there, with the gaps
   * they carry into {@code gaps}: what a plan is ranked by, without its lines, notes and sources
   * (a ranking prices every vendor's data lines, a reader reads a few plans). Worked out in doubles
   * ({@code factor}: a currency's FX factor to the scenario's, NaN when there is none); -1 when a
   * line falls too near a half cent for a double to say how it rounds, or cannot be converted: then
   * {@link #of} says it exactly (or why not), the gaps being the same.
   *
   * @throws Unpriceable a needed service has no price and no fallback
   */
  long cents(String vendor, VendorTerms terms, List<Gap> gaps, java.util.function.ToDoubleFunction<String> factor) {
    long total = 0;
    if (s.storedGb() > 0) {
      Money u = unit(vendor, terms, Service.OBJECT_STORAGE, gaps).price();
      total = add(total, u.toDouble() * factor.applyAsDouble(u.currency()) * s.storedGb());
    }
    if (egressGb != null) {
      double gb = s.billedEgressGb();
      if (terms.egress().isPriced()) {
        double f = 1;
        if (terms.egress().typical()) {
          typical(vendor, terms, Service.EGRESS, gaps);
          f = gapFactorValue;
        }
        double cost = 0, done = 0;
        for (VendorTerms.EgressTier tier : terms.egressTiers()) {
          if (done >= gb) break;
          if (!tier.perGb().currency().equals(terms.currency())) return -1;  // the exact sum's failure to say
          double end = tier.upToGb() == null ? gb : Math.min(tier.upToGb().doubleValue(), gb);
          if (end > done) cost += tier.perGb().toDouble() * (end - done);
          done = end;
        }
        total = add(total, cost * factor.applyAsDouble(terms.currency()) * f);
      } else {
        Money u = unit(vendor, terms, Service.EGRESS, gaps).price();
        total = add(total, u.toDouble() * factor.applyAsDouble(u.currency()) * gb);
      }
    }
    if (s.loadBalancers() > 0) {
      Money u = unit(vendor, terms, Service.LOAD_BALANCER, gaps).price();
      total = add(total, u.toDouble() * factor.applyAsDouble(u.currency()) * s.loadBalancers());
    }
    if (s.migration().isPresent()) total = add(total, migrationCents(s.migration().get(), vendor, terms, gaps, factor));
    return total;
  }

  /** {@link #migration}'s line a month, in cents as a double; 0 when the data is already at {@code vendor}. */
  private double migrationCents(Migration m, String vendor, VendorTerms terms, List<Gap> gaps,
                                java.util.function.ToDoubleFunction<String> factor) {
    if (m.fromVendor().map(vendor::equals).orElse(false)) return 0;
    Money ingress = unit(vendor, terms, Service.INGRESS, gaps).price();
    // the source's egress is added to the scenario-currency price as it is, as Money.plus does (same currency or a failure)
    if (!m.sourceEgressPerGb().currency().equals(s.currency())) return Double.NaN;
    double perGb = m.sourceEgressPerGb().toDouble() + ingress.toDouble() * factor.applyAsDouble(ingress.currency());
    Optional<VendorTerms> source = m.fromVendor().flatMap(termsOf);
    if (source.isPresent() && source.get().migrationOutPerGb().isPriced()) {
      Money out = source.get().migrationOutPerGb().price();
      perGb += out.toDouble() * factor.applyAsDouble(out.currency());
    }
    if (terms.migrationInPerGb().isPriced()) {
      Money in = terms.migrationInPerGb().price();
      perGb += in.toDouble() * factor.applyAsDouble(in.currency());
    }
    return perGb * m.gb() / s.horizonMonths();
  }

  /**
   * {@code total} plus a line of {@code amount}, rounded half up to the cent as the exact line is;
   * -1 when either is unknown, or {@code amount} lies so near a half cent that the double's error
   * (about 1e-15 of it), or the exact line's rounding at 10 places first, might round it otherwise.
   */
  private static long add(long total, double amount) {
    double c100 = amount * 100;
    if (total < 0 || !(c100 >= 0 && c100 < 1e12)) return -1;
    if (Math.abs(c100 - Math.floor(c100) - 0.5) <= 1e-6 + 1e-9 * c100) return -1;
    return total + Math.round(c100);
  }

  /** The one-time copy of the stored data from the mixed plan's home vendor to {@code to}, at the home's egress. */
  LineItem transfer(String home, VendorTerms homeTerms, String to, List<Gap> gaps) {
    Money once;
    Money perGb;
    Unit u = null;
    if (homeTerms.egress().isPriced()) {
      if (homeTerms.egress().typical()) u = typical(home, homeTerms, Service.EGRESS, gaps);
      BigDecimal f = u == null ? BigDecimal.ONE : gapFactor;
      once = fx.convert(homeTerms.egressCost(storedGb), s.currency()).money().times(f);
      perGb = fx.convert(homeTerms.egressPerGb(), s.currency()).money().times(f);
    } else {
      u = unit(home, homeTerms, Service.EGRESS, gaps);
      perGb = fx.convert(u.price(), s.currency()).money();
      once = perGb.times(storedGb);
    }
    Message note = Words.of("note.transfer", "once", once.cents().plain(), "home", home, "months", s.horizonMonths());
    return new LineItem(TRANSFER_ITEM, Words.of("spec.transfer", "from", home, "to", to), spread(storedGb),
        perGb, "GB once", once.dividedBy(BigDecimal.valueOf(s.horizonMonths())).cents(),
        u == null ? note : Words.seq(List.of(note, Words.of("note.part", "text", u.note()))), u == null ? homeTerms.source() : u.source(), "",
        u == null ? LineItem.PricedBy.VENDOR : u.by());
  }

  private LineItem egress(String vendor, VendorTerms terms, List<Gap> gaps) {
    if (terms.egress().isPriced()) {
      Unit typical = terms.egress().typical() ? typical(vendor, terms, Service.EGRESS, gaps) : null;
      BigDecimal f = typical == null ? BigDecimal.ONE : gapFactor;
      FxRates.Conversion cost = fx.convert(terms.egressCost(egressGb), s.currency());
      Money total = cost.money().times(f);
      boolean tiered = terms.egressTiers().size() > 1;
      // A tiered line shows what one GB costs on average over the bands used, so quantity x unit = the line;
      // rounded up, so that a line of exactly half a cent still rounds up.
      Money unit = tiered ? new Money(total.amount().divide(egressGb, 10, RoundingMode.CEILING), s.currency())
          : fx.convert(terms.egressPerGb(), s.currency()).money().times(f);
      Message note = tiered ? Words.of("note.tiered", "bands", terms.egressTiers().size()) : Words.EMPTY;
      if (typical != null) note = note.equals(Words.EMPTY) ? typical.note() : Words.seq(List.of(note, typical.note()));
      return new LineItem(EGRESS_ITEM, egressSpec, egressGb, unit, "GB",
          total.cents(), note, source(terms.egress(), terms), fxOf(terms.currency(), cost),
          typical == null ? LineItem.PricedBy.VENDOR : LineItem.PricedBy.TYPICAL, null);
    }
    Unit u = unit(vendor, terms, Service.EGRESS, gaps);
    FxRates.Conversion c = fx.convert(u.price(), s.currency());
    return line(EGRESS_ITEM, egressSpec, egressGb, c.money(), "GB", c.money().times(egressGb), u, terms, c);
  }

  private LineItem migration(Migration m, String vendor, VendorTerms terms, List<Gap> gaps, List<Message> warnings) {
    Object from = m.fromVendor().<Object>map(v -> v).orElse(Words.of("migration.currentSite"));
    if (m.fromVendor().map(vendor::equals).orElse(false)) {
      return new LineItem(MIGRATION_ITEM, Words.of("spec.migration.none", "vendor", vendor),
          spread(BigDecimal.valueOf(m.gb())), Money.zero(s.currency()), "GB once", Money.zero(s.currency()), Words.EMPTY, "", "");
    }
    Optional<VendorTerms> source = m.fromVendor().flatMap(termsOf);
    Unit ingress = unit(vendor, terms, Service.INGRESS, gaps);
    FxRates.Conversion c = fx.convert(ingress.price(), s.currency());
    Money perGb = m.sourceEgressPerGb().plus(c.money());
    List<Message> parts = new ArrayList<>();
    parts.add(Words.of("migration.parts", "vendor", vendor));
    // Stated fees only: an unstated migration fee is no fee, not a gap (most vendors have none).
    if (source.isPresent() && source.get().migrationOutPerGb().isPriced()) {
      perGb = perGb.plus(fx.convert(source.get().migrationOutPerGb().price(), s.currency()).money());
      parts.add(Words.of("migration.outFee", "from", from));
    }
    if (terms.migrationInPerGb().isPriced()) {
      perGb = perGb.plus(fx.convert(terms.migrationInPerGb().price(), s.currency()).money());
      parts.add(Words.of("migration.inFee", "vendor", vendor));
    }
    Money once = perGb.times(BigDecimal.valueOf(m.gb()));
    double mbps = m.bandwidthMbps() > 0 ? m.bandwidthMbps()
        : source.map(VendorTerms::bandwidthMbps).filter(b -> b > 0).orElse(Migration.DEFAULT_MBPS);
    double days = Migration.transferDays(m.gb(), mbps);
    Message time = Words.of(days == 1 ? "migration.time.day" : "migration.time.days", "gb", m.gb(), "mbps", mbps, "days", days);
    double allowed = rules.migrationTimeShare() * s.horizonMonths() * DAYS_PER_MONTH;
    if (days > allowed) {
      warnings.add(Words.of("warn.migration", "time", time, "share", Explanations.pctOf(rules.migrationTimeShare()),
          "months", s.horizonMonths()));
    }
    Message note = Words.of("note.migration", "once", once.cents().plain(), "parts", Words.seq(parts), "months", s.horizonMonths(),
        "time", time);
    if (ingress.gap() != null) note = Words.seq(List.of(note, Words.of("note.ingress", "text", ingress.note())));
    return new LineItem(MIGRATION_ITEM, Words.of("spec.migration", "from", from),
        spread(BigDecimal.valueOf(m.gb())), perGb, "GB once", once.dividedBy(BigDecimal.valueOf(s.horizonMonths())).cents(),
        note, ingress.source(), fxOf(ingress.price().currency(), c), ingress.by());
  }

  private LineItem line(Message item, Message spec, BigDecimal units, Money unit, String unitName,
                        Money perMonth, Unit u, VendorTerms terms, FxRates.Conversion c) {
    return new LineItem(item, spec, units, unit, unitName, perMonth.cents(), u.note(),
        u.source(), fxOf(u.price().currency(), c), u.by());
  }

  /**
   * A one-time quantity's share of each month of the horizon, the units its line bills a month;
   * rounded up at 10 places, as the line's cost is, so that price x units rounds to the line's cent.
   */
  private BigDecimal spread(BigDecimal once) {
    return once.divide(BigDecimal.valueOf(s.horizonMonths()), 10, RoundingMode.CEILING);
  }

  /**
   * The vendor's stated price for {@code service}; else its typical figure, or its fallback's price,
   * with the gap recorded (and the price at the gap factor).
   */
  private Unit unit(String vendor, VendorTerms terms, Service service, List<Gap> gaps) {
    ServicePrice p = terms.of(service);
    if (p.isStated()) return new Unit(p.price(), source(p, terms), LineItem.PricedBy.VENDOR, Words.EMPTY, null);
    if (p.isPriced()) return typical(vendor, terms, service, gaps);
    Message why = Words.of(p.availability() == ServicePrice.Availability.NOT_SOLD ? "gap.notSold" : "gap.unknown", "vendor", vendor);
    RankingRules.Fallback f = rules.fallback(service).orElseThrow(() -> new Unpriceable(
        Words.of("gap.noFallback", "service", Words.service(service), "why", why, "key", service.key())));
    Message note = Words.of("gap.fallback", "why", why, "provider", f.provider(), "price", f.price(), "asOf", f.asOf());
    Gap gap = new Gap(Words.service(service), note, service, LineItem.PricedBy.FALLBACK);
    gaps.add(gap);
    return new Unit(f.price().times(gapFactor), f.source(), LineItem.PricedBy.FALLBACK, note, gap);
  }

  /** A service the vendor file prices at a typical figure only: billed at it (times the gap factor), with the gap recorded. */
  private Unit typical(String vendor, VendorTerms terms, Service service, List<Gap> gaps) {
    ServicePrice p = terms.of(service);
    Message note = Words.of("gap.typical", "vendor", vendor, "price", p.price().toString());
    Gap gap = new Gap(Words.service(service), note, service, LineItem.PricedBy.TYPICAL);
    gaps.add(gap);
    return new Unit(p.price().times(gapFactor), source(p, terms), LineItem.PricedBy.TYPICAL, note, gap);
  }

  private static String source(ServicePrice p, VendorTerms terms) {
    return p.source().isEmpty() ? terms.source() : p.source();
  }

  private String fxOf(String from, FxRates.Conversion c) {
    return c.isIdentity() ? "" : c.text(from);
  }
}
