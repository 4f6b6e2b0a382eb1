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
import dev.gpurent.text.Message;
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

  /** How a spot line's interruption overhead was priced, for its note; empty for other modes. */
  Message spotNote(Workload wl, Pick p) {
    if (p.quote.billing() != Billing.SPOT) return Words.EMPTY;
    java.util.OptionalDouble rate = book.interruptionRate(p.quote);
    if (rate.isEmpty()) return Words.of("spot.default", "share", pctOf(BillingPlanner.SPOT_RESTART_OVERHEAD));
    dev.gpurent.quote.SpotRisk risk = book.spotRisk().orElseThrow();
    String band = risk.of(p.quote.region(), p.quote.offerId()).map(b -> b.label()).orElse("?");
    double expected = rate.getAsDouble() * p.hours / BillingPlanner.HOURS_PER_MONTH;
    return Words.of("spot.band", "band", band, "expected", expected, "restart", wl.restartOverheadHours());
  }

  /** Why this card, this count and this mode, sentence by sentence; figures stay arguments. */
  Message explain(Workload wl, Pick p, List<Placement.ModeCost> modes, Optional<BigDecimal> breakEven,
                  Picks alternatives, VendorTerms terms) {
    Fit f = p.fit;
    Gpu gpu = f.gpu;
    List<Message> out = new ArrayList<>();
    Sizing.VramNeed need = Sizing.vram(wl);
    out.add(Words.of("explain.head", "cards", p.cards(), "gpu", gpu.name()));
    if (wl instanceof Inference inf) {
      int copies = f.cards / f.cardsPerCopy;
      out.add(Words.of(copies == 1 ? "explain.copies.one" : "explain.copies.many", "copies", copies));
      if (f.cardsPerCopy > 1) {
        out.add(p.spread > 1 ? Words.of("explain.copy.spread", "perCopy", f.cardsPerCopy, "spread", p.spread, "network", Placements.NETWORK_WORDS)
            : Words.of("explain.copy.oneMachine", "perCopy", f.cardsPerCopy));
      }
      out.add(Words.of(copies == 1 ? "explain.serves.one" : "explain.serves.many", "qps", inf.peakQps(), "each", f.qpsPerCopy,
          "headroom", pctOf(s.headroom())));
      if (f.speed != null) out.add(Words.of("explain.speed", "perGpu", Sizing.fmt(f.speed.perGpu()), "source", f.speed.source()));
    } else {
      int per = (int) p.gpusPerInstance;
      out.add(Words.of(p.cards() == 1 ? "explain.job.one" : "explain.job.many", "refHours", ((Job) wl).gpuHoursPerMonth(),
          "hours", p.hours, "cards", p.cards()));
      if (p.spread > 1) {
        out.add(Words.of(per > 1 ? "explain.job.spread.inside" : "explain.job.spread", "spread", p.spread, "per", per,
            "speed", gpu.interconnect().speedup(per) * Placements.NETWORK.speedup(p.spread), "interconnect", gpu.interconnect().label(),
            "network", Placements.NETWORK_WORDS));
      } else if (p.cards() > 1) {
        out.add(Words.of("explain.job.oneMachine", "speed", gpu.interconnect().speedup(p.cards()), "interconnect",
            gpu.interconnect().label()));
      }
      if (!gpu.id().equals(wl.referenceGpu())) {
        out.add(Words.of("explain.job.speed", "speed", f.relativeSpeedPerCard, "reference",
            catalog.byId(wl.referenceGpu()).map(Gpu::name).orElse(wl.referenceGpu())));
      }
      out.add(Words.of("explain.job.end"));
    }
    out.add(f.cardsPerCopy == 1 ? Words.of("explain.memory.one", "formula", need.formula(), "share", pctOf(f.memoryShare))
        : Words.of("explain.memory.many", "formula", need.formula(), "share", pctOf(f.memoryShare), "cards", f.cardsPerCopy));
    out.add(Words.of("explain.cheapest", "mode", Words.billing(p.quote.billing())));
    boolean first = true;
    for (Placement.ModeCost m : modes) {
      Object cost = m.allowed() ? m.perMonth().cents().plain() : Words.of("explain.mode.notAllowed");
      out.add(Words.of(first ? "explain.mode.first" : "explain.mode.next", "mode", Words.billing(m.billing()), "cost", cost));
      first = false;
    }
    breakEven.ifPresent(b -> out.add(Words.of("explain.breakEven", "hours", b.stripTrailingZeros().toPlainString())));
    out.add(Words.of("explain.end"));
    if (alternatives == null) return Words.seq(out);
    Pick single = alternatives.singleCard;
    if (wl instanceof Job && single != null && p.cards() > 1 && single.quote != p.quote) {
      out.add(Words.of("explain.singleCard", "gpu", single.fit.gpu.name(), "mode", Words.billing(single.quote.billing()),
          "cost", scan.exactCost(single, terms).cents().plain()));
    }
    Pick ref = alternatives.onReference;
    if (ref != null && !ref.quote.gpuId().equals(p.quote.gpuId())) {
      Money refCost = scan.exactCost(ref, terms).cents();
      out.add(Words.of("explain.onReference", "cards", ref.cards(), "gpu", ref.fit.gpu.name(), "mode", Words.billing(ref.quote.billing()),
          "cost", refCost.plain(), "extra", refCost.minus(scan.exactCost(p, terms).cents()).plain()));
    }
    Pick next = alternatives.otherGpu;
    if (next != null && next != ref) {
      Money nextCost = scan.exactCost(next, terms).cents();
      out.add(Words.of("explain.nextCard", "cards", next.cards(), "gpu", next.fit.gpu.name(), "mode", Words.billing(next.quote.billing()),
          "cost", nextCost.plain(), "extra", nextCost.minus(scan.exactCost(p, terms).cents()).plain()));
    }
    return Words.seq(out);
  }

  List<Message> warnings(Workload wl, Pick p) {
    List<Message> out = new ArrayList<>();
    Gpu gpu = p.fit.gpu;
    if (wl instanceof Inference inf && p.quote.billing() == Billing.SPOT && inf.hoursPerDay() >= 20) {
      out.add(Words.of("warn.spotInference", "workload", wl.name()));
    }
    if (wl instanceof Job j && j.method() == TuneMethod.LORA && j.paramsBillions() > 0 && gpu.memoryGiB() <= 24) {
      out.add(Words.of("warn.loraMarginal", "workload", wl.name(), "params", j.paramsBillions(), "memory", gpu.memoryGiB()));
    }
    if (p.spread > 1) {
      out.add(Words.of("warn.spread", "workload", wl.name(), "spread", p.spread, "network", Placements.NETWORK_WORDS,
          "speed", Placements.NETWORK.speedup(2)));
    } else if (wl instanceof Job && p.cards() > 1 && gpu.interconnect().isPcie()) {
      out.add(Words.of("warn.pcie", "workload", wl.name(), "cards", p.cards(), "interconnect", gpu.interconnect().label(),
          "speed", gpu.interconnect().speedup(p.cards())));
    }
    if (p.fit.memoryShare > Sizing.MEMORY_EDGE) {
      out.add(Words.of("warn.memoryEdge", "workload", wl.name(), "share", pctOf(p.fit.memoryShare), "gpu", gpu.name()));
    }
    return out;
  }

  /** A share as a whole percent, for a "{share}%" template. */
  static long pctOf(double share) {
    return Math.round(share * 100);
  }
}
