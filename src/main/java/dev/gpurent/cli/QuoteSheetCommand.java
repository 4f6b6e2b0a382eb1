package dev.gpurent.cli;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quotesheet.BadSheetException;
import dev.gpurent.quotesheet.CellProblem;
import dev.gpurent.quotesheet.QuoteSheetImport;
import dev.gpurent.quotesheet.QuoteSheetReader;
import dev.gpurent.quotesheet.QuoteSheetTemplate;
import dev.gpurent.quotesheet.SheetLayout;
import dev.gpurent.text.Message;
import dev.gpurent.text.Messages;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code quote-sheet template|import}: the workbook a vendor fills in, and reading it back as a vendor. */
@Command(name = "quote-sheet", mixinStandardHelpOptions = true,
    description = "Quote sheets: a workbook to send a vendor, and importing the filled one as a vendor.",
    subcommands = {QuoteSheetCommand.Template.class, QuoteSheetCommand.Import.class})
public final class QuoteSheetCommand implements Runnable {

  /** The clock valid-until dates are judged by (UTC dates). */
  private static final Clock clock = Clock.systemUTC();

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "template", mixinStandardHelpOptions = true,
      description = "Writes a blank quote sheet (offers, terms, instructions): gpurent quote-sheet template > rfq.xlsx")
  static final class Template implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--lang", paramLabel = "LANG", defaultValue = "en", description = "headers and examples in zh or en (default ${DEFAULT-VALUE})")
    String lang;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "xlsx", description = "xlsx (both sheets) or csv (one sheet, see --sheet)")
    String format;

    @Option(names = "--sheet", paramLabel = "SHEET", defaultValue = "offers", description = "with --format csv: offers or terms")
    String sheet;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to this file instead of standard output")
    Path output;

    @Option(names = "--for", paramLabel = "VENDOR",
        description = "a sheet for this vendor: its winning offers for --scenario, each with the price at which it would rank #1,"
            + " and the price each service it lacks a stated price for may cost")
    String forVendor;

    @Option(names = "--scenario", paramLabel = "FILE", description = "with --for: the scenario to win")
    Path scenarioFile;

    /** With --for: the vendors to rank the scenario on. */
    @Mixin
    SharedOptions.Fetch fetch;

    @Override
    public Integer call() throws Exception {
      dev.gpurent.text.Lang l = SheetLayout.lang(lang);
      LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
      if ((forVendor == null) != (scenarioFile == null)) throw new IllegalArgumentException("--for and --scenario go together");
      Target target = forVendor == null ? new Target(List.of(), java.util.Map.of())
          : targetOf(l, forVendor, scenarioFile, fetch, spec.commandLine().getErr());
      byte[] bytes = switch (format.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "xlsx" -> QuoteSheetTemplate.xlsx(l, today, target.offers(), target.terms());
        case "csv" -> switch (sheet.trim().toLowerCase(java.util.Locale.ROOT)) {
          case "offers" -> QuoteSheetTemplate.csv(l, false, today);
          case "terms" -> QuoteSheetTemplate.csv(l, true, today);
          default -> throw new IllegalArgumentException("--sheet: must be offers or terms, got '" + sheet + "'");
        };
        default -> throw new IllegalArgumentException("--format: must be xlsx or csv, got '" + format + "'");
      };
      if (output != null) {
        try (java.io.OutputStream out = OutputFiles.open("-o", output)) {
          out.write(bytes);
        }
        spec.commandLine().getErr().println("gpurent: wrote " + output + " (" + bytes.length + " bytes)");
        return 0;
      }
      if (System.console() != null && format.equalsIgnoreCase("xlsx")) {
        throw new IllegalArgumentException("a workbook is binary: redirect it to a file (> rfq.xlsx) or give -o FILE");
      }
      spec.commandLine().getOut().flush();
      PrintStream raw = System.out;
      raw.write(bytes);
      raw.flush();
      return 0;
    }
  }

  /** A sheet made for one vendor: its offer rows, and notes on the terms rows of the services it lacks a stated price for. */
  private record Target(List<List<String>> offers, java.util.Map<SheetLayout.TermItem, String> terms) {}

  /**
   * The vendor's winning offers for the scenario, as sheet rows with the price at which the vendor
   * would rank #1, and for a plan that lacks a stated price, the price each missing service may cost.
   */
  private static Target targetOf(dev.gpurent.text.Lang l, String vendor, Path scenario, SharedOptions.Fetch fetch,
                                 PrintWriter err) throws Exception {
    try (Workspace ws = fetch.workspace()) {
      ws.checkVendors("--for", List.of(vendor), fetch.adapters.dir);
      dev.gpurent.cost.Scenario s = new dev.gpurent.cost.ScenarioReader(ws.catalog).read(YamlFiles.load(scenario));
      dev.gpurent.cost.Ranking r = new dev.gpurent.cost.CostModel(ws.catalog, ws.rules).rank(s, fetch.quoteBook(ws, err));
      dev.gpurent.cost.VendorPlan plan = r.plans().stream().filter(p -> p.vendor().equals(vendor)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("--for: " + vendor + " has no plan for " + scenario + ": "
              + r.unavailable().stream().filter(u -> u.vendor().equals(vendor)).map(u -> dev.gpurent.text.Localizer.en(u.reason())).findFirst()
              .orElse("no such vendor in the ranking")));
      return new Target(QuoteSheetTemplate.targetRows(l, s.name(), s.currency(), plan, r.plans().get(0) == plan),
          QuoteSheetTemplate.targetTermNotes(l, s.name(), plan));
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = "Checks a filled quote sheet and writes it as a vendor: adapters/ID.yaml (kind static) and the sheet beside it.")
  static final class Import implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "the filled workbook (.xlsx), or the offers sheet as .csv")
    Path file;

    @Option(names = "--terms", paramLabel = "FILE", description = "with a .csv offers sheet: the terms sheet as .csv")
    Path terms;

    @Option(names = "--vendor", paramLabel = "ID", required = true, description = "the vendor's id (lowercase letters, digits, dashes)")
    String vendor;

    @Mixin
    SharedOptions.Root root;

    /** Where the vendor file is written. */
    @Mixin
    SharedOptions.Adapters adapters;

    /** The language of what it prints: the problems of a bad sheet, the warnings, the line saying what was written. */
    @Mixin
    SharedOptions.Language language;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      Messages say = Messages.of("sheet", language.lang());
      List<QuoteSheetReader.Upload> files = new ArrayList<>();
      files.add(upload(file));
      if (terms != null) files.add(upload(terms));
      try (Workspace ws = root.workspace()) {
        QuoteSheetImport.Result r = QuoteSheetImport.run(ws.adaptersDir(adapters.dir), vendor, files, ws.catalog, clock);
        out.println(say.text("sheet.cli.imported", "offers", r.offers(), "quotes", r.quotes(), "vendor", r.vendor(), "from",
            file.toString(), "yaml", r.yaml().toString(), "sheets", String.join(", ", r.sheets().stream().map(Path::toString).toList())));
        for (Message w : r.warnings()) err.println(say.text("sheet.cli.warning", "text", w));
        return 0;
      } catch (BadSheetException e) {
        for (CellProblem p : e.problems()) err.println(say.text("sheet.cli.problem", "text", p.said()));
        int n = e.problems().size();
        err.println(say.text(n == 1 ? "sheet.cli.problems.one" : "sheet.cli.problems.many", "count", n));
        return ExitCodes.BAD_INPUT;
      }
    }

    private static QuoteSheetReader.Upload upload(Path p) throws IOException {
      try {
        long size = Files.size(p);
        if (size > QuoteSheetReader.MAX_BYTES) {
          return QuoteSheetReader.Upload.tooLarge(p.getFileName().toString(), size);
        }
        return new QuoteSheetReader.Upload(p.getFileName().toString(), Files.readAllBytes(p));
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException(p + ": no such file");
      }
    }
  }
}
