package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * "No English on the zh page", held at the server: every shipped vendor's recorded payload ranked
 * in Chinese, and every text field of the rendered JSON (plans, bills, lines, explanations,
 * warnings, gaps, notes, the unranked and their reasons, the mixed plan, the reference) read for
 * Latin words. Only names may stay: those of vendors, cards and their interconnects, offers,
 * regions, workloads and fallback providers (read from the same JSON and config), units and abbreviations.
 */
class ChinesePageTest {

  /** Fields that carry names, ids, machine values or sources, not sentences. */
  static final Set<String> NAME_FIELDS = Set.of("vendor", "displayName", "region", "offer", "upstream", "gpu", "gpuName", "billing",
      "unit", "kind", "workload", "source", "fx", "pricedBy", "quotesAt", "priceDate", "scenario", "currency", "homeVendor", "lang",
      "discount", "monthlyTotal", "horizonTotal", "unitPrice", "perMonth", "savingsVsOnDemand", "savingsVsMonthly", "savingsVsBest");

  /** Units, abbreviations, config keys, routes and commands, and the proper names (APIs, products, sites) the vendors' notes cite. */
  static final Set<String> ALLOWED = Set.of("GPU", "QPS", "GB", "GiB", "TB", "h", "x", "B", "LoRA", "QLoRA", "OOM", "NVLink", "PCIe",
      "SXM", "fp16", "bf16", "fp32", "int8", "int4", "Mbit", "Gbit", "s", "API", "AWS", "Spot", "Advisor", "CPU", "vCPU", "ECS", "CVM",
      "OCI", "getdeploying", "com", "Cyclenerd", "pricing", "yml", "Google", "Cloud", "Billing", "Catalog", "Samsung", "SDS",
      "DescribePrice", "OriginalPrice", "InquiryPriceRunInstances", "GetUHostInstancePrice", "adapters", "ucloud", "uhost", "yaml",
      "Spheron", "Shadeform", "Prime", "Intellect", "config", "gpurent", "fallbacks", "requireComplete", "allowMultiNode", "true",
      "objectStorage", "egress", "ingress", "loadBalancer", "api", "vendors", "USD", "CNY", "EUR", "GBP", "JPY", "ECB");

  private static final Pattern LATIN = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

  static Path root;
  static final List<JsonObject> pages = new ArrayList<>();

  @BeforeAll
  static void rankTheSampleRootInChinese() throws Exception {
    root = SampleRootTest.build();
    for (String scenario : List.of("config/scenarios/guide-template-open.yaml", "config/scenarios/team-large.yaml",
        "config/scenarios/team-small.yaml", "config/scenarios/guide-template.yaml")) {
      CliTest.Result r = CliTest.run("rank", "--root=" + root, "--json", "--lang", "zh", scenario);
      assertTrue(r.status() == 0 || r.status() == 1, r.status() + " " + r.err() + r.out());
      pages.add(new JsonObject(r.out()));
    }
  }

  @Test
  void no_latin_word_but_a_name_reaches_the_chinese_ranking() throws Exception {
    Set<String> names = new TreeSet<>(ALLOWED);
    for (String line : Files.readAllLines(Path.of("config/gpurent.yaml"))) {
      if (line.trim().startsWith("provider:")) words(line.trim().substring("provider:".length()), names);
    }
    for (dev.gpurent.catalog.Gpu g : dev.gpurent.catalog.GpuCatalog.load(Path.of("config/gpus.yaml")).all()) {
      words(g.name(), names);
      words(g.id(), names);  // a card's id is a name too (why.machine.* names the card by it: "2 x a10")
      words(g.interconnect().label(), names);
    }
    List<String> texts = new ArrayList<>();
    for (JsonObject page : pages) {
      assertEquals("zh", page.getString("lang"));
      walk(page, null, names, texts);
    }
    assertTrue(texts.size() > 500, "the pages hold text: " + texts.size());
    // Every kind of text is on the pages read: a gap's reason, an unranked vendor's, the reference's note, a mixed plan or why none.
    assertTrue(pages.stream().anyMatch(p -> p.getJsonArray("plans").stream().map(JsonObject.class::cast)
        .anyMatch(x -> !x.getJsonArray("gaps").isEmpty())), "a plan with gaps");
    assertTrue(pages.stream().anyMatch(p -> !p.getJsonArray("unavailable").isEmpty()), "an unranked vendor");
    assertTrue(pages.stream().anyMatch(p -> !p.getString("referenceNote").isEmpty()), "a reference note");
    assertTrue(pages.stream().anyMatch(p -> p.getJsonObject("mixed") != null), "a mixed plan");
    List<String> english = new ArrayList<>();
    for (String t : texts) {
      Set<String> latin = new TreeSet<>();
      words(t, latin);
      latin.removeAll(names);
      if (!latin.isEmpty()) english.add(latin + " in: " + t.substring(0, Math.min(t.length(), 160)));
    }
    assertEquals(List.of(), english.stream().distinct().limit(20).toList());
  }

  @Test
  void the_chinese_page_uses_the_guides_words() {
    String all = pages.toString();
    for (String term : List.of("推理GPU", "微调GPU", "对象存储", "公网带宽", "负载均衡", "包月", "按量计费", "显存", "余量")) {
      assertTrue(all.contains(term), term);
    }
  }

  /** Names from name fields, sentences from the rest (and every element of a list of sentences). */
  private static void walk(Object v, String key, Set<String> names, List<String> texts) {
    if (v instanceof JsonObject o) {
      for (String k : o.fieldNames()) walk(o.getValue(k), k, names, texts);
    } else if (v instanceof JsonArray a) {
      for (Object x : a) walk(x, key, names, texts);
    } else if (v instanceof String s && !s.isEmpty()) {
      if (key != null && NAME_FIELDS.contains(key)) words(s, names);
      else texts.add(s);
    }
  }

  private static void words(String s, Set<String> into) {
    Matcher m = LATIN.matcher(s);
    while (m.find()) into.add(m.group());
  }
}
