package dev.gpurent.cli;

import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import dev.gpurent.report.ApiText;
import dev.gpurent.report.TextTable;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code token-prices}: the per-token price book of the config's {@code tokenPrices.files}, per million tokens. */
@Command(name = "token-prices", mixinStandardHelpOptions = true,
    description = "Lists inference APIs' prices per million tokens (config tokenPrices.files), cheapest output first.")
public final class TokenPricesCommand implements Callable<Integer> {

  /** Columns right-aligned: the two prices and the context. */
  private static final boolean[] ALIGN = {false, false, true, true, false, true, false};

  @Spec
  CommandSpec spec;

  @Option(names = "--model", paramLabel = "M", description = "models whose name holds M, case and punctuation aside (llama-3.1-70b)") String model;
  @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "rows to print; 0 for all (default ${DEFAULT-VALUE})") int limit;
  @Option(names = "--refused", description = "also list every row that could not be read, with its reason") boolean refused;
  @Option(names = "--json", description = "print JSON") boolean json;
  @Mixin SharedOptions.Root root;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (limit < 0) throw new IllegalArgumentException("--limit: must be 0 (all rows) or more, got " + limit);
    Workspace ws = root.workspace();
    TokenPriceBook book = ws.tokenPrices();
    List<TokenQuote> rows = book.find(model);
    List<TokenQuote> shown = limit > 0 && rows.size() > limit ? rows.subList(0, limit) : rows;
    if (json) {
      JsonObject body = new JsonObject().put("model", model).put("total", rows.size())
          .put("quotes", shown.stream().map(TokenQuote::toMap).toList())
          .put("sources", book.sources()).put("refused", book.refused());
      out.println(body.encodePrettily());
      return 0;
    }
    if (book.sources().isEmpty() && book.refused().isEmpty()) {
      out.println("no per-token price files configured (tokenPrices.files in config/gpurent.yaml)");
      return 0;
    }
    TextTable table = new TextTable(ALIGN, "provider", "model", "input/M", "output/M", "currency", "context", "source");
    for (TokenQuote q : shown) {
      table.row(q.provider(), TextTable.cut(q.model(), 44), ApiText.perMillion(q.inputPerMillion()), ApiText.perMillion(q.outputPerMillion()), q.currency(),
          q.contextTokens() == null ? "-" : String.format(java.util.Locale.ROOT, "%,d", q.contextTokens()), q.source());
    }
    out.print(table.render(""));
    out.println(rows.size() + " per-token quotes" + (shown.size() < rows.size() ? ", " + shown.size() + " shown (--limit 0 for all)" : "")
        + "; " + book.refused().size() + " rows refused" + (refused || book.refused().isEmpty() ? "" : " (--refused to list them)")
        + "; from " + String.join(", ", book.sources()));
    if (refused) book.refused().forEach(r -> out.println("  refused: " + r));
    return 0;
  }
}
