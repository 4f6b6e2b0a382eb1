package dev.gpurent.cli;

import dev.gpurent.catalog.UnknownGpuException;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.QuoteQuery;
import dev.gpurent.quote.QuoteQuery.Row;
import dev.gpurent.report.TextFormat;
import dev.gpurent.report.TextTable;
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

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
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
      QuoteBook book = fetch.quoteBook(ws, spec.commandLine().getErr());
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
      TextTable table = new TextTable(ALIGN, "vendor", "region", "offer", "gpu", "gpus", "billing", "price", "per", "freshness");
      for (Row r : shown) {
        Quote q = r.quote();
        String price = TextFormat.price(r.converted() == null ? q.price() : r.converted().money());
        table.row(q.vendor(), TextTable.cut(q.region(), 18), TextTable.cut(q.offerId(), 28), q.gpuId(),
            q.gpuCount() == Math.rint(q.gpuCount()) ? Long.toString((long) q.gpuCount()) : Double.toString(q.gpuCount()),
            q.billing().wire(), price, q.unit().wire(), r.freshness());
      }
      out.print(table.render(""));
      out.println(rows.size() + " quotes" + (shown.size() < rows.size() ? ", " + shown.size() + " shown (--limit 0 for all)" : "")
          + (cur == null ? "" : "; converted with " + fx.source()
          + (fx.asOf() == null || fx.source().contains(fx.asOf().toString()) ? "" : " of " + fx.asOf())));
      return 0;
    }
  }

  /** The conversion as the ranking's bill lines state it (rate rounded for reading), or null when none was made. */
  private static String fxText(Row r) {
    return r.converted() == null || r.converted().isIdentity() ? null
        : r.converted().text(r.quote().price().currency());
  }
}
