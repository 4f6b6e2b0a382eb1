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
      "KV", "MLA", "TTFT", "TPOT", "FP8", "FP16", "Ada", "Hopper", "inStock", "kv", "lora", "rank", "qk", "rope", "head", "dim",
      // a quote sheet's file formats and size (issue 33)
      "MB", "CSV", "csv", "xls", "Excel");

  private static final String SOURCE_HEADING = Messages.of("xlsx", Lang.ZH).text("bill.source");
  private static final Pattern LATIN = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
  /** What a reader types as it is: an option ("--top 0"), a route ("/api/vendors"), a file name ("gpurent.yaml"). */
  private static final Pattern TYPED = Pattern.compile("--[a-z][a-z-]*|/api/[a-z/{}]*|(?:/[\\w.-]+){2,}|[\\w.-]+\\.(?:yaml|xlsx|csv|json)"
      // a spreadsheet's cell reference, as a formula writes it: 报价!I2
      + "|[\\w\\p{IsHan}]+![A-Z]{1,3}\\d+");
  /** The source's (or its parser's) own words, quoted as said: 「...」 (issue 33: a vendor's last error, a sheet's own text). */
  private static final Pattern QUOTED = Pattern.compile("「[^」]*」");

  static Path root;
  static final List<JsonObject> pages = new ArrayList<>();
  /** Each scenario's text as `rank --lang zh` prints it, the fleet's advice, and the vendors' progress lines. */
  static final Map<String, String> texts = new LinkedHashMap<>();
  /** Every text cell of every scenario's workbook. */
  static final List<String> cells = new ArrayList<>();
  static final Set<String> names = new TreeSet<>(ALLOWED);
  /** A preset sized by model (models/chat-llama-8b.yaml) ranked in Chinese: its page and its text. */
  static JsonObject chatPage;
  static String chatText;

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
        var read = new ScenarioReader(ws.catalog, ws.models, ScenarioReader.DEFAULT_MAX_WORKLOADS).read(YamlFiles.load(f));
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
      Ranking chat = model.rank(new ScenarioReader(ws.catalog, ws.models, ScenarioReader.DEFAULT_MAX_WORKLOADS)
          .read(YamlFiles.load(Path.of("config/scenarios/models/chat-llama-8b.yaml"))), book);
      chatPage = new JsonObject(Localizer.page(chat.toMap(), Lang.ZH));
      chatText = RankingText.render(chat, 0, Lang.ZH, true);
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
    // a model's name is a name too (a preset sized by model is named after it: "Llama 3.1 8B 对话")
    for (dev.gpurent.catalog.Model m : dev.gpurent.catalog.ModelCatalog.besides(Path.of("config/gpus.yaml")).all()) words(m.id(), names);
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

  @Test
  void a_preset_sized_by_model_and_its_workload_are_named_in_chinese_and_the_ids_stay() {
    JsonObject json = chatPage;
    assertEquals("Llama 3.1 8B 对话，按模型估算", json.getString("scenario"));
    // the id a client keys on stays as the scenario file wrote it; the sentences name the workload in Chinese
    assertEquals("chat", json.getJsonArray("plans").getJsonObject(0).getJsonArray("placements").getJsonObject(0).getString("workload"));
    String sentences = json.getJsonArray("plans").stream().map(JsonObject.class::cast)
        .map(p -> p.getJsonArray("warnings").encode()).reduce("", String::concat);
    assertTrue(sentences.contains("数据不足：对话 在 "), sentences.substring(0, Math.min(300, sentences.length())));
    assertTrue(!json.encode().contains("sized by model") && !sentences.contains("chat"), "no English name of the preset or its workload");
    assertTrue(chatText.startsWith("Llama 3.1 8B 对话，按模型估算 - CNY"), chatText.substring(0, 80));
    assertTrue(chatText.contains("  对话 的理由：") && !chatText.contains("chat"), "the text names the workload in Chinese");
  }

  @Test
  void the_sizing_tables_headings_and_lines_are_chinese() {
    CliTest.Result guide = CliTest.run("sizing", "--lang", "zh", "--params", "7", "--qps", "20", "--gpu", "rtx-4090,l40s,v100-16g");
    assertEquals(0, guide.status(), guide.err());
    // 20 QPS x 1.3 headroom / 2 QPS per 4090 (N/T = 4/2) = 13 cards; 7B x 2 B x 1.2 = 16.8 GB of a 24 GiB card = 65% (as in README)
    assertEquals(List.of("显存需求：7B x 2 B（fp16）x 1.2 = 16.8 GB",
        "负载：峰值 20 QPS；NVIDIA GeForce RTX 4090 每卡 2 QPS（N/T = 4/2），x 1.30 余量",
        "卡型                       显存  按显存  卡数  显存占用  每副本 QPS",
        "NVIDIA GeForce RTX 4090  24 GiB       1    13       65%        2.00"), guide.out().lines().limit(4).toList());
    assertEquals(List.of(), english(guide.out().lines().toList()));
    CliTest.Result model = CliTest.run("sizing", "--lang", "zh", "--model", "llama3.1:8b", "--context", "4096", "--concurrent", "8",
        "--input-tokens", "1000", "--output-tokens", "500", "--rps", "1", "--gpu", "rtx-4090");
    assertEquals(0, model.status(), model.err());
    // 1 request/s x 500 output tokens; 730 h x 3600 s x 1000 input tokens = 2628 M input a month, half that output
    List<String> ours = model.out().lines().filter(l -> !l.startsWith("模型：") && !l.startsWith("  ")).toList();
    assertEquals(List.of("负载：每秒 1 个请求 x 每个 500 输出词元 = 每秒 500 输出词元（每个请求 1000 输入词元），x 1.30 余量",
        "每月词元：输入 2628 百万，输出 1314 百万（730 小时）",
        "卡型                       显存  按显存  卡数  显存占用  每卡词元/秒  速度",
        "NVIDIA GeForce RTX 4090  24 GiB       1     1       88%       1872.1  估算",
        "速度（满载时每卡每秒输出词元）："), ours.subList(1, 6));
    // the model's line cites its architecture file and the speeds their benchmarks: sources, not our words
    assertEquals(List.of(), english(ours));
  }

  @Test
  void the_quotes_table_its_summary_and_the_vendors_progress_are_chinese() {
    CliTest.Result r = CliTest.run("quotes", "--root=" + root, "--lang", "zh", "--gpu", "H100 SXM", "--currency", "CNY", "--limit", "3");
    assertEquals(0, r.status(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.get(0).matches("厂商 +地域 +规格 +卡型 +卡数 +计费模式 +价格 +计价单位 +新鲜度"), lines.get(0));
    // README's English example: "919 quotes, 3 shown (--limit 0 for all); converted with ECB euro reference rates 2025-05-09"
    assertEquals("919 条报价，显示 3 条（--limit 0 显示全部）；按 欧洲央行欧元参考汇率 2025-05-09 换算", lines.get(lines.size() - 1));
    assertTrue(lines.get(1).contains(" 竞价实例 ") && lines.get(1).contains(" 小时 "), "billing and unit in Chinese: " + lines.get(1));
    List<String> ours = new ArrayList<>(List.of(lines.get(0), lines.get(lines.size() - 1)));
    ours.addAll(r.err().lines().toList());
    assertEquals(List.of(), english(ours));
  }

  @Test
  void the_vendors_table_its_statuses_and_summary_are_chinese() {
    CliTest.Result r = CliTest.run("vendors", "--root=" + root, "--lang", "zh");
    assertEquals(0, r.status(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.get(0).matches("厂商 +类型 +币种 +报价 +规格 +卡型 +地域 +计费模式 / 状态"), lines.get(0));
    // README's English line: "68 vendors configured, 62 with quotes: 65 GPU models, 3990 offers, 8032 quotes"
    assertEquals("已配置 68 家厂商，62 家有报价：65 种卡型，3990 个规格，8032 条报价", lines.get(lines.size() - 1));
    assertTrue(lines.contains("aws-spot         aws-spot-js          USD      0                    已停用"), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("aethir ") && l.endsWith("没有报价：每条报价都被拒绝（--refused aethir）")), r.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("alibaba-cloud ") && l.endsWith("  按量计费")), r.out());
    // every line's own words are Chinese: vendor ids, kinds, currencies and the source's quoted words aside
    List<String> ours = lines.stream().map(l -> l.replaceFirst("^\\S+ +\\S+ +[A-Z]{3} ", "")).toList();
    assertEquals(List.of(), english(ours));
  }

  @Test
  void a_quote_sheets_problems_and_warnings_are_chinese_with_their_cells() throws Exception {
    java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
    Path dir = Files.createTempDirectory("gpurent-zh-sheet");
    Path adapters = Files.createDirectories(dir.resolve("adapters"));
    byte[] good = dev.gpurent.quotesheet.Sheets.guideQuote(Lang.ZH, today);
    Path bad = dir.resolve("bad.xlsx");
    Files.write(bad, dev.gpurent.quotesheet.Sheets.edit(good, wb -> {
      dev.gpurent.quotesheet.Sheets.cell(wb.getSheetAt(0), 2, "I").setCellValue(-1500);
      dev.gpurent.quotesheet.Sheets.cell(wb.getSheetAt(0), 3, "H").setCellValue("随便");
      dev.gpurent.quotesheet.Sheets.cell(wb.getSheetAt(0), 3, "K").setBlank();
    }));
    CliTest.Result refused = CliTest.run("quote-sheet", "import", bad.toString(), "--vendor", "zh-quote", "--root=" + root,
        "--adapters", adapters.toString(), "--lang", "zh");
    assertEquals(2, refused.status(), refused.err());
    assertEquals(List.of("gpurent：报价!I2「价格」：必须大于 0，实际为 -1500",
        "gpurent：报价!H3「计费模式」：未知的计费模式「随便」；请填写 按量、包月、包年、3年 或 竞价",
        "gpurent：报价!K3「币种」：为空；此项必填",
        "gpurent：报价单中有 3 个问题；未写入任何内容"), refused.err().lines().toList());
    Path ok = dir.resolve("guide.xlsx");
    Files.write(ok, good);
    CliTest.Result imported = CliTest.run("quote-sheet", "import", ok.toString(), "--vendor", "zh-quote", "--root=" + root,
        "--adapters", adapters.toString(), "--lang", "zh");
    assertEquals(0, imported.status(), imported.err());
    assertTrue(imported.out().startsWith("已从 " + ok + " 导入 zh-quote 的 2 个报价规格（2 条报价）：已写入 "), imported.out());
    // the guide's "A100 40G" is two cards (SXM, PCIe): read as the SXM one, and the sender asked which
    assertEquals(List.of("gpurent：提示：报价!A3「GPU 型号」：「A100 40G」对应不止一种卡：已按 NVIDIA A100 40GB SXM（a100-40g-sxm）读取；"
        + "如果是另一种，请写出其名称：NVIDIA A100 40GB PCIe 或 NVIDIA A100 40GB SXM"), imported.err().lines().toList());
    List<String> lines = new ArrayList<>(refused.err().lines().toList());
    lines.addAll(imported.err().lines().toList());
    assertEquals(List.of(), english(lines));
  }

  @Test
  void a_vendors_last_error_is_quoted_in_a_chinese_sentence() throws Exception {
    // a vendor whose payload its parser refuses: Lambda's SkyPilot catalog with no catalog columns
    Path adapters = Files.createTempDirectory("gpurent-zh-broken");
    Path csv = Files.writeString(adapters.resolve("vms.csv"), "no,such,columns\n1,2,3\n");
    Files.writeString(adapters.resolve("lambda.yaml"), Files.readString(root.resolve("adapters/lambda.yaml"))
        .replaceFirst("(?m)^source: .*$", "source: " + csv));
    StringWriter progress = new StringWriter();
    try (Workspace ws = new Workspace(root)) {
      QuoteBook book = ws.quoteBook(adapters, false, true, new PrintWriter(progress, true), Lang.ZH, false);
      Ranking r = new CostModel(ws.catalog, ws.rules).rank(new ScenarioReader(ws.catalog)
          .read(YamlFiles.load(Path.of("config/scenarios/guide-template.yaml"))), book);
      String reason = new JsonObject(Localizer.page(r.toMap(), Lang.ZH)).getJsonArray("unavailable").getJsonObject(0).getString("reason");
      String said = "尚无报价：获取或校验失败，来源或其解析器的原话：「not a SkyPilot vms.csv: the header lacks InstanceType, "
          + "AcceleratorName, AcceleratorCount, Price, Region (header: no,such,columns)」";
      assertEquals(said, reason, "the ranking's (and the live ranking's) reason");
      assertEquals("gpurent：lambda：无法参与排名（" + said + "）", progress.toString().lines().findFirst().orElseThrow());
      assertTrue(RankingText.render(r, 0, Lang.ZH, true).contains("  lambda: " + said), "the text's Not ranked");
      assertEquals(List.of(), english(List.of(reason, progress.toString())));
    }
    // a refresh that failed while the last good quotes stay: the same quotation
    assertEquals("（刷新失败，沿用上次的报价；来源或其解析器的原话：「HTTP 503」）",
        Messages.of("report", Lang.ZH).text("progress.refreshFailed", "detail", "HTTP 503"));
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
    words(TYPED.matcher(QUOTED.matcher(text).replaceAll(" ")).replaceAll(" "), latin);
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
