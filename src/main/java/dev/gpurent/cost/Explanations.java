package dev.gpurent.cost;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The words of a plan: why this card, this count and this mode; spot notes; the guide's warnings. */
final class Explanations {

  private final GpuCatalog catalog;
  private final Scenario s;
  private final QuoteBook book;
  private final OfferScan scan;

  Explanations(GpuCatalog catalog, Scenario s, QuoteBook book, OfferScan scan) {
    this.catalog = catalog;
    this.s = s;
    this.book = book;
    this.scan = scan;
  }

  /** How a spot line's interruption overhead was priced, for its note; "" for other modes. */
  String spotNote(Workload wl, Pick p) {
    if (p.quote.billing() != Billing.SPOT) return "";
    java.util.OptionalDouble rate = book.interruptionRate(p.quote);
    if (rate.isEmpty()) {
      return "+ " + pct(BillingPlanner.SPOT_RESTART_OVERHEAD) + " for interruptions (no published interruption rate)";
    }
    dev.gpurent.quote.SpotRisk risk = book.spotRisk().orElseThrow();
    String band = risk.of(p.quote.region(), p.quote.offerId()).map(b -> b.label()).orElse("?");
    double expected = rate.getAsDouble() * p.hours / BillingPlanner.HOURS_PER_MONTH;
    return "interruption band " + band + " (AWS Spot Advisor): " + Sizing.fmt(expected) + " expected interruptions a month x "
        + Sizing.fmt(wl.restartOverheadHours()) + " h restart overhead";
  }


  String explain(Workload wl, Pick p, List<Placement.ModeCost> modes, Optional<BigDecimal> breakEven,
                         Picks alternatives, VendorTerms terms) {
    Fit f = p.fit;
    Gpu gpu = f.gpu;
    StringBuilder sb = new StringBuilder();
    Sizing.VramNeed need = Sizing.vram(wl);
    sb.append(p.cards()).append(" x ").append(gpu.name()).append(": ");
    if (wl instanceof Inference inf) {
      int copies = f.cards / f.cardsPerCopy;
      sb.append(copies).append(copies == 1 ? " copy" : " copies").append(" of the model");
      if (f.cardsPerCopy > 1) {
        sb.append(" on ").append(f.cardsPerCopy).append(" cards each")
            .append(p.spread > 1 ? " across " + p.spread + " machines (" + Placements.NETWORK.label() + ", assumed)" : " in one machine");
      }
      sb.append(copies == 1 ? " serves " : " serve ").append(Sizing.fmt(inf.peakQps())).append(" QPS at ").append(Sizing.fmt(f.qpsPerCopy))
          .append(" QPS each with ").append(pct(s.headroom())).append(" headroom; ");
    } else {
      int per = (int) p.gpusPerInstance;
      sb.append(Sizing.fmt(((Job) wl).gpuHoursPerMonth())).append(" reference card-hours take ")
          .append(Sizing.fmt(p.hours)).append(" h a month on ").append(p.cards()).append(p.cards() == 1 ? " card" : " cards");
      if (p.spread > 1) {
        sb.append(" in ").append(p.spread).append(" machines of ").append(per).append(" (")
            .append(Sizing.fmt(gpu.interconnect().speedup(per) * Placements.NETWORK.speedup(p.spread))).append("x: ")
            .append(per > 1 ? gpu.interconnect().label() + " inside each, " : "").append(Placements.NETWORK.label())
            .append(", assumed)");
      } else if (p.cards() > 1) {
        sb.append(" in one machine (").append(Sizing.fmt(gpu.interconnect().speedup(p.cards()))).append("x over ")
            .append(gpu.interconnect().label()).append(")");
      }
      if (!gpu.id().equals(wl.referenceGpu())) {
        sb.append(", each card at ").append(Sizing.fmt(f.relativeSpeedPerCard)).append("x the speed of the reference ")
            .append(catalog.byId(wl.referenceGpu()).map(Gpu::name).orElse(wl.referenceGpu()));
      }
      sb.append("; ");
    }
    sb.append(need.formula()).append(" uses ").append(pct(f.memoryShare)).append(" of ")
        .append(f.cardsPerCopy == 1 ? "the card's" : f.cardsPerCopy + " cards'").append(" memory. ");
    sb.append(p.quote.billing().wire()).append(" is cheapest for this use:");
    for (Placement.ModeCost m : modes) {
      sb.append(' ').append(m.billing().wire()).append(' ')
          .append(m.allowed() ? m.perMonth().cents().plain() : "not allowed (the work must not be interrupted)").append(',');
    }
    sb.setLength(sb.length() - 1);
    breakEven.ifPresent(b -> sb.append("; monthly beats on-demand above ").append(b.stripTrailingZeros().toPlainString())
        .append(" h a month per card"));
    sb.append('.');
    if (alternatives == null) return sb.toString();
    Pick single = alternatives.singleCard;
    if (wl instanceof Job && single != null && p.cards() > 1 && single.quote != p.quote) {
      sb.append(" One-card alternative: ").append(single.fit.gpu.name()).append(' ').append(single.quote.billing().wire())
          .append(" at ").append(scan.exactCost(single, terms).cents().plain()).append(" a month.");
    }
    Pick ref = alternatives.onReference;
    if (ref != null && !ref.quote.gpuId().equals(p.quote.gpuId())) {
      Money refCost = scan.exactCost(ref, terms).cents();
      sb.append(" On the reference card it would take ").append(ref.cards()).append(" x ").append(ref.fit.gpu.name())
          .append(' ').append(ref.quote.billing().wire()).append(" at ").append(refCost.plain()).append(" a month (+")
          .append(refCost.minus(scan.exactCost(p, terms).cents()).plain()).append(").");
    }
    Pick next = alternatives.otherGpu;
    if (next != null && next != ref) {
      Money nextCost = scan.exactCost(next, terms).cents();
      sb.append(" Next best card: ").append(next.cards()).append(" x ").append(next.fit.gpu.name()).append(' ')
          .append(next.quote.billing().wire()).append(" at ").append(nextCost.plain()).append(" a month (+")
          .append(nextCost.minus(scan.exactCost(p, terms).cents()).plain()).append(").");
    }
    return sb.toString();
  }

  List<String> warnings(Workload wl, Pick p) {
    List<String> out = new ArrayList<>();
    Gpu gpu = p.fit.gpu;
    if (wl instanceof Inference inf && p.quote.billing() == Billing.SPOT && inf.hoursPerDay() >= 20) {
      out.add(wl.name() + ": spot for 7x24 inference can be reclaimed at any time; use monthly or on-demand (guide 6.1)");
    }
    if (wl instanceof Job j && j.method() == TuneMethod.LORA && j.paramsBillions() > 0 && gpu.memoryGiB() <= 24) {
      out.add(wl.name() + ": " + Sizing.fmt(j.paramsBillions()) + "B LoRA on " + Sizing.fmt(gpu.memoryGiB())
          + " GB cards is marginal, OOM risk (guide 3.2)");
    }
    if (p.spread > 1) {
      out.add(wl.name() + ": spread over " + p.spread + " machines that talk over " + Placements.NETWORK.label()
          + " (assumed): about " + Sizing.fmt(Placements.NETWORK.speedup(2)) + "x for two machines, not 2x; one bigger machine scales better (guide 3.3)");
    } else if (wl instanceof Job && p.cards() > 1 && gpu.interconnect().isPcie()) {
      out.add(wl.name() + ": " + p.cards() + " cards over " + gpu.interconnect().label() + " reach "
          + Sizing.fmt(gpu.interconnect().speedup(p.cards())) + "x, not " + p.cards() + "x; NVLink cards or fewer cards scale better (guide 3.3)");
    }
    if (p.fit.memoryShare > Sizing.MEMORY_EDGE) {
      out.add(wl.name() + ": needs " + pct(p.fit.memoryShare) + " of " + gpu.name() + " memory, at the edge (guide 2.2)");
    }
    return out;
  }

  static String pct(double share) {
    return Math.round(share * 100) + "%";
  }
}
