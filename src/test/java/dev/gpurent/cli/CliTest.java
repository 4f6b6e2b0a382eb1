package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Main;
import dev.gpurent.adapter.VendorDefinition;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user meets it: tables, JSON, CSV, and one clear line for bad input. */
class CliTest {

  record Result(int status, String out, String err) {}

  /**
   * A root of its own (config copied, so that the last-good cache lands in a temporary folder)
   * and an adapters folder holding only the guide's reference sheet: no test reaches for a real vendor.
   */
  static String guideOnly() {
    try {
      Path root = Files.createTempDirectory("gpurent");
      Files.createDirectories(root.resolve("config"));
      Files.copy(Path.of("config/gpurent.yaml"), root.resolve("config/gpurent.yaml"));
      Files.copy(Path.of("config/gpus.yaml"), root.resolve("config/gpus.yaml"));
      Files.copy(Path.of("config/models.yaml"), root.resolve("config/models.yaml"));
      Files.copy(Path.of("config/throughput.yaml"), root.resolve("config/throughput.yaml"));
      Files.copy(Path.of("config/regions.yaml"), root.resolve("config/regions.yaml"));
      Path dir = Files.createDirectories(root.resolve("adapters"));
      Files.copy(Path.of("adapters/guide-reference.yaml"), dir.resolve("guide-reference.yaml"));
      return root.toAbsolutePath().toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter(), err = new StringWriter();
    int status = Main.run(new PrintWriter(out), new PrintWriter(err), args);
    return new Result(status, out.toString(), err.toString());
  }

  @Test
  void ranks_the_guide_template_as_a_table() {
    Result r = run("rank", "--root=" + guideOnly(), "--include-reference", "config/scenarios/guide-template.yaml");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("#1 guide-reference (Guide reference prices (not a real vendor)): 5000.00 CNY a month, 60000.00 over 12 months"), r.out());
    assertTrue(r.out().matches("(?s).*inference GPU +NVIDIA GeForce RTX 4090 \\(rtx-4090, cn\\) +2 card-month +1500\\.00/card-month +3000\\.00 +monthly.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  total +5000\\.00 +CNY\\n.*"), r.out());
  }

  @Test
  void ranks_the_guide_template_in_chinese_with_the_guides_headings() {
    Result r = run("rank", "--root=" + guideOnly(), "--lang", "zh", "--include-reference", "config/scenarios/guide-template.yaml");
    assertEquals(0, r.status(), r.err());
    // the reference named in Chinese; the 12 months' total written as money, like the month's beside it (5000.00 x 12)
    assertTrue(r.out().contains("#1 guide-reference (指南参考价（并非真实厂商）)：每月 ¥5,000.00，12 个月共 ¥60,000.00"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  项目 +规格 +数量 +单价 +月费用 +备注\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  推理GPU +NVIDIA GeForce RTX 4090 \\(rtx-4090, cn\\) +2 卡·月 +1500\\.00/卡·月 +3000\\.00 +包月\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  微调GPU +NVIDIA A100 40GB SXM \\(a100-40g-sxm, cn\\) +100 卡·小时 +12\\.00/卡·小时 +1200\\.00 +按量计费，1 卡 x 每卡每月 100 小时\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  对象存储 +标准型 +2000 GB·月 +0\\.10/GB·月 +200\\.00\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  公网带宽 +按流量 +500 GB +0\\.80/GB +400\\.00\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  负载均衡 +基础型 +1 月 +200\\.00/月 +200\\.00\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  合计 +5000\\.00 +CNY\\n.*"), r.out());
  }

  @Test
  void ranks_as_json_and_csv() {
    Result json = run("rank", "--root=" + guideOnly(), "--include-reference", "--json", "config/scenarios/team-large.yaml");
    assertEquals(0, json.status(), json.err());
    JsonObject best = new JsonObject(json.out()).getJsonArray("plans").getJsonObject(0);
    assertEquals("guide-reference", best.getString("vendor"));
    assertEquals("11500.00", best.getString("monthlyTotal"));
    Result csv = run("rank", "--root=" + guideOnly(), "--include-reference", "--csv", "config/scenarios/team-small.yaml");
    assertEquals(0, csv.status(), csv.err());
    String[] lines = csv.out().split("\r\n");
    assertEquals("rank,vendor,item,spec,quantity,unit_price,unit,per_month,currency,note,source,fx,vendor_monthly_total,vendor_horizon_total,priced_by,plan_complete,plan_dated,upfront", lines[0]);
    assertTrue(lines[1].startsWith("1,guide-reference,inference GPU,\"NVIDIA GeForce RTX 4090 (rtx-4090, cn)\",1,1500.00,card-month,1500.00,CNY,monthly,"), lines[1]);
  }

  @Test
  void advises_the_sdxl_fleet() {
    Result r = run("advise", "--root=" + guideOnly(), "--include-reference", "config/scenarios/fleets/sdxl-a100.yaml");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("Recommended: 6 x NVIDIA GeForce RTX 4090 at guide-reference (monthly), 9000.00 CNY a month"), r.out());
    assertTrue(r.out().contains("Saves: 21000.00 CNY a month"), r.out());
  }

  @Test
  void lists_quotes_filtered_and_converted(@TempDir Path dir) throws Exception {
    String root = guideOnly();
    VendorDefinition lambda = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
    Files.writeString(Path.of(root, "adapters/lambda.yaml"),
        lambda.config().copy().put("source", Path.of("../shared/data/skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv")
            .toAbsolutePath().toString()).encodePrettily());
    Result r = run("quotes", "--root=" + root, "--gpu", "NVIDIA H100 SXM", "--vendor", "lambda", "--currency", "cny", "--limit", "2");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.err().contains("gpurent: lambda: 391 quotes, fresh"), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(4, lines.size(), r.out());
    assertTrue(lines.get(1).matches("lambda +\\S+ +gpu_\\dx_h100_sxm5 +h100-sxm +\\d +on-demand +\\d+\\.\\d{2,4} CNY +hour +undated"), lines.get(1));
    assertTrue(lines.get(3).endsWith("quotes, 2 shown (--limit 0 for all); converted with fallback table (ECB reference rates of 2025-05-09)"),
        lines.get(3));
    Result unknown = run("quotes", "--root=" + root, "--gpu", "RTX 9999");
    assertEquals(2, unknown.status());
    assertEquals("gpurent: --gpu: unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards\n", unknown.err());
  }

  @Test
  void sizes_a_7b_model_for_20_qps() {
    Result r = run("sizing", "--params", "7", "--qps", "20", "--gpu", "rtx-4090,v100-16g");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().startsWith("VRAM need: 7B x 2 B (fp16) x 1.2 = 16.8 GB\n"), r.out());
    assertTrue(r.out().matches("(?s).*NVIDIA GeForce RTX 4090 +24 GiB +1 +13 +65%.*"), r.out());
    assertTrue(r.out().matches("(?s).*NVIDIA V100 16GB SXM2 +16 GiB +1 +15 +98%.*"), "a 16 GiB card is 17.2 GB, so 16.8 GB fits at 98%: " + r.out());
  }

  @Test
  void a_sizing_error_names_the_option_typed() {
    Result r = run("sizing", "--params", "-7");
    assertEquals(2, r.status(), r.err());
    assertEquals("gpurent: --params: must be > 0, got -7\n", r.err());
    Result q = run("sizing", "--params", "7", "--qps", "0");
    assertEquals("gpurent: --qps: must be > 0, got 0\n", q.err());
  }

  @Test
  void a_long_card_name_keeps_the_sizing_table_in_columns() {
    Result r = run("sizing", "--params", "7", "--gpu", "rtx-4090,rtx-pro-6000");
    assertEquals(0, r.status(), r.err());
    List<String> table = r.out().lines().skip(2).toList();
    int memoryEnds = table.get(0).indexOf("memory") + "memory".length();
    for (String row : table) assertEquals(' ', row.charAt(memoryEnds), "the memory column ends at one place: " + r.out());
    assertTrue(table.stream().anyMatch(l -> l.startsWith("NVIDIA RTX PRO 6000")), r.out());
  }

  @Test
  void reports_bad_input_in_one_line_with_status_2(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "workloads:\n  - kind: inference\n    paramsBillions: 7\n    peakQps: -1\n    secondsPerRequest: 2\n    concurrentPerCard: 4\n");
    Result r = run("rank", "--root=" + guideOnly(), bad.toString());
    assertEquals(2, r.status());
    assertEquals("gpurent: workloads[0].peakQps: must be > 0, got -1\n", r.err());
    Files.writeString(bad, "workloads: [\n");
    Result malformed = run("rank", "--root=" + guideOnly(), bad.toString());
    assertEquals(2, malformed.status());
    assertTrue(malformed.err().startsWith("gpurent: " + bad + ":2:1: malformed YAML"), malformed.err());
    assertEquals(1, malformed.err().lines().count());
    Result missing = run("rank", "--root=" + guideOnly(), dir.resolve("nope.yaml").toString());
    assertEquals(2, missing.status());
    assertEquals("gpurent: " + dir.resolve("nope.yaml") + ": no such file\n", missing.err());
    Result unknownOption = run("rank", "--root=" + guideOnly(), "--frobnicate", "x.yaml");
    assertEquals(2, unknownOption.status());
  }

  /** A guide-only root plus "guide-copy", the reference sheet as a real vendor at 0.9 x its prices: two plans to rank. */
  static String twoVendors() throws java.io.IOException {
    String root = guideOnly();
    String sheet = Files.readString(Path.of("adapters/guide-reference.yaml"));
    Files.writeString(Path.of(root, "adapters/guide-copy.yaml"), sheet.replace("vendor: guide-reference", "vendor: guide-copy")
        .replace("reference: true ", "reference: false").replace("terms:\n", "terms:\n  discount: 0.9\n"));
    return root;
  }

  @Test
  void top_limits_the_table_json_and_csv_alike() throws Exception {
    String root = twoVendors();
    String scenario = "config/scenarios/guide-template.yaml";
    Result all = run("rank", "--root=" + root, "--include-reference", "--json", scenario);
    assertEquals(0, all.status(), all.err());
    JsonObject whole = new JsonObject(all.out());
    assertEquals(List.of("guide-copy", "guide-reference"), whole.getJsonArray("plans").stream()
        .map(p -> ((JsonObject) p).getString("vendor")).toList(), "without --top, JSON keeps every plan");
    assertEquals("4580.00", whole.getJsonArray("plans").getJsonObject(0).getString("monthlyTotal"), "4200 of GPUs x 0.9, and 800 of services");
    JsonObject one = new JsonObject(run("rank", "--root=" + root, "--include-reference", "--json", "--top", "1", scenario).out());
    assertEquals(1, one.getJsonArray("plans").size());
    assertEquals("guide-copy", one.getJsonArray("plans").getJsonObject(0).getString("vendor"));
    assertEquals(whole.getString("mixedNote"), one.getString("mixedNote"), "the parts beside the plans stay");
    assertEquals(whole.getJsonArray("unavailable"), one.getJsonArray("unavailable"));

    Result csv = run("rank", "--root=" + root, "--include-reference", "--csv", "--top=1", scenario);
    assertEquals(0, csv.status(), csv.err());
    List<String> rows = csv.out().lines().skip(1).toList();
    assertEquals(5, rows.size(), csv.out());
    assertTrue(rows.stream().allMatch(l -> l.startsWith("1,guide-copy,")), csv.out());
    assertTrue(run("rank", "--root=" + root, "--include-reference", "--csv", scenario).out().contains("\n2,guide-reference,"));

    Result table = run("rank", "--root=" + root, "--include-reference", "--top", "1", scenario);
    assertTrue(table.out().contains("\n#1 guide-copy "), table.out());
    assertFalse(table.out().contains("#2 "), table.out());
    assertTrue(table.out().contains("(1 more vendors; --top 0 shows all)"), table.out());
  }

  @Test
  void refuses_a_negative_count_in_one_line() {
    String root = guideOnly();
    Result top = run("rank", "--root=" + root, "--top", "-1", "config/scenarios/guide-template.yaml");
    assertEquals(2, top.status());
    assertEquals("gpurent: --top: must be 0 (all vendors) or more, got -1\n", top.err(), "refused before any vendor is fetched");
    assertEquals("", top.out());
    Result limit = run("quotes", "--root=" + root, "--limit=-5");
    assertEquals(2, limit.status());
    assertEquals("gpurent: --limit: must be 0 (all rows) or more, got -5\n", limit.err());
  }

  @Test
  void refuses_an_unknown_vendor_in_one_line_naming_the_known_ones() throws Exception {
    String root = twoVendors();
    Result vendor = run("quotes", "--root=" + root, "--vendor", "nope");
    assertEquals(2, vendor.status());
    assertEquals("gpurent: --vendor: unknown vendor 'nope'; known: guide-copy, guide-reference\n", vendor.err());
    assertEquals("", vendor.out());
    Result ranked = run("rank", "--root=" + root, "--exclude-vendors=guide-copy,guide-refrence", "config/scenarios/guide-template.yaml");
    assertEquals(2, ranked.status());
    assertEquals("gpurent: --exclude-vendors: unknown vendor 'guide-refrence'; known: guide-copy, guide-reference\n", ranked.err());
    Result billing = run("quotes", "--root=" + root, "--billing", "weekly");
    assertEquals(2, billing.status());
    assertTrue(billing.err().startsWith("gpurent: --billing: unknown billing mode 'weekly'; known: on-demand, spot, "), billing.err());
  }

  @Test
  void prints_prices_to_4_decimals_rates_to_6_digits_and_times_to_the_second() throws Exception {
    String root = guideOnly();
    Result r = run("quotes", "--root=" + root, "--gpu", "rtx-4090", "--billing", "monthly", "--currency", "usd");
    assertEquals(0, r.status(), r.err());
    // 1500 CNY at the fallback table's 1.1252 USD / 8.1470 CNY per EUR is 207.16828280348595... USD
    assertTrue(r.out().matches("(?s).*guide-reference +cn +rtx-4090 +rtx-4090 +1 +monthly +207\\.1683 USD +month +fresh\n.*"), r.out());
    Result json = run("quotes", "--root=" + root, "--gpu", "rtx-4090", "--billing", "monthly", "--currency", "usd", "--json");
    JsonObject q = new io.vertx.core.json.JsonArray(json.out()).stream().map(JsonObject.class::cast)
        .filter(o -> o.getString("offer").equals("rtx-4090")).findFirst().orElseThrow(() -> new AssertionError(json.out()));
    assertTrue(q.getString("converted").startsWith("207.168282803"), "JSON keeps every digit: " + q.getString("converted"));
    assertEquals("1 CNY = 0.138112 USD (fallback table (ECB reference rates of 2025-05-09))", q.getString("fx"));
    Result rank = run("rank", "--root=" + root, "--include-reference", "config/scenarios/guide-template.yaml");
    String first = rank.out().lines().findFirst().orElse("");
    assertTrue(first.matches("guide template \\(5\\.1\\) - CNY, 12-month horizon, quotes of \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), first);
  }
}
