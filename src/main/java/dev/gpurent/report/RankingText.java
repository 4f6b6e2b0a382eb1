package dev.gpurent.report;

import dev.gpurent.cost.Bill;
import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.MixedPlan;
import dev.gpurent.cost.Placement;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.cost.Words;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ranking as a person reads it in a terminal: each vendor's bill in the guide's template form
 * (5.1), in English or Chinese; headings and sentences come from the {@code report} bundle. The
 * complete plans come first (#1 is the cheapest one can sign); the incomplete ones follow under
 * their own heading, so that no figure nobody quoted sits above the plan to sign.
 */
public final class RankingText {

  private static final boolean[] BILL_ALIGN = {false, false, true, true, true, false};
  private static final boolean[] MIXED_ALIGN = {false, false, false, true, true, true, false};

  private RankingText() {}

  public static String render(Ranking r, int top) {
    return render(r, top, Lang.EN);
  }

  public static String render(Ranking r, int top, Lang lang) {
    return render(r, top, lang, false);
  }

  /**
   * The ranking as text; vendors with no quotes at all (their source could not be read: on a
   * machine without network, all but the file sources) share one line unless {@code verbose}.
   */
  public static String render(Ranking r, int top, Lang lang, boolean verbose) {
    Say w = new Say(lang);
    StringBuilder sb = new StringBuilder();
    sb.append(w.t("rank.head", "scenario", r.scenario(), "currency", r.currency(), "months", r.horizonMonths()))
        .append(r.quotesAt() == null ? "" : w.t("rank.quotesAt", "at", w.instant(r.quotesAt()))).append("\n\n");
    if (r.plans().isEmpty()) sb.append(w.t("rank.none")).append("\n\n");
    List<ResoldOffers.Overlap> resold = ResoldOffers.find(r);
    int n = 0;
    boolean anyComplete = r.plans().stream().anyMatch(VendorPlan::complete);
    for (VendorPlan p : r.plans()) {
      if (top > 0 && n >= top) break;
      if (!p.complete() && (n == 0 || r.plans().get(n - 1).complete())) {
        sb.append(w.t(anyComplete ? "rank.incompleteGroup" : "rank.noComplete")).append("\n\n");
      }
      n++;
      sb.append('#').append(n).append(' ').append(p.vendor());
      if (!p.displayName().equals(p.vendor())) sb.append(" (").append(Localizer.name(p.displayName(), w.lang())).append(')');
      sb.append(w.t("rank.plan", "total", p.monthlyTotal(), "horizon", w.amount(p.bill().horizonTotal()), "months", r.horizonMonths(),
          "freshness", p.freshness()));
      if (p.dated()) sb.append(w.t("rank.dated", "date", p.priceDate().toString().substring(0, 10)));
      sb.append(p.complete() ? w.t("rank.complete") : incomplete(p.gaps(), w)).append('\n');
      if (!Words.isEmpty(p.note())) sb.append(w.t("rank.note", "text", p.note())).append('\n');
      sb.append(bill(p.bill(), w));
      for (dev.gpurent.cost.Gap g : p.gaps()) {
        sb.append(w.t("rank.gap", "item", g.item(), "reason", g.reason())).append('\n');
      }
      sb.append(w.t("rank.saves", "onDemand", p.savingsVsOnDemand().map(w::amount).orElse(Message.of("rank.na")),
          "monthly", p.savingsVsMonthly().map(w::amount).orElse(Message.of("rank.na.monthly")))).append('\n');
      p.winsAt().ifPresent(x -> sb.append("  ").append(w.of(x.text())).append('\n'));
      for (Placement pl : p.placements()) {
        sb.append(w.t("rank.why", "workload", pl.workload().name(), "text", pl.explanation())).append('\n');
        if (pl.quote().stock().isKnown()) {
          sb.append(w.t("rank.stock", "workload", pl.workload().name(), "text", Words.stock(pl.quote().stock()))).append('\n');
        }
      }
      Set<String> warnings = new LinkedHashSet<>();
      for (Message m : p.warnings()) warnings.add(w.of(m));
      for (String x : warnings) sb.append(w.t("rank.warning", "text", x)).append('\n');
      for (ResoldOffers.Overlap o : resold) if (o.rank() == n) sb.append(w.t("rank.resold", "text", o.text())).append('\n');
      Set<String> fx = new LinkedHashSet<>();
      p.bill().lines().stream().map(LineItem::fx).filter(s -> !s.isEmpty()).forEach(fx::add);
      for (String f : fx) sb.append(w.t("rank.fx", "text", Localizer.fx(f, w.lang()))).append('\n');
      sb.append('\n');
    }
    if (top > 0 && r.plans().size() > top) sb.append(w.t("rank.more", "more", r.plans().size() - top)).append("\n\n");
    r.reference().ifPresent(ref -> sb.append(w.t("rank.reference", "name", ref.displayName(), "total", ref.monthlyTotal()))
        .append(Words.isEmpty(r.referenceNote()) ? "" : w.t("rank.reference.note", "text", r.referenceNote())).append("\n\n"));
    r.mixed().ifPresent(m -> sb.append(mixed(m, w)));
    if (r.mixed().isEmpty() && !Words.isEmpty(r.mixedNote())) sb.append(w.t("rank.noMixed", "text", r.mixedNote())).append("\n\n");
    sb.append(ApiText.render(r.apis(), w));
    if (!r.excluded().isEmpty()) {
      int total = r.excluded().values().stream().mapToInt(Integer::intValue).sum();
      sb.append(w.t(total == 1 ? "rank.excluded.one" : "rank.excluded.many", "total", total,
          "rules", String.join(", ", r.excluded().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())))
          .append("\n\n");
    }
    if (!r.skipped().isEmpty()) sb.append(skipped(r.skipped(), w)).append('\n');
    if (!r.unavailable().isEmpty()) sb.append(unavailable(r.unavailable(), verbose, w));
    return sb.toString();
  }

  /** Offers that would have been picked but are not rentable now, each with what it would have cost and the source's words. */
  private static String skipped(List<dev.gpurent.cost.Skipped> all, Say w) {
    StringBuilder sb = new StringBuilder(w.t("rank.skipped")).append('\n');
    for (dev.gpurent.cost.Skipped k : all) {
      var q = k.quote();
      sb.append(w.t("rank.skipped.offer", "vendor", q.vendor(), "offer", q.offerId() + (q.region().isEmpty() ? "" : ", " + q.region()),
          "billing", Words.billing(q.billing()), "workload", k.workload(), "total", k.perMonth(), "reason", k.reason()));
      k.instead().ifPresent(i -> sb.append(w.t("rank.skipped.instead", "total", i)));
      k.planWith().ifPresent(t -> sb.append(w.t(k.wouldLead() ? "rank.skipped.lead" : "rank.skipped.plan", "vendor", q.vendor(), "total", t)));
      sb.append('\n');
    }
    return sb.toString();
  }

  private static String unavailable(List<Ranking.Unavailable> all, boolean verbose, Say w) {
    List<String> noQuotes = all.stream().filter(u -> NO_QUOTES.contains(u.reason().code())).map(Ranking.Unavailable::vendor).toList();
    boolean grouped = !verbose && noQuotes.size() > 1;
    StringBuilder sb = new StringBuilder(w.t("rank.unavailable")).append('\n');
    if (grouped) sb.append("  ").append(w.t("rank.unavailable.noQuotes", "count", noQuotes.size(), "vendors", String.join(", ", noQuotes))).append('\n');
    for (Ranking.Unavailable u : all) {
      if (grouped && NO_QUOTES.contains(u.reason().code())) continue;
      sb.append("  ").append(u.vendor()).append(": ").append(w.of(u.reason()).strip()).append('\n');
    }
    return sb.toString();
  }

  /** The reasons that say a vendor has no quotes at all, rather than none that fit the scenario. */
  private static final Set<String> NO_QUOTES = Set.of("book.noQuotes", "book.firstFetch", "book.offline");

  /** "; INCOMPLETE: 2 services priced by a fallback provider, 1 at a typical figure". */
  private static String incomplete(List<dev.gpurent.cost.Gap> gaps, Say w) {
    long fallback = gaps.stream().filter(g -> g.pricedBy() == LineItem.PricedBy.FALLBACK).count();
    long typical = gaps.size() - fallback;
    List<String> parts = new java.util.ArrayList<>();
    if (fallback > 0) parts.add(w.t(fallback == 1 ? "rank.incomplete.fallback.one" : "rank.incomplete.fallback.many", "gaps", fallback));
    if (typical > 0) parts.add(w.t(typical == 1 ? "rank.incomplete.typical.one" : "rank.incomplete.typical.many", "gaps", typical));
    return w.t("rank.incomplete", "parts", String.join(", ", parts));
  }

  private static String mixed(MixedPlan m, Say w) {
    return w.t("rank.mixed", "home", m.homeVendor(), "total", m.bill().monthlyTotal())
        + (m.complete() ? "" : w.t("rank.mixed.incomplete")) + w.t("rank.mixed.month")
        + (m.savingsVsBest().isPositive() ? w.t("rank.mixed.saves", "amount", w.amount(m.savingsVsBest()))
        : w.t("rank.mixed.costs", "amount", w.amount(m.savingsVsBest().times(-1)))) + "\n" + bill(m.bill(), m.lineVendors(), w) + "\n";
  }

  static String bill(Bill b, Say w) {
    return bill(b, null, w);
  }

  /** A bill as a table; with {@code vendors} (a mixed plan's), a first column names the vendor each line is bought from. */
  private static String bill(Bill b, List<String> vendors, Say w) {
    boolean[] align = vendors == null ? BILL_ALIGN : MIXED_ALIGN;
    List<String> head = new java.util.ArrayList<>(List.of(w.t("col.item"), w.t("col.spec"), w.t("col.quantity"), w.t("col.unitPrice"),
        w.t("col.perMonth"), w.t("col.note")));
    if (vendors != null) head.add(0, w.t("col.vendor"));
    TextTable t = new TextTable(align, head.toArray(String[]::new));
    for (int i = 0; i < b.lines().size(); i++) {
      LineItem l = b.lines().get(i);
      // "*": not the vendor's stated price (a fallback provider's or a typical figure); the note says which
      String item = l.pricedBy() != LineItem.PricedBy.VENDOR ? w.of(l.item()) + " *" : w.of(l.item());
      String unit = w.unit(l.unit());
      List<String> row = new java.util.ArrayList<>(List.of(item, w.of(l.spec()), l.quantity().toPlainString() + " " + unit,
          l.unitPrice().plain() + "/" + unit, l.perMonth().plain(), w.of(l.note())));
      if (vendors != null) row.add(0, vendors.get(i));
      t.row(row.toArray(String[]::new));
    }
    List<String> total = new java.util.ArrayList<>(List.of(w.t("col.total"), "", "", "", b.monthlyTotal().plain(),
        b.monthlyTotal().currency()));
    if (vendors != null) total.add(0, "");
    t.row(total.toArray(String[]::new));
    String table = t.render("  ");
    return b.upfront().isPositive() ? table + w.t("rank.upfront", "amount", b.upfront()) + "\n" : table;
  }

  /** The report bundle and the engine's messages in one language. */
  record Say(Lang lang) {
    String t(String code, Object... nameValues) {
      return Localizer.text(Message.of(code, nameValues), lang);
    }

    String of(Message m) {
      return Localizer.text(m, lang);
    }

    /**
     * An amount inside a sentence as the language writes figures: English keeps the bill's bare
     * figure ("60000.00", the currency said once in the heading), Chinese the money form its
     * sentences use everywhere ("¥60,000.00"), so one sentence never mixes the two.
     */
    Object amount(dev.gpurent.quote.Money m) {
      return lang == Lang.EN ? m.plain() : m;
    }

    /** A time to the second: ISO in English ("2026-12-01T17:05:41Z"), "2026-12-01 17:05:41 UTC" in Chinese (no Latin letters). */
    String instant(java.time.Instant at) {
      String iso = TextFormat.instant(at);
      return lang == Lang.EN ? iso : iso.replace('T', ' ').replace("Z", " UTC");
    }

    /** A price unit as the language writes it ("hour" / 小时); a unit the bundle does not know is shown as it is. */
    String unit(String unit) {
      String code = "unit." + unit.replace(' ', '-');
      return dev.gpurent.text.Messages.of("report", lang).has(code) ? t(code) : unit;
    }
  }
}
