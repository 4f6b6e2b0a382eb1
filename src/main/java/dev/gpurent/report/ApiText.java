package dev.gpurent.report;

import dev.gpurent.cost.ApiComparison;
import dev.gpurent.quote.TokenQuote;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The text bill's "rent or call an API" section: for each inference workload whose model an API
 * sells per token, each API's price a month for its tokens, with the recorded row it comes from,
 * and the verdict (the break-even volume against #1).
 */
public final class ApiText {

  private static final boolean[] ALIGN = {false, false, true, true, true, true, false};
  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  private ApiText() {}

  static String render(List<ApiComparison> apis, RankingText.Say w) {
    StringBuilder sb = new StringBuilder();
    for (ApiComparison c : apis) {
      sb.append(w.t("rank.api", "workload", c.workload(), "model", c.model(),
          "input", millions(c.load().inputPerMonth()), "output", millions(c.load().outputPerMonth()))).append('\n');
      TextTable t = new TextTable(ALIGN, w.t("col.api"), w.t("col.model"), w.t("col.inputPerMillion"), w.t("col.outputPerMillion"),
          w.t("col.context"), w.t("col.perMonth"), w.t("col.source"));
      for (ApiComparison.Option o : c.options()) {
        TokenQuote q = o.quote();
        t.row(q.provider() + (o.carries() ? "" : " *"), TextTable.cut(q.model(), 44), perMillion(q.inputPerMillion()),
            perMillion(q.outputPerMillion()), q.contextTokens() == null ? "-" : q.contextTokens().toString(),
            o.monthly().cents().plain(), q.source());
      }
      sb.append(t.render("  "));
      for (ApiComparison.Option o : c.options()) if (!o.carries()) sb.append("  * ").append(w.of(o.limit())).append('\n');
      c.options().stream().map(ApiComparison.Option::fx).filter(f -> !f.isEmpty()).distinct()
          .forEach(f -> sb.append("  fx: ").append(f).append('\n'));
      sb.append("  ").append(w.of(c.verdict())).append("\n\n");
    }
    return sb.toString();
  }

  /** A price per million tokens with at least two decimals and every digit the source gave (0.40, 0.269, 0.1345). */
  public static String perMillion(BigDecimal d) {
    return d.setScale(Math.max(2, d.scale())).toPlainString();
  }

  /** Tokens in millions, to one decimal: 1314.0. */
  private static String millions(long tokens) {
    return BigDecimal.valueOf(tokens).divide(MILLION, 1, RoundingMode.HALF_UP).toPlainString();
  }
}
