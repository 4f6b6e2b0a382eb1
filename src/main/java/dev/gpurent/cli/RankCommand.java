package dev.gpurent.cli;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.Constraints;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.FilterNames;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.RankingCsv;
import dev.gpurent.report.RankingText;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rank SCENARIO.yaml}: every vendor's cheapest complete bill, best first. */
@Command(name = "rank", mixinStandardHelpOptions = true,
    description = "Prices a scenario at every vendor and ranks them by the monthly bill.")
public final class RankCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "SCENARIO.yaml", description = "the scenario (see config/scenarios/)")
  Path scenarioFile;

  @ArgGroup(exclusive = true)
  Format format = new Format();

  static final class Format {
    @Option(names = "--json", description = "print the ranking as JSON") boolean json;
    @Option(names = "--csv", description = "print every bill line as CSV") boolean csv;
    @Option(names = "--xlsx", paramLabel = "FILE", description = "write the ranking as an Excel workbook for finance: a summary and one sheet per bill, totals as formulas") Path xlsx;
  }

  /** Null when not given: the table shows {@link #TABLE_TOP}, JSON, CSV and the workbook (read by programs and finance) every plan. */
  @Option(names = "--top", paramLabel = "N", description = "the N best vendors' plans; 0 for all (default: 5 in the table, all with --json, --csv or --xlsx)")
  Integer top;

  static final int TABLE_TOP = 5;

  @Mixin
  SharedOptions.Fetch fetch;

  @Mixin
  SharedOptions.Language language;

  @Option(names = "--include-reference", description = "rank the guide's reference sheet as if it were a vendor")
  boolean includeReference;

  @Option(names = "--require-complete", description = "rank only plans that need no fallback provider")
  boolean requireComplete;

  @Option(names = "--in-stock", description = "only offers whose source states they are available now")
  boolean inStock;

  @Option(names = "--vendors", split = ",", paramLabel = "ID", description = "rank only these vendors")
  List<String> vendorsOnly = List.of();

  @Option(names = "--exclude-vendors", split = ",", paramLabel = "ID", description = "leave these vendors out")
  List<String> vendorsExcluded = List.of();

  @Option(names = "--regions", split = ",", paramLabel = "R", description = "only these regions: region ids, country codes (US) or continents (europe)")
  List<String> regionsOnly = List.of();

  @Option(names = "--exclude-regions", split = ",", paramLabel = "R", description = "leave out these regions, countries (RU) or continents")
  List<String> regionsExcluded = List.of();

  @Option(names = "--gpu-makers", split = ",", paramLabel = "MAKER", description = "only cards of these makers (nvidia, amd)")
  List<String> makers = List.of();

  @Option(names = "--min-compute-capability", paramLabel = "CC", description = "only cards of at least this CUDA compute capability (8.0)")
  Double minComputeCapability;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (top != null && top < 0) throw new IllegalArgumentException("--top: must be 0 (all vendors) or more, got " + top);
    int shown = top != null ? top : format.json || format.csv || format.xlsx != null ? 0 : TABLE_TOP;
    Lang lang = language.lang();
    if (format.xlsx != null) OutputFiles.check("--xlsx", format.xlsx);
    try (Workspace ws = fetch.workspace()) {
      ws.checkVendors("--vendors", vendorsOnly, fetch.adapters.dir);
      ws.checkVendors("--exclude-vendors", vendorsExcluded, fetch.adapters.dir);
      Scenario read = new ScenarioReader(ws.catalog, ws.models, ScenarioReader.DEFAULT_MAX_WORKLOADS).read(YamlFiles.load(scenarioFile));
      // the text's "Not ranked" names the vendors with no quotes: progress does not say it twice
      QuoteBook book = fetch.quoteBook(ws, err, lang, !format.json && !format.csv && format.xlsx == null);
      checkFilterNames(read, FilterNames.of(book, ws.catalog.makers()));
      Scenario scenario = withFlags(read);
      Ranking ranking = new CostModel(ws.catalog, ws.rules).rank(scenario, book);
      if (format.json) out.println(new JsonObject(Localizer.page(json(ranking, shown), lang)).encodePrettily());
      else if (format.csv) out.print(RankingCsv.render(ranking, shown, lang));
      else if (format.xlsx != null) out.println(writeXlsx(Localizer.page(json(ranking, shown), lang), format.xlsx, lang));
      else out.print(RankingText.render(ranking, shown, lang, fetch.verbose));
      return ranking.plans().isEmpty() ? 1 : 0;
    }
  }

  /** The ranking's JSON with only the {@code top} best plans (0: all); the reference, mixed plan and the unranked stay whole. */
  static Map<String, Object> json(Ranking ranking, int top) {
    Map<String, Object> m = ranking.toMap();
    List<?> plans = (List<?>) m.get("plans");
    if (top > 0 && plans.size() > top) m.put("plans", plans.subList(0, top));
    return m;
  }

  /** Writes the workbook; the line saying where, and what it holds. */
  private static String writeXlsx(Map<String, Object> ranking, Path file, Lang lang) throws java.io.IOException {
    try (OutputStream out = OutputFiles.open("--xlsx", file); XSSFWorkbook wb = RankingXlsx.workbook(ranking, lang)) {
      wb.write(out);
      return dev.gpurent.text.Messages.of("report", lang).text("rank.wrote", "file", file, "sheets", wb.getNumberOfSheets(),
          "bills", wb.getNumberOfSheets() - 1);
    }
  }

  /**
   * Bad input (exit 2) when a filter names nothing: a region, country, continent, maker or vendor
   * in the scenario file or a flag that the book and the catalog do not know, each flag named as given.
   */
  private void checkFilterNames(Scenario file, FilterNames names) {
    List<InvalidInputException.Problem> bad = new java.util.ArrayList<>(names.problems(file.constraints()));
    names.regions("--regions", regionsOnly).forEach(p -> bad.add(p.at("--regions")));
    names.regions("--exclude-regions", regionsExcluded).forEach(p -> bad.add(p.at("--exclude-regions")));
    names.makers("--gpu-makers", makers).forEach(p -> bad.add(p.at("--gpu-makers")));
    if (!bad.isEmpty()) throw new InvalidInputException(bad);
  }

  /** The scenario's constraints, each one replaced by its flag where the flag is given. */
  private Scenario withFlags(Scenario s) {
    Constraints c = s.constraints();
    Constraints.Filter vendors = new Constraints.Filter(vendorsOnly.isEmpty() ? c.vendors().only() : vendorsOnly,
        vendorsExcluded.isEmpty() ? c.vendors().exclude() : vendorsExcluded);
    Constraints.Filter regions = new Constraints.Filter(regionsOnly.isEmpty() ? c.regions().only() : regionsOnly,
        regionsExcluded.isEmpty() ? c.regions().exclude() : regionsExcluded);
    return s.withConstraints(new Constraints(vendors, regions, makers.isEmpty() ? c.gpuMakers() : makers,
        minComputeCapability == null ? c.minComputeCapability() : minComputeCapability,
        requireComplete || c.requireComplete(), includeReference || c.includeReference(), inStock || c.inStock()));
  }
}
