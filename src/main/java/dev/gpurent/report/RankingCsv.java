package dev.gpurent.report;

import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;

/** The ranking as CSV for procurement: one row per bill line, RFC 4180 quoting. */
public final class RankingCsv {

  private RankingCsv() {}

  public static String render(Ranking r) {
    StringBuilder sb = new StringBuilder(
        "rank,vendor,item,spec,quantity,unit_price,unit,per_month,currency,note,source,fx,vendor_monthly_total,vendor_horizon_total\r\n");
    int rank = 0;
    for (VendorPlan p : r.plans()) {
      rank++;
      for (LineItem l : p.bill().lines()) {
        sb.append(rank).append(',');
        join(sb, p.vendor(), l.item(), l.spec(), l.quantity(), l.unitPrice().plain(), l.unit(), l.perMonth().plain(),
            l.perMonth().currency(), l.note(), l.source(), l.fx(), p.monthlyTotal().plain(), p.bill().horizonTotal().plain());
      }
    }
    return sb.toString();
  }

  private static void join(StringBuilder sb, String... cells) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) sb.append(',');
      sb.append(quote(cells[i]));
    }
    sb.append("\r\n");
  }

  static String quote(String s) {
    if (s == null) return "";
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
