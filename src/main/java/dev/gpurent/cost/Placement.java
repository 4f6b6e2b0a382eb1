package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where one workload runs in a plan: the offer, how many of it, in which billing mode, what
 * each mode of that offer would cost, and why. Immutable; the per-mode costs and the
 * explanation are computed once, on first read.
 */
public final class Placement {

  /**
   * One billing mode's monthly cost for this usage.
   *
   * @param allowed false when the mode cannot serve the workload (spot for work that must not stop)
   */
  public record ModeCost(Billing billing, Money perMonth, boolean allowed) {}

  /** The parts computed on first read. */
  record Details(List<ModeCost> modes, Optional<BigDecimal> breakEvenHours, Message explanation) {}

  private final Workload workload;
  private final Quote quote;
  private final Gpu gpu;
  private final int instances;
  private final int cards;
  private final double hoursPerMonth;
  private final Money unitPrice;
  private final BigDecimal units;
  private final Money perMonth;
  private final List<Message> warnings;
  private final String fx;
  private final Message spotNote;
  private Supplier<Details> detailsSource;
  private volatile Details details;

  Placement(Workload workload, Quote quote, Gpu gpu, int instances, int cards, double hoursPerMonth, Money unitPrice,
            BigDecimal units, Money perMonth, List<Message> warnings, String fx, Message spotNote, Supplier<Details> details) {
    this.spotNote = spotNote;
    this.workload = workload;
    this.quote = quote;
    this.gpu = gpu;
    this.instances = instances;
    this.cards = cards;
    this.hoursPerMonth = hoursPerMonth;
    this.unitPrice = unitPrice;
    this.units = units;
    this.perMonth = perMonth;
    this.warnings = List.copyOf(warnings);
    this.fx = fx;
    this.detailsSource = details;
  }

  private Details details() {
    Details d = details;
    if (d == null) {
      synchronized (this) {
        d = details;
        if (d == null) {
          d = detailsSource.get();
          details = d;
          detailsSource = null;
        }
      }
    }
    return d;
  }

  public Workload workload() {
    return workload;
  }

  public Quote quote() {
    return quote;
  }

  public Gpu gpu() {
    return gpu;
  }

  public Billing billing() {
    return quote.billing();
  }

  public int instances() {
    return instances;
  }

  /** GPUs paid for: instances x GPUs per instance. */
  public int cards() {
    return cards;
  }

  /** Hours each instance is used a month. */
  public double hoursPerMonth() {
    return hoursPerMonth;
  }

  /** One unit of the offer (per its price unit) in the scenario currency, after the vendor's discount. */
  public Money unitPrice() {
    return unitPrice;
  }

  /** The price units billed a month (instance-hours, instance-months, years spread over the horizon), exact. */
  BigDecimal units() {
    return units;
  }

  /** The monthly cost in the scenario currency, exact: unit price x units. */
  public Money perMonth() {
    return perMonth;
  }

  public List<Message> warnings() {
    return warnings;
  }

  /** "1 USD = 7.24 CNY (source date)" when converted, else "". */
  public String fx() {
    return fx;
  }

  /** For spot: how interruptions were priced (published band and restart overhead, or the default share); else "". */
  public Message spotNote() {
    return spotNote;
  }

  /** Every billing mode this offer is sold in, with its cost for this usage. */
  public List<ModeCost> modes() {
    return details().modes();
  }

  /** Hours a month above which monthly beats on-demand, if both are sold. */
  public Optional<BigDecimal> breakEvenHours() {
    return details().breakEvenHours();
  }

  /** Which card, how many, and why this billing mode. */
  public Message explanation() {
    return details().explanation();
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", workload.name());
    m.put("kind", workload.kind().wire());
    m.put("vendor", quote.vendor());
    m.put("region", quote.region());
    m.put("offer", quote.offerId());
    if (!quote.upstream().isEmpty()) m.put("upstream", quote.upstream());
    m.put("gpu", gpu.id());
    m.put("gpuName", gpu.name());
    m.put("instances", instances);
    m.put("cards", cards);
    m.put("billing", quote.billing().wire());
    m.put("hoursPerMonth", Math.round(hoursPerMonth * 10) / 10.0);
    m.put("unitPrice", unitPrice.plain());
    m.put("unit", quote.unit().wire());
    m.put("perMonth", perMonth.cents().plain());
    m.put("modes", modes().stream().map(c -> {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("billing", c.billing().wire());
      x.put("perMonth", c.perMonth().cents().plain());
      x.put("allowed", c.allowed());
      return x;
    }).toList());
    breakEvenHours().ifPresent(b -> m.put("breakEvenHoursPerMonth", b));
    m.put("explanation", Localizer.neutral(explanation()));
    m.put("warnings", Localizer.neutral(warnings));
    m.put("fx", fx);
    if (!Words.isEmpty(spotNote)) m.put("spot", Localizer.neutral(spotNote));
    if (quote.stock().isKnown()) m.put("stock", quote.stock().toMap());
    m.put("source", quote.source());
    return m;
  }
}
