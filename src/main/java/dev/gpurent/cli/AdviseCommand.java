package dev.gpurent.cli;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.Advice;
import dev.gpurent.cost.Fleet;
import dev.gpurent.cost.FleetReader;
import dev.gpurent.report.AdviceText;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code advise FLEET.yaml}: what a running fleet's utilization says and what to rent instead. */
@Command(name = "advise", mixinStandardHelpOptions = true,
    description = "Right-sizing advice for a fleet in service, from its utilization (guide 5.3-5.4).")
public final class AdviseCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "FLEET.yaml", description = "the fleet and its utilization (see config/scenarios/fleets/)")
  Path fleetFile;

  @Option(names = "--json", description = "print the advice as JSON")
  boolean json;

  @Mixin
  SharedOptions.Language language;

  @Mixin
  SharedOptions.Fetch fetch;

  @Option(names = "--include-reference", description = "count the guide's reference sheet as a vendor")
  boolean includeReference;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (Workspace ws = fetch.workspace()) {
      Fleet fleet = new FleetReader(ws.catalog).read(YamlFiles.load(fleetFile));
      Lang lang = language.lang();
      Advice advice = Advice.advise(fleet, fetch.quoteBook(ws, spec.commandLine().getErr(), lang, false), ws.catalog,
          dev.gpurent.cost.Constraints.NONE.withIncludeReference(includeReference));
      out.print(json ? new JsonObject(Localizer.page(advice.toMap(), lang)).encodePrettily() + "\n" : AdviceText.render(advice, lang));
      return 0;
    }
  }
}
