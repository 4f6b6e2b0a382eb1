package dev.gpurent.report;

import dev.gpurent.cost.Advice;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Message;
import dev.gpurent.text.Messages;

/** Right-sizing advice as text, in English or Chinese. */
public final class AdviceText {

  private static final boolean[] ALIGN = {false, false, true, false, true, true};

  private AdviceText() {}

  public static String render(Advice a) {
    return render(a, Lang.EN);
  }

  public static String render(Advice a, Lang lang) {
    RankingText.Say w = new RankingText.Say(lang);
    StringBuilder sb = new StringBuilder(dev.gpurent.text.Localizer.name(a.fleet(), lang)).append("\n\n").append(w.t("advice.utilization")).append('\n');
    for (Message s : a.signals()) sb.append(w.t("advice.signal", "text", s)).append('\n');
    sb.append('\n').append(w.t("advice.now", "current", a.current())).append('\n');
    if (a.recommendation().isEmpty()) {
      sb.append(w.t("advice.none")).append('\n');
      return sb.toString();
    }
    Advice.Option r = a.recommendation().get();
    sb.append(w.t("advice.recommended", "cards", r.cards(), "gpu", r.gpuName(), "vendor", vendor(r, w), "billing", billing(r, w, lang),
        "perMonth", r.perMonth(), "qps", Double.toString(Math.round(r.capacityQps() * 10) / 10.0))).append('\n');
    a.saving().ifPresent(s -> sb.append(w.t("advice.saves", "amount", s)).append('\n'));
    sb.append(w.t("advice.why", "text", r.explanation())).append("\n\n").append(w.t("advice.others")).append('\n');
    TextTable t = new TextTable(ALIGN, w.t("advcol.vendor"), w.t("advcol.card"), w.t("advcol.cards"), w.t("advcol.billing"),
        w.t("advcol.perMonth"), w.t("advcol.capacity"));
    for (Advice.Option o : a.alternatives()) {
      t.row(vendor(o, w), o.gpuName(), Integer.toString(o.cards()), billing(o, w, lang), o.perMonth().plain(),
          Double.toString(Math.round(o.capacityQps() * 10) / 10.0));
    }
    return sb.append(t.render("  ")).toString();
  }

  // The fleet's own option is named by words, not by a vendor id and a mode.
  private static String vendor(Advice.Option o, RankingText.Say w) {
    return o.vendor().equals("current vendor") ? w.t("advice.currentVendor") : o.vendor();
  }

  private static String billing(Advice.Option o, RankingText.Say w, Lang lang) {
    if (o.billing().equals("as now")) return w.t("advice.asNow");
    return Messages.of("common", lang).has("billing." + o.billing()) ? w.t("billing." + o.billing()) : o.billing();
  }
}
