package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.Advice;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.FleetReader;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.report.AdviceText;
import dev.gpurent.report.RankingText;
import dev.gpurent.report.RankingXlsx;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Messages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * "No English where a Chinese reader looks" (issue 33), walked everywhere text is made: every
 * template of every {@code *_zh} bundle, and every shipped scenario (and fleet) of the recorded
 * sample root ranked in Chinese as the CLI prints it (the vendors' progress lines included), as
 * the JSON REST and the dashboard read, and as the workbook holds it (every text cell of every
 * sheet). Only names may stay Latin: vendors, cards and their interconnects, offers, regions,
 * the fallback providers (read from the same JSON and config), units, abbreviations, and the
 * options, commands and config keys a reader types as they are.
 */
class ChineseWalkTest {

  /** Fields that carry names, ids, machine values or sources, not sentences. */
  static final Set<String> NAME_FIELDS = Set.of("vendor", "displayName", "region", "offer", "upstream", "gpu", "gpuName", "billing",
      "unit", "kind", "workload", "source", "fx", "pricedBy", "quotesAt", "priceDate", "scenario", "currency", "homeVendor", "lang",
      "discount", "monthlyTotal", "horizonTotal", "unitPrice", "perMonth", "savingsVsOnDemand", "savingsVsMonthly", "savingsVsBest");

  /** The name fields whose words are names a reader may see as they are (not ids a page translates, units or sources). */
  static final Set<String> NAMES_SHOWN = Set.of("vendor", "displayName", "region", "offer", "upstream", "gpu", "gpuName", "homeVendor",
      "currency");

  /**
   * Units, abbreviations, config keys, commands and option values a reader types as they are,
   * and the proper names (APIs, products, sites, publishers) the vendors' notes cite.
   */
  static final Set<String> ALLOWED = Set.of("GPU", "QPS", "GB", "GiB", "TB", "h", "x", "B", "LoRA", "QLoRA", "OOM", "NVLink", "PCIe",
      "SXM", "fp16", "bf16", "fp32", "int8", "int4", "Mbit", "Gbit", "s", "API", "AWS", "Spot", "Advisor", "CPU", "vCPU", "ECS", "CVM",
      "OCI", "getdeploying", "com", "Cyclenerd", "pricing", "yml", "Google", "Cloud", "Billing", "Catalog", "Samsung", "SDS",
      "DescribePrice", "OriginalPrice", "InquiryPriceRunInstances", "GetUHostInstancePrice", "adapters", "ucloud", "uhost", "yaml",
      "Spheron", "Shadeform", "Prime", "Intellect", "config", "gpurent", "fallbacks", "requireComplete", "allowMultiNode", "true",
      "false", "objectStorage", "egress", "ingress", "loadBalancer", "api", "vendors", "USD", "CNY", "EUR", "GBP", "JPY", "ECB", "UTC",
      "ISO", "x24", "memory", "compute", "paramsBillions", "method", "N", "T", "VRAM", "SDXL", "xlsx", "SUM", "ROUND",
      // serving abbreviations and architectures (issue 31), a scenario field (issue 30), and the config names of MLA's ranks
      "KV", "MLA", "TTFT", "TPOT", "FP8", "FP16", "Ada", "Hopper", "inStock", "kv", "lora", "rank", "qk", "rope", "head", "dim");

  private static final String SOURCE_HEADING = Messages.of("xlsx", Lang.ZH).text("bill.source");
  private static final Pattern LATIN = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
  /** What a reader types as it is: an option ("--top 0"), a route ("/api/vendors"), a file name ("gpurent.yaml"). */
  private static final Pattern TYPED = Pattern.compile("--[a-z][a-z-]*|/api/[a-z/{}]*|(?:/[\\w.-]+){2,}|[\\w.-]+\\.(?:yaml|xlsx|csv|json)");

  static Path root;
  static final List<JsonObject> pages = new ArrayList<>();
  /** Each scenario's text as `rank --lang zh` prints it, the fleet's advice, and the vendors' progress lines. */
  static final Map<String, String> texts = new LinkedHashMap<>();
  /** Every text cell of every scenario's workbook. */
  static final List<String> cells = new ArrayList<>();
  static final Set<String> names = new TreeSet<>(ALLOWED);

  @BeforeAll
  static void rankEveryShippedScenarioInChinese() throws Exception {
    root = SampleRootTest.build();
    List<Path> scenarios;
    try (Stream<Path> s = Files.list(Path.of("config/scenarios"))) {
      scenarios = s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    StringWriter progress = new StringWriter();
    try (Workspace ws = new Workspace(root)) {
      QuoteBook book = ws.quoteBook(null, false, true, new PrintWriter(progress, true), Lang.ZH, false);
      texts.put("progress", progress.toString());
      CostModel model = new CostModel(ws.catalog, ws.rules);
      for (Path f : scenarios) {
        var read = new ScenarioReader(ws.catalog).read(YamlFiles.load(f));
        for (boolean ref : new boolean[] {false, true}) {
          Ranking r = model.rank(read.withConstraints(read.constraints().withIncludeReference(ref)), book);
          String key = f.getFileName() + (ref ? " --include-reference" : "");
          texts.put(key, RankingText.render(r, 0, Lang.ZH, true));
          Map<String, Object> page = Localizer.page(r.toMap(), Lang.ZH);
          pages.add(new JsonObject(page));
          try (XSSFWorkbook wb = RankingXlsx.workbook(page, Lang.ZH)) {
            for (Sheet sheet : wb) {
              cells.add(sheet.getSheetName());
              // the source column cites a document as its publisher wrote it (a URL, a file and row): a citation, not our words
              Set<Integer> sources = new TreeSet<>();
              for (Row row : sheet) {
                for (Cell c : row) {
                  if (c.getCellType() != CellType.STRING) continue;
                  if (c.getStringCellValue().equals(SOURCE_HEADING)) sources.add(c.getColumnIndex());
                  else if (!sources.contains(c.getColumnIndex())) cells.add(c.getStringCellValue());
                }
              }
            }
          }
        }
      }
      Path fleet = Path.of("config/scenarios/fleets/sdxl-a100.yaml");
      Advice advice = Advice.advise(new FleetReader(ws.catalog).read(YamlFiles.load(fleet)), book, ws.catalog);
      texts.put("fleets/sdxl-a100.yaml", AdviceText.render(advice, Lang.ZH));
      pages.add(new JsonObject(Localizer.page(advice.toMap(), Lang.ZH)));
    }
    // the CLI's own lines around a ranking: "wrote ... sheets"
    Path xlsx = Files.createTempDirectory("gpurent-zh").resolve("guide.xlsx");
    CliTest.Result r = CliTest.run("rank", "--root=" + root, "--lang", "zh", "--xlsx", xlsx.toString(),
        "config/scenarios/guide-template.yaml");
    assertEquals(0, r.status(), r.err());
    texts.put("rank --xlsx", r.out() + r.err());
    for (String line : Files.readAllLines(Path.of("config/gpurent.yaml"))) {
      if (line.trim().startsWith("provider:")) words(line.trim().substring("provider:".length()), names);
    }
    for (dev.gpurent.catalog.Gpu g : dev.gpurent.catalog.GpuCatalog.load(Path.of("config/gpus.yaml")).all()) {
      words(g.name(), names);
      words(g.id(), names);  // a card's id is a name too (why.machine.* names the card by it: "2 x a10")
      words(g.interconnect().label(), names);
    }
    for (JsonObject page : pages) walk(page, null, names, new ArrayList<>());
  }

  @Test
  void every_chinese_template_is_chinese_but_for_names_units_and_what_a_reader_types() throws Exception {
    List<String> bundles;
    try (Stream<Path> files = Files.list(Path.of("src/main/resources/messages"))) {
      bundles = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("_zh.properties"))
          .map(n -> n.substring(0, n.length() - "_zh.properties".length())).sorted().toList();
    }
    assertTrue(bundles.size() >= 6, bundles.toString());
    List<String> english = new ArrayList<>();
    int templates = 0;
    for (String b : bundles) {
      Messages zh = Messages.of(b, Lang.ZH);
      for (String code : new TreeSet<>(zh.codes())) {
        templates++;
        // the arguments are filled in later and walked in the rankings below
        String text = zh.template(code).replaceAll("\\{[^}]*}", "");
        Set<String> latin = latin(text);
        latin.removeAll(names);
        if (!latin.isEmpty()) english.add(b + ": " + code + " " + latin);
      }
    }
    assertTrue(templates > 300, "templates walked: " + templates);
    assertEquals(List.of(), english);
  }

  @Test
  void no_latin_word_but_a_name_reaches_the_chinese_ranking() {
    List<String> sentences = new ArrayList<>();
    for (JsonObject page : pages) {
      assertEquals("zh", page.getString("lang"));
      walk(page, null, new TreeSet<>(), sentences);
    }
    assertTrue(sentences.size() > 500, "the pages hold text: " + sentences.size());
    // Every kind of text is on the pages read: a gap's reason, an unranked vendor's, the reference's note, a mixed plan or why none.
    assertTrue(pages.stream().filter(p -> p.containsKey("plans")).anyMatch(p -> p.getJsonArray("plans").stream()
        .map(JsonObject.class::cast).anyMatch(x -> !x.getJsonArray("gaps").isEmpty())), "a plan with gaps");
    assertTrue(pages.stream().anyMatch(p -> p.containsKey("unavailable") && !p.getJsonArray("unavailable").isEmpty()), "an unranked vendor");
    assertTrue(pages.stream().anyMatch(p -> !p.getString("referenceNote", "").isEmpty()), "a reference note");
    assertTrue(pages.stream().anyMatch(p -> p.getJsonObject("mixed") != null), "a mixed plan");
    // the guide's reference is named in Chinese where it is shown (its displayName and the ranking's reference)
    assertTrue(pages.toString().contains("指南参考价（并非真实厂商）"), "the reference's name");
    assertTrue(!pages.toString().contains("Guide reference prices"), "no English name of the reference");
    assertEquals(List.of(), english(sentences));
  }

  @Test
  void no_latin_word_but_a_name_in_the_chinese_text_output_and_its_progress_lines() {
    List<String> lines = new ArrayList<>();
    texts.values().forEach(t -> lines.addAll(t.lines().filter(l -> !l.isBlank()).toList()));
    assertTrue(lines.size() > 300, "lines walked: " + lines.size());
    String all = String.join("\n", texts.values());
    // the FX line names its publisher and day, never the file it was read from; amounts in one form; units in Chinese
    assertTrue(all.contains("  汇率：1 USD = 7.24049 CNY（欧洲央行欧元参考汇率 2025-05-09）"), "the fx line");
    assertTrue(all.contains("gpurent：汇率 欧洲央行欧元参考汇率 2025-05-09"), "the progress's fx line");
    assertTrue(!all.contains("shared/data"), "no path to the data");
    // guide template with the reference ranked: 5000.00 a month, 12 months = 60,000.00, written as money like the monthly figure
    assertTrue(all.contains("#1 guide-reference (指南参考价（并非真实厂商）)：每月 ¥5,000.00，12 个月共 ¥60,000.00；"), "the reference's plan");
    assertTrue(all.contains("/小时"), "hours in Chinese");
    assertTrue(all.contains("已写入 ") && all.contains("张工作表"), "the wrote line");
    assertEquals(List.of(), english(lines));
  }

  @Test
  void no_latin_word_but_a_name_in_the_chinese_workbooks() {
    assertTrue(cells.size() > 1000, "cells walked: " + cells.size());
    assertEquals(List.of(), english(cells));
  }

  @Test
  void the_scenario_readers_own_reasons_are_in_chinese_too() throws Exception {
    var catalog = dev.gpurent.catalog.GpuCatalog.load(Path.of("config/gpus.yaml"));
    var e = org.junit.jupiter.api.Assertions.assertThrows(dev.gpurent.cost.InvalidInputException.class,
        () -> new ScenarioReader(catalog).read(Map.of("workloads", List.of(), "currency", "CNYX", "loadBalancers", 1.5)));
    List<String> zh = e.problems().stream().map(p -> p.field() + ": " + Localizer.text(p.message(), Lang.ZH)).sorted().toList();
    assertEquals(List.of("currency: 必须是 3 个字母的 ISO 货币代码，实际为 'CNYX'", "loadBalancers: 必须是整数", "workloads: 至少需要一个工作负载"), zh);
  }

  @Test
  void the_chinese_page_uses_the_guides_words() {
    String all = pages.toString();
    for (String term : List.of("推理GPU", "微调GPU", "对象存储", "公网带宽", "负载均衡", "包月", "按量计费", "显存", "余量")) {
      assertTrue(all.contains(term), term);
    }
  }

  /** Each text with a Latin word that is not a name, with the words (at most 30, each once). */
  private static List<String> english(List<String> texts) {
    List<String> english = new ArrayList<>();
    for (String t : texts) {
      Set<String> latin = latin(t);
      latin.removeAll(names);
      if (!latin.isEmpty()) english.add(latin + " in: " + t.substring(0, Math.min(t.length(), 160)));
    }
    return english.stream().distinct().limit(30).toList();
  }

  private static Set<String> latin(String text) {
    Set<String> latin = new TreeSet<>();
    words(TYPED.matcher(text).replaceAll(" "), latin);
    return latin;
  }

  /** Names from name fields, sentences from the rest (and every element of a list of sentences). */
  private static void walk(Object v, String key, Set<String> names, List<String> texts) {
    if (v instanceof JsonObject o) {
      for (String k : o.fieldNames()) walk(o.getValue(k), k, names, texts);
    } else if (v instanceof JsonArray a) {
      for (Object x : a) walk(x, key, names, texts);
    } else if (v instanceof String s && !s.isEmpty()) {
      if (key != null && NAMES_SHOWN.contains(key)) words(s, names);
      else if (key == null || !NAME_FIELDS.contains(key)) texts.add(s);
    }
  }

  private static void words(String s, Set<String> into) {
    Matcher m = LATIN.matcher(s);
    while (m.find()) into.add(m.group());
  }
}
