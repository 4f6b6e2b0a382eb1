package dev.gpurent.report;

import dev.gpurent.cost.Bill;
import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.MixedPlan;
import dev.gpurent.cost.Placement;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The ranking as a person reads it in a terminal: each vendor's bill in the guide's template form. */
public final class RankingText {

  private static final boolean[] BILL_ALIGN = {false, false, true, true, true, false};

  private RankingText() {}

  public static String render(Ranking r, int top) {
    StringBuilder sb = new StringBuilder();
    sb.append(r.scenario()).append(" - ").append(r.currency()).append(", ").append(r.horizonMonths())
        .append("-month horizon").append(r.quotesAt() == null ? "" : ", quotes of " + TextFormat.instant(r.quotesAt())).append("\n\n");
    if (r.plans().isEmpty()) sb.append("No vendor can carry the whole scenario.\n\n");
    List<ResoldOffers.Overlap> resold = ResoldOffers.find(r);
    int n = 0;
    for (VendorPlan p : r.plans()) {
      if (top > 0 && n >= top) break;
      n++;
      sb.append('#').append(n).append(' ').append(p.vendor());
      if (!p.displayName().equals(p.vendor())) sb.append(" (").append(p.displayName()).append(')');
      sb.append(": ").append(p.monthlyTotal()).append(" a month, ").append(p.bill().horizonTotal().plain())
          .append(" over ").append(r.horizonMonths()).append(" months; prices ").append(p.freshness())
          .append(p.dated() ? ", dated (of " + p.priceDate().toString().substring(0, 10) + ")" : "")
          .append(p.complete() ? "; complete" : "; INCOMPLETE: " + p.gaps().size() + (p.gaps().size() == 1 ? " service" : " services")
              + " priced by a fallback provider").append('\n');
      if (!p.note().isEmpty()) sb.append("  note: ").append(p.note()).append('\n');
      sb.append(bill(p.bill()));
      for (dev.gpurent.cost.Gap g : p.gaps()) sb.append("  gap: ").append(g.item()).append(": ").append(g.reason()).append('\n');
      sb.append("  saves ").append(p.savingsVsOnDemand().map(m -> m.plain()).orElse("n/a")).append(" vs all on-demand, ")
          .append(p.savingsVsMonthly().map(m -> m.plain()).orElse("n/a (not every card is sold monthly)"))
          .append(" vs all monthly\n");
      p.winsAt().ifPresent(w -> sb.append("  ").append(w.text()).append('\n'));
      for (Placement pl : p.placements()) sb.append("  why ").append(pl.workload().name()).append(": ").append(pl.explanation()).append('\n');
      Set<String> warnings = new LinkedHashSet<>(p.warnings());
      for (String w : warnings) sb.append("  warning: ").append(w).append('\n');
      for (ResoldOffers.Overlap o : resold) if (o.rank() == n) sb.append("  resold: ").append(o.text()).append('\n');
      Set<String> fx = new LinkedHashSet<>();
      p.bill().lines().stream().map(LineItem::fx).filter(s -> !s.isEmpty()).forEach(fx::add);
      for (String f : fx) sb.append("  fx: ").append(f).append('\n');
      sb.append('\n');
    }
    if (top > 0 && r.plans().size() > top) sb.append("(").append(r.plans().size() - top).append(" more vendors; --top 0 shows all)\n\n");
    r.reference().ifPresent(ref -> sb.append("Reference (").append(ref.displayName()).append(", not ranked; --include-reference ranks it): ")
        .append(ref.monthlyTotal()).append(" a month").append(r.referenceNote().isEmpty() ? "" : "; " + r.referenceNote()).append("\n\n"));
    r.mixed().ifPresent(m -> sb.append(mixed(m)));
    if (r.mixed().isEmpty() && !r.mixedNote().isEmpty()) sb.append("No mixed plan: ").append(r.mixedNote()).append("\n\n");
    if (!r.excluded().isEmpty()) {
      int total = r.excluded().values().stream().mapToInt(Integer::intValue).sum();
      sb.append("Left out by the scenario's filters: ").append(total).append(total == 1 ? " quote (" : " quotes (")
          .append(String.join(", ", r.excluded().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()))
          .append(")\n\n");
    }
    if (!r.unavailable().isEmpty()) {
      sb.append("Not ranked:\n");
      for (Ranking.Unavailable u : r.unavailable()) sb.append("  ").append(u.vendor()).append(": ").append(u.reason()).append('\n');
    }
    return sb.toString();
  }

  private static String mixed(MixedPlan m) {
    return "Mixed plan (each workload at its cheapest vendor, data at " + m.homeVendor() + "): "
        + m.bill().monthlyTotal() + (m.complete() ? "" : " (INCOMPLETE: lines marked * are priced by a fallback provider)") + " a month, " + (m.savingsVsBest().isPositive() ? "saves " + m.savingsVsBest().plain()
        : "costs " + m.savingsVsBest().times(-1).plain() + " more") + " against the best single vendor\n" + bill(m.bill()) + "\n";
  }

  static String bill(Bill b) {
    TextTable t = new TextTable(BILL_ALIGN, "item", "spec", "quantity", "unit price", "per month", "note");
    for (LineItem l : b.lines()) {
      String item = l.pricedBy() == LineItem.PricedBy.FALLBACK ? l.item() + " *" : l.item();
      t.row(item, l.spec(), l.quantity(), l.unitPriceShown().plain() + "/" + l.unit(), l.perMonth().plain(), l.note());
    }
    t.row("total", "", "", "", b.monthlyTotal().plain(), b.monthlyTotal().currency());
    return t.render("  ");
  }
}
