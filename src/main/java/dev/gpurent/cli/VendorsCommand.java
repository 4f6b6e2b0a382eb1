package dev.gpurent.cli;

import dev.gpurent.adapter.RefusedRows;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.config.UserText;
import dev.gpurent.cost.Words;
import dev.gpurent.quote.Billing;
import dev.gpurent.report.TextTable;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Messages;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code vendors}: what the configured vendors cover: per vendor and in all, vendors, GPU models, offers and quotes;
 * {@code --refused VENDOR}: what one vendor's payload had refused, and why.
 */
@Command(name = "vendors", mixinStandardHelpOptions = true,
    description = "Fetches every configured vendor once and counts what it covers: GPU models, offers, quotes, regions.")
public final class VendorsCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--json", description = "print JSON") boolean json;
  @Option(names = "--refused", paramLabel = "VENDOR", description = "the rows of one vendor's payload that were refused, each with where and why, and the count per reason")
  String refused;
  @Mixin SharedOptions.Fetch fetch;
  /** The language of the table's headings, statuses and summary (the JSON keeps its ids and the sources' words). */
  @Mixin SharedOptions.Language language;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (Workspace ws = fetch.workspace()) {
      if (refused != null) ws.checkVendors("--refused", List.of(refused), fetch.adapters.dir);
      List<VendorDefinition> all = ws.allVendors(fetch.adapters.dir);
      Lang lang = language.lang();
      Messages say = Messages.of("report", lang);
      QuoteBook book = fetch.quoteBook(ws, spec.commandLine().getErr(), lang, false);
      if (refused != null) return refused(out, book, say, lang);
      JsonArray rows = new JsonArray();
      Set<String> gpus = new TreeSet<>(), offers = new TreeSet<>();
      int quotes = 0, withQuotes = 0;
      for (VendorDefinition d : all) {
        JsonObject row = new JsonObject().put("vendor", d.vendor()).put("kind", d.kind()).put("enabled", d.enabled())
            .put("currency", d.currency());
        var entry = book.vendor(d.vendor());
        if (entry.isPresent() && entry.get().quotes().quotes().isEmpty()) {
          // in the book, every quote refused against the market (aethir's lone T4 at 19.0/h): a vendor without quotes
          row.put("quotes", 0).put("status", Messages.of("report", Lang.EN).text("vendors.allRefused", "vendor", d.vendor()));
        } else if (entry.isPresent()) {
          List<Quote> qs = entry.get().quotes().quotes();
          Set<String> g = qs.stream().map(Quote::gpuId).collect(Collectors.toCollection(TreeSet::new));
          Set<String> o = qs.stream().map(q -> q.vendor() + "|" + q.region() + "|" + q.offerId()).collect(Collectors.toSet());
          Set<String> regions = qs.stream().map(Quote::region).collect(Collectors.toSet());
          row.put("quotes", qs.size()).put("offers", o.size()).put("gpuModels", g.size()).put("regions", regions.size())
              .put("billing", qs.stream().map(q -> q.billing().wire()).distinct().sorted().toList())
              .put("freshness", entry.get().freshness().toString());
          gpus.addAll(g);
          offers.addAll(o);
          quotes += qs.size();
          withQuotes++;
        } else {
          row.put("quotes", 0).put("status", d.enabled() ? book.unavailable().getOrDefault(d.vendor(), "no quotes") : "disabled");
        }
        rows.add(row);
      }
      JsonObject totals = new JsonObject().put("vendorsConfigured", all.size()).put("vendorsWithQuotes", withQuotes)
          .put("gpuModels", gpus.size()).put("offers", offers.size()).put("quotes", quotes);
      if (json) {
        out.println(new JsonObject().put("vendors", rows).put("totals", totals).put("gpuModels", new JsonArray(List.copyOf(gpus)))
            .encodePrettily());
        return 0;
      }
      TextTable table = new TextTable(ALIGN, Stream.of("vendor", "kind", "cur", "quotes", "offers", "gpus", "regions", "status")
          .map(c -> say.text("vendors.col." + c)).toArray(String[]::new));
      for (Object o : rows) {
        JsonObject r = (JsonObject) o;
        boolean has = r.getInteger("quotes") > 0;
        table.row(r.getString("vendor"), r.getString("kind"), r.getString("currency"), String.valueOf(r.getInteger("quotes")),
            has ? String.valueOf(r.getInteger("offers")) : "", has ? String.valueOf(r.getInteger("gpuModels")) : "",
            has ? String.valueOf(r.getInteger("regions")) : "", has ? billing(r.getJsonArray("billing"), lang) : status(r, book, say, lang));
      }
      out.print(table.render(""));
      out.println(say.text("vendors.summary", "configured", all.size(), "withQuotes", withQuotes, "gpus", gpus.size(),
          "offers", offers.size(), "quotes", quotes));
      return 0;
    }
  }

  private static final boolean[] ALIGN = {false, false, false, true, true, true, true, false};

  private static String billing(JsonArray modes, Lang lang) {
    return String.join(lang == Lang.EN ? ", " : "、", modes.stream().map(String::valueOf)
        .map(b -> lang == Lang.EN ? b : Localizer.text(Words.billing(Billing.parse(b)), lang)).toList());
  }

  /** A vendor without quotes: disabled, every quote refused, or the book's reason (a source's words quoted in Chinese). */
  private static String status(JsonObject row, QuoteBook book, Messages say, Lang lang) {
    String status = row.getString("status");
    if (lang == Lang.EN) return status;
    if (!row.getBoolean("enabled")) return say.text("vendors.disabled");
    // in the book without a quote: every one refused against the market
    if (book.vendor(row.getString("vendor")).isPresent()) return say.text("vendors.allRefused", "vendor", row.getString("vendor"));
    return Localizer.text(Words.bookReason(status), lang);
  }

  /** {@code --refused VENDOR}: every row refused, where and why, after the count per reason. */
  private int refused(PrintWriter out, QuoteBook book, Messages say, Lang lang) {
    var entry = book.vendor(refused);
    if (entry.isEmpty()) {
      String why = book.unavailable().getOrDefault(refused, "no quotes");
      if (json) out.println(new JsonObject().put("vendor", refused).put("status", why).encodePrettily());
      else out.println(refused + ": " + (lang == Lang.EN ? UserText.withoutPaths(why) : Localizer.text(Words.bookReason(UserText.withoutPaths(why)), lang)));
      return 1;
    }
    List<String> lines = entry.get().quotes().rejected().stream().map(UserText::withoutPaths).toList();
    RefusedRows rows = RefusedRows.of(lines, Integer.MAX_VALUE);
    if (json) {
      out.println(new JsonObject().put("vendor", refused).put("refused", new JsonObject(rows.toMap())).encodePrettily());
      return 0;
    }
    out.println(say.text("vendors.refused.count", "vendor", refused, "rows", rows.total(), "kept", entry.get().quotes().quotes().size()));
    if (rows.total() == 0) return 0;
    String rowsHeading = say.text("vendors.refused.rows");
    out.println(" ".repeat(Math.max(0, 7 - TextTable.width(rowsHeading))) + rowsHeading + "  " + say.text("vendors.refused.reason"));
    rows.byReason().forEach((reason, n) -> out.println(String.format(Locale.ROOT, "%7d  %s", n, reason)));
    out.println();
    for (RefusedRows.Row r : rows.first()) out.println(r.at().isEmpty() ? r.reason() : r.at() + ": " + r.reason());
    return 0;
  }
}
