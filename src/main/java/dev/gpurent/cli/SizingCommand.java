package dev.gpurent.cli;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.cost.Fit;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.Sizing;
import dev.gpurent.cost.Workload;
import dev.gpurent.report.TextTable;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sizing}: how many of which card a model needs, for memory and for load (guide 2.2-2.3). */
@Command(name = "sizing", mixinStandardHelpOptions = true,
    description = "How many of which card a model needs, from its size, precision and load.")
public final class SizingCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--kind", paramLabel = "KIND", defaultValue = "inference", description = "inference, fine-tune or training (default ${DEFAULT-VALUE})")
  String kind;
  @Option(names = "--params", paramLabel = "B", required = true, description = "model parameters in billions, e.g. 7")
  double params;
  @Option(names = "--precision", paramLabel = "P", defaultValue = "fp16", description = "fp32, bf16, fp16, int8, int4 (inference)")
  String precision;
  @Option(names = "--method", paramLabel = "M", description = "full, lora or qlora (fine-tune, training)")
  String method;
  @Option(names = "--qps", paramLabel = "QPS", defaultValue = "1", description = "peak QPS (inference, default ${DEFAULT-VALUE})")
  double qps;
  @Option(names = "--seconds", paramLabel = "T", defaultValue = "2", description = "seconds per request on the reference card (default ${DEFAULT-VALUE})")
  double seconds;
  @Option(names = "--concurrent", paramLabel = "N", defaultValue = "4", description = "concurrent requests per card on the reference card (default ${DEFAULT-VALUE})")
  double concurrent;
  @Option(names = "--reference", paramLabel = "CARD", description = "card the speed figures were measured on")
  String reference;
  @Option(names = "--bound", paramLabel = "BOUND", defaultValue = "memory", description = "memory (LLM decoding) or compute (image models)")
  String bound;
  @Option(names = "--headroom", paramLabel = "H", defaultValue = "0.3", description = "spare capacity on top of peak (default ${DEFAULT-VALUE})")
  double headroom;
  @Option(names = "--gpu", paramLabel = "CARD", split = ",", description = "only these cards")
  List<String> gpus;
  @Mixin
  SharedOptions.Root root;
  @Mixin
  SharedOptions.Language language;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    GpuCatalog catalog = GpuCatalog.load(root.dir.resolve("config/gpus.yaml"));
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("kind", kind);
    w.put("paramsBillions", params);
    if (reference != null) w.put("referenceGpu", reference);
    boolean inference = kind.trim().toLowerCase(Locale.ROOT).equals("inference");
    if (inference) {
      w.put("precision", precision);
      w.put("peakQps", qps);
      w.put("secondsPerRequest", seconds);
      w.put("concurrentPerCard", concurrent);
      w.put("bound", bound);
    } else {
      if (method != null) w.put("method", method);
      w.put("gpuHoursPerMonth", 1);
    }
    Scenario s;
    try {
      s = new ScenarioReader(catalog).read(Map.of("headroom", headroom, "workloads", List.of(w)));
    } catch (InvalidInputException e) {
      throw new InvalidInputException(e.problems().stream().map(p -> p.at(option(p.field()))).toList());
    }
    Workload wl = s.workloads().get(0);
    Gpu ref = catalog.byId(wl.referenceGpu()).orElseThrow();
    List<Gpu> cards = gpus == null ? new ArrayList<>(catalog.all()) : gpus.stream().map(catalog::resolve).toList();
    Sizing.VramNeed need = Sizing.vram(wl);
    Lang lang = language.lang();
    dev.gpurent.text.Messages say = dev.gpurent.text.Messages.of("report", lang);
    out.println(say.text(inference ? "sizing.need" : "sizing.need.high", "formula", Localizer.text(need.formula(), lang)));
    if (inference) {
      out.println(say.text("sizing.load", "qps", fmt(qps), "perCard", fmt(concurrent / seconds), "card", ref.name(), "n", fmt(concurrent),
          "t", fmt(seconds), "headroom", String.format(Locale.ROOT, "%.2f", 1 + headroom)));
    }
    List<Fit> fits = Fit.onEach(wl, cards, ref, s.headroom());
    TextTable table = inference
        ? new TextTable(new boolean[] {false, true, true, true, true, true}, "card", "memory", "for memory", "cards", "memory", "QPS per copy")
        : new TextTable(new boolean[] {false, true, true, true, true}, "card", "memory", "for memory", "cards", "memory");
    List<String> unfit = new ArrayList<>();
    for (Fit f : fits) {
      String memory = fmt(f.gpu().memoryGiB()) + " GiB";
      if (!f.ok()) {
        // below the table: a reason is too long for a column
        unfit.add(f.gpu().name() + " (" + memory + "): " + Localizer.text(f.unfitReason(), lang));
        continue;
      }
      String[] cells = {f.gpu().name(), memory, Integer.toString(f.cardsPerCopy()), Integer.toString(f.cards()),
          Math.round(f.memoryShare() * 100) + "%", String.format(Locale.ROOT, "%.2f", f.qpsPerCopy())};
      table.row(inference ? cells : java.util.Arrays.copyOf(cells, 5));
    }
    out.print(table.render(""));
    unfit.forEach(out::println);
    return 0;
  }

  /** The option a scenario field came from, so that an error names what the user typed. */
  static String option(String field) {
    String key = field.substring(field.lastIndexOf('.') + 1);
    return switch (key) {
      case "kind" -> "--kind";
      case "paramsBillions" -> "--params";
      case "precision" -> "--precision";
      case "method" -> "--method";
      case "peakQps" -> "--qps";
      case "secondsPerRequest" -> "--seconds";
      case "concurrentPerCard" -> "--concurrent";
      case "referenceGpu" -> "--reference";
      case "bound" -> "--bound";
      case "headroom" -> "--headroom";
      default -> field;
    };
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
