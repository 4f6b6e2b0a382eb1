package dev.gpurent.report;

import dev.gpurent.cost.Advice;

/** Right-sizing advice as text. */
public final class AdviceText {

  private static final boolean[] ALIGN = {false, false, true, false, true, true};

  private AdviceText() {}

  public static String render(Advice a) {
    StringBuilder sb = new StringBuilder(a.fleet()).append("\n\nWhat the utilization says:\n");
    for (String s : a.signals()) sb.append("  - ").append(s).append('\n');
    sb.append("\nNow: ").append(a.current()).append(" a month\n");
    if (a.recommendation().isEmpty()) {
      sb.append("No quoted card serves this load.\n");
      return sb.toString();
    }
    Advice.Option r = a.recommendation().get();
    sb.append("Recommended: ").append(r.cards()).append(" x ").append(r.gpuName()).append(" at ").append(r.vendor())
        .append(" (").append(r.billing()).append("), ").append(r.perMonth()).append(" a month, serving up to ")
        .append(Math.round(r.capacityQps() * 10) / 10.0).append(" QPS\n");
    a.saving().ifPresent(s -> sb.append("Saves: ").append(s).append(" a month\n"));
    sb.append("Why: ").append(r.explanation()).append("\n\nOther options:\n");
    TextTable t = new TextTable(ALIGN, "vendor", "card", "cards", "billing", "per month", "capacity QPS");
    for (Advice.Option o : a.alternatives()) {
      t.row(o.vendor(), o.gpuName(), Integer.toString(o.cards()), o.billing(), o.perMonth().plain(),
          Double.toString(Math.round(o.capacityQps() * 10) / 10.0));
    }
    return sb.append(t.render("  ")).toString();
  }
}
