package dev.gpurent.cli;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.catalog.ModelCatalog;
import dev.gpurent.cost.Fit;
import dev.gpurent.cost.Inference;
import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.Sizing;
import dev.gpurent.cost.Workload;
import dev.gpurent.report.TextTable;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import java.io.PrintWriter;
import java.nio.file.Path;
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
  @Option(names = "--params", paramLabel = "B", description = "model parameters in billions, e.g. 7 (or --model)")
  Double params;
  @Option(names = "--model", paramLabel = "NAME", description = "a model of config/models.yaml, e.g. qwen2.5-72b or meta-llama/Llama-3.1-70B-Instruct")
  String model;
  @Option(names = "--sizing", paramLabel = "MODE", description = "with --model: model (weights + KV cache, measured speed; the default) or guide (x 1.2, N/T)")
  String sizing;
  @Option(names = "--precision", paramLabel = "P", description = "fp32, bf16, fp16, fp8, int8, int4 (inference; default fp16, or the model's published precision)")
  String precision;
  @Option(names = "--method", paramLabel = "M", description = "full, lora or qlora (fine-tune, training)")
  String method;
  @Option(names = "--qps", paramLabel = "QPS", defaultValue = "1", description = "peak QPS (inference, default ${DEFAULT-VALUE})")
  double qps;
  @Option(names = "--seconds", paramLabel = "T", defaultValue = "2", description = "seconds per request on the reference card (default ${DEFAULT-VALUE})")
  double seconds;
  /** The guide's N when --concurrent is left out (guide 2.3: 4 requests at once on a card). */
  static final double DEFAULT_CONCURRENT = 4;
  @Option(names = "--concurrent", paramLabel = "N", description = "concurrent requests per card on the reference card (default 4); with --model, sequences served at once")
  Double concurrent;
  @Option(names = "--context", paramLabel = "TOKENS", description = "with --model: tokens of context a sequence holds (default input + output tokens)")
  Integer context;
  @Option(names = "--input-tokens", paramLabel = "TOKENS", description = "with --model: prompt tokens a request")
  Integer inputTokens;
  @Option(names = "--output-tokens", paramLabel = "TOKENS", description = "with --model: generated tokens a request")
  Integer outputTokens;
  @Option(names = "--rps", paramLabel = "RPS", description = "with --model: requests a second")
  Double rps;
  @Option(names = "--ttft", paramLabel = "S", description = "with --model: time-to-first-token target in seconds")
  Double ttft;
  @Option(names = "--tpot", paramLabel = "S", description = "with --model: time-per-output-token target in seconds")
  Double tpot;
  @Option(names = "--kv-precision", paramLabel = "P", description = "with --model: the KV cache's precision, fp16 (default) or fp8")
  String kvPrecision;
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
    Path catalogFile = root.dir.resolve("config/gpus.yaml");
    GpuCatalog catalog = GpuCatalog.load(catalogFile);
    ModelCatalog models = ModelCatalog.besides(catalogFile);
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("kind", kind);
    if (model != null) w.put("model", model);
    if (params != null || model == null) w.put("paramsBillions", params == null ? missing("--params", "(or --model)") : params);
    if (reference != null) w.put("referenceGpu", reference);
    boolean inference = kind.trim().toLowerCase(Locale.ROOT).equals("inference");
    boolean measured = model != null && !"guide".equals(sizing);
    double perCard = concurrent == null ? DEFAULT_CONCURRENT : concurrent;
    if (inference && measured) {
      ModelOptions.put(w, this);
    } else if (inference) {
      if (sizing != null) w.put("sizing", sizing);
      if (precision != null) w.put("precision", precision);
      w.put("peakQps", qps);
      w.put("secondsPerRequest", seconds);
      w.put("concurrentPerCard", perCard);
      w.put("bound", bound);
    } else {
      if (method != null) w.put("method", method);
      w.put("gpuHoursPerMonth", 1);
    }
    Scenario s;
    try {
      s = new ScenarioReader(catalog, models, ScenarioReader.DEFAULT_MAX_WORKLOADS).read(Map.of("headroom", headroom, "workloads", List.of(w)));
    } catch (InvalidInputException e) {
      throw new InvalidInputException(e.problems().stream().map(p -> p.at(option(p.field()))).toList());
    }
    Workload wl = s.workloads().get(0);
    Gpu ref = catalog.byId(wl.referenceGpu()).orElseThrow();
    List<Gpu> cards = gpus == null ? new ArrayList<>(catalog.all()) : gpus.stream().map(catalog::resolve).toList();
    Lang lang = language.lang();
    if (wl instanceof Inference i && i.modelSizing().isPresent()) {
      ModelOptions.print(out, i, Fit.onEach(wl, cards, ref, s.headroom()), s.headroom(), lang);
      return 0;
    }
    Sizing.VramNeed need = Sizing.vram(wl);
    dev.gpurent.text.Messages say = dev.gpurent.text.Messages.of("report", lang);
    out.println(say.text(inference ? "sizing.need" : "sizing.need.high", "formula", Localizer.text(need.formula(), lang)));
    if (inference) {
      out.println(say.text("sizing.load", "qps", fmt(qps), "perCard", fmt(perCard / seconds), "card", ref.name(), "n", fmt(perCard),
          "t", fmt(seconds), "headroom", String.format(Locale.ROOT, "%.2f", 1 + headroom)));
    }
    List<Fit> fits = Fit.onEach(wl, cards, ref, s.headroom());
    TextTable table = inference
        ? new TextTable(new boolean[] {false, true, true, true, true, true}, headings(say, "sizing.col.qpsPerCopy"))
        : new TextTable(new boolean[] {false, true, true, true, true}, headings(say));
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

  /**
   * The sizing table's headings in {@code say}'s language: card, its memory, cards for memory, cards, memory used, then
   * the columns {@code more} names.
   */
  static String[] headings(dev.gpurent.text.Messages say, String... more) {
    List<String> h = new ArrayList<>();
    for (String code : List.of("sizing.col.card", "sizing.col.memory", "sizing.col.forMemory", "sizing.col.cards", "sizing.col.share")) {
      h.add(say.text(code));
    }
    for (String code : more) h.add(say.text(code));
    return h.toArray(String[]::new);
  }

  /** The option a scenario field came from, so that an error names what the user typed. */
  static String option(String field) {
    String key = field.substring(field.lastIndexOf('.') + 1);
    return switch (key) {
      case "kind" -> "--kind";
      case "paramsBillions" -> "--params";
      case "model" -> "--model";
      case "sizing" -> "--sizing";
      case "contextTokens" -> "--context";
      case "concurrentSequences" -> "--concurrent";
      case "inputTokens" -> "--input-tokens";
      case "outputTokens" -> "--output-tokens";
      case "requestsPerSecond" -> "--rps";
      case "ttftSeconds" -> "--ttft";
      case "tpotSeconds" -> "--tpot";
      case "kvCachePrecision" -> "--kv-precision";
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

  /** Fails as an option error does: "--params: is required (or --model)". */
  private static Object missing(String option, String hint) {
    throw new InvalidInputException(option, "is required " + hint);
  }

  static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
