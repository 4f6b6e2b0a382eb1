package dev.gpurent.report;

import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;

/**
 * The ranking as CSV for procurement: one row per bill line, the plans in the ranking's order
 * (complete ones first), then the mixed plan's lines (rank {@code mixed}), each with the vendor it
 * is bought from.
 */
public final class RankingCsv {

  private RankingCsv() {}

  public static String render(Ranking r) {
    return render(r, 0);
  }

  /** The rows of the {@code top} best plans only (0: all), as {@code rank --csv --top N} asks. */
  public static String render(Ranking r, int top) {
    return render(r, top, Lang.EN);
  }

  /** As above, the words of each row (item, spec, note) in {@code lang}; the headers stay machine names in every language. */
  public static String render(Ranking r, int top, Lang lang) {
    Csv csv = new Csv().row("rank", "vendor", "item", "spec", "quantity", "unit_price", "unit", "per_month", "currency", "note",
        "source", "fx", "vendor_monthly_total", "vendor_horizon_total", "priced_by", "plan_complete", "plan_dated", "upfront");
    int rank = 0;
    for (VendorPlan p : r.plans()) {
      if (top > 0 && rank >= top) break;
      rank++;
      for (LineItem l : p.bill().lines()) line(csv, rank, p.vendor(), l, p.bill(), p.complete(), p.dated(), lang);
    }
    r.mixed().ifPresent(m -> {
      for (int i = 0; i < m.bill().lines().size(); i++) line(csv, "mixed", m.vendorOf(i), m.bill().lines().get(i), m.bill(), m.complete(), "", lang);
    });
    return csv.toString();
  }

  private static void line(Csv csv, Object rank, String vendor, LineItem l, dev.gpurent.cost.Bill bill, boolean complete, Object dated,
                           Lang lang) {
    csv.row(rank, vendor, Localizer.text(l.item(), lang), Localizer.text(l.spec(), lang), l.quantity().toPlainString(), l.unitPrice().plain(),
        l.unit(), l.perMonth().plain(), l.perMonth().currency(), Localizer.text(l.note(), lang), l.source(), l.fx(),
        bill.monthlyTotal().plain(), bill.horizonTotal().plain(), l.pricedBy().wire(), complete, dated,
        l.upfront() == null ? "" : l.upfront().plain());
  }
}
