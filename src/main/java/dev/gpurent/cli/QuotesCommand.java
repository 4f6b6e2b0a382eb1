package dev.gpurent.cli;

import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.cost.Words;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.QuoteQuery;
import dev.gpurent.quote.QuoteQuery.Row;
import dev.gpurent.report.TextFormat;
import dev.gpurent.report.TextTable;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;
import dev.gpurent.text.Messages;
import io.vertx.core.json.JsonArray;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code quotes}: the live quotes, filtered, in any currency, with their freshness. */
@Command(name = "quotes", mixinStandardHelpOptions = true,
    description = "Lists vendor quotes, filtered by GPU, vendor, region and billing mode, in any currency.")
public final class QuotesCommand implements Callable<Integer> {

  /** Columns right-aligned: gpus and price. */
  private static final boolean[] ALIGN = {false, false, false, false, true, false, true, false, false};

  @Spec
  CommandSpec spec;

  @Option(names = "--gpu", paramLabel = "G", description = "a GPU in any vendor's spelling") String gpu;
  @Option(names = "--vendor", paramLabel = "V", description = "vendor id") String vendor;
  @Option(names = "--region", paramLabel = "R", description = "region, exactly as the vendor names it") String region;
  @Option(names = "--billing", paramLabel = "B", description = "on-demand, spot, monthly, 3-month, 6-month, yearly, 3-year") String billing;
  @Option(names = "--currency", paramLabel = "C", description = "convert prices to this currency (default: each quote's own)") String currency;
  @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "rows to print, cheapest first; 0 for all (default ${DEFAULT-VALUE})") int limit;
  @Option(names = "--json", description = "print JSON") boolean json;
  @Mixin SharedOptions.Fetch fetch;
  /** The language of the table's headings, billing modes, units and freshness, the summary and the vendors' progress lines. */
  @Mixin SharedOptions.Language language;

  /** A quote's freshness as QuoteQuery writes it: "fresh", "undated", "stale (40 min old)". */
  private static final java.util.regex.Pattern AGED = java.util.regex.Pattern.compile("(stale|expired) \\((\\d+) min old\\)");

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Lang lang = language.lang();
    if (limit < 0) throw new IllegalArgumentException("--limit: must be 0 (all rows) or more, got " + limit);
    try (Workspace ws = fetch.workspace()) {
      if (vendor != null) ws.checkVendors("--vendor", List.of(vendor), fetch.adapters.dir);
      String gpuId = null;
      if (gpu != null) {
        try {
          gpuId = ws.catalog.resolve(gpu).id();
        } catch (UnknownGpuException e) {
          throw new IllegalArgumentException("--gpu: " + e.getMessage());
        }
      }
      Billing mode;
      try {
        mode = billing == null ? null : Billing.parse(billing);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--billing: " + e.getMessage());
      }
      String cur = currency == null ? null : currency.toUpperCase(Locale.ROOT);
      QuoteBook book = fetch.quoteBook(ws, spec.commandLine().getErr(), lang, false);
      FxRates fx = book.fx();
      List<Row> rows;
      try {
        rows = new QuoteQuery(gpuId, vendor, region, mode, cur).apply(book);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--currency: " + e.getMessage());
      }
      List<Row> shown = limit > 0 && rows.size() > limit ? rows.subList(0, limit) : rows;
      if (json) {
        JsonArray arr = new JsonArray();
        for (Row r : shown) {
          arr.add(QuoteJson.toJson(r.quote()).put("freshness", r.freshness())
              .put("converted", r.converted() == null ? null : r.converted().money().amount().toPlainString())
              .put("convertedCurrency", cur).put("fx", fxText(r)));
        }
        out.println(arr.encodePrettily());
        return 0;
      }
      Messages say = Messages.of("report", lang);
      TextTable table = new TextTable(ALIGN, java.util.stream.Stream.of("vendor", "region", "offer", "gpu", "gpus", "billing", "price",
          "per", "freshness").map(c -> say.text("quotes.col." + c)).toArray(String[]::new));
      for (Row r : shown) {
        Quote q = r.quote();
        String price = TextFormat.price(r.converted() == null ? q.price() : r.converted().money());
        table.row(q.vendor(), TextTable.cut(q.region(), 18), TextTable.cut(q.offerId(), 28), q.gpuId(),
            q.gpuCount() == Math.rint(q.gpuCount()) ? Long.toString((long) q.gpuCount()) : Double.toString(q.gpuCount()),
            lang == Lang.EN ? q.billing().wire() : Localizer.text(Words.billing(q.billing()), lang),
            price, lang == Lang.EN ? q.unit().wire() : Localizer.text(Words.unit(q.unit().wire()), lang), freshness(r.freshness(), lang));
      }
      out.print(table.render(""));
      String of = cur == null ? "" : Localizer.fx(fx.source()
          + (fx.asOf() == null || fx.source().contains(fx.asOf().toString()) ? "" : " of " + fx.asOf()), lang);
      out.println(say.text(rows.size() == 1 ? "quotes.count.one" : "quotes.count.many", "count", rows.size())
          + (shown.size() < rows.size() ? say.text("quotes.shown", "shown", shown.size()) : "")
          + (cur == null ? "" : say.text("quotes.converted", "fx", of)));
      return 0;
    }
  }

  /** A quote's freshness in {@code lang}: English as QuoteQuery wrote it, Chinese from the engine's words. */
  private static String freshness(String said, Lang lang) {
    if (lang == Lang.EN) return said;
    java.util.regex.Matcher m = AGED.matcher(said);
    return Localizer.text(m.matches() ? Message.of("freshness." + m.group(1), "minutes", Long.parseLong(m.group(2)))
        : Message.of("freshness." + said), lang);
  }

  /** The conversion as the ranking's bill lines state it (rate rounded for reading), or null when none was made. */
  private static String fxText(Row r) {
    return r.converted() == null || r.converted().isIdentity() ? null
        : r.converted().text(r.quote().price().currency());
  }
}
