package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quotesheet.Sheets;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

/** quote-sheet template and import on the command line, and the round trip to a ranking. */
class QuoteSheetCommandTest {

  /** A root of its own with config copied and an empty adapters folder: the imported vendor is the only one. */
  static Path emptyRoot() throws Exception {
    Path root = Files.createTempDirectory("gpurent-qs");
    Files.createDirectories(root.resolve("config"));
    Files.copy(Path.of("config/gpurent.yaml"), root.resolve("config/gpurent.yaml"));
    Files.copy(Path.of("config/gpus.yaml"), root.resolve("config/gpus.yaml"));
    Files.copy(Path.of("config/regions.yaml"), root.resolve("config/regions.yaml"));
    Files.createDirectories(root.resolve("adapters"));
    return root;
  }

  static LocalDate today() {
    return LocalDate.now(ZoneOffset.UTC);
  }

  @Test
  void writes_a_chinese_template_with_headers_and_an_example_row() throws Exception {
    Path out = Files.createTempDirectory("qs").resolve("rfq.xlsx");
    CliTest.Result r = CliTest.run("quote-sheet", "template", "--lang", "zh", "-o", out.toString());
    assertEquals(0, r.status(), r.err());
    try (XSSFWorkbook wb = new XSSFWorkbook(new ByteArrayInputStream(Files.readAllBytes(out)))) {
      assertEquals(List.of("报价", "条款", "说明"), List.of(wb.getSheetName(0), wb.getSheetName(1), wb.getSheetName(2)));
      var header = wb.getSheetAt(0).getRow(0);
      assertEquals("GPU 型号", header.getCell(0).getStringCellValue());
      assertEquals("计费模式", header.getCell(7).getStringCellValue());
      assertEquals("有效期至", header.getCell(11).getStringCellValue());
      var example = wb.getSheetAt(0).getRow(1);
      assertEquals("RTX 4090", example.getCell(0).getStringCellValue());
      assertEquals("包月", example.getCell(7).getStringCellValue());
      assertEquals("1500", example.getCell(8).getStringCellValue());
      assertEquals(today().plusDays(30).toString(), example.getCell(11).getStringCellValue());
      var terms = wb.getSheetAt(1);
      assertEquals("项目", terms.getRow(0).getCell(0).getStringCellValue());
      assertEquals("对象存储（每 GB·月）", terms.getRow(2).getCell(0).getStringCellValue());
      assertEquals("0.1", terms.getRow(2).getCell(4).getStringCellValue(), "the example column");
      assertEquals("数据迁入（每 GB）", terms.getRow(6).getCell(0).getStringCellValue());
      assertEquals("带宽上限（Mbps）", terms.getRow(8).getCell(0).getStringCellValue());
    }
  }

  @Test
  void writes_the_offers_sheet_as_csv_in_english() throws Exception {
    Path out = Files.createTempDirectory("qs").resolve("offers.csv");
    CliTest.Result r = CliTest.run("quote-sheet", "template", "--format", "csv", "-o", out.toString());
    assertEquals(0, r.status(), r.err());
    List<String> lines = Files.readString(out).lines().toList();
    assertEquals("\uFEFFGPU model,GPUs per instance,vCPU,RAM (GiB),Region,Country (ISO code),Instance type,"
        + "Billing mode and term,Price,Price per,Currency,Valid until,Note,Target price to rank #1", lines.get(0));
    assertEquals("RTX 4090,1,16,64,cn-east,CN,EXAMPLE - replace this row,monthly,1500,month,CNY," + today().plusDays(30)
        + ",example only,", lines.get(1));
  }

  /** The round trip of issue 19: template, filled with the guide's 5.1 reference prices, imported, ranked. */
  @Test
  void ranks_the_guide_template_at_5000_cny_on_a_vendor_imported_from_a_filled_template() throws Exception {
    Path root = emptyRoot();
    Path blank = root.resolve("rfq.xlsx");
    assertEquals(0, CliTest.run("quote-sheet", "template", "--lang", "zh", "-o", blank.toString()).status());
    // the vendor opens the sheet the command wrote and types the guide's 5.1 prices in
    byte[] filled = Sheets.guideQuote(Files.readAllBytes(blank), dev.gpurent.text.Lang.ZH, today());
    Path sheet = root.resolve("guide-quote.xlsx");
    Files.write(sheet, filled);

    CliTest.Result imported = CliTest.run("quote-sheet", "import", sheet.toString(), "--vendor", "guide-quote",
        "--root=" + root);
    assertEquals(0, imported.status(), imported.err());
    assertTrue(imported.out().startsWith("imported 2 offers (2 quotes) of guide-quote from " + sheet), imported.out());
    Path yaml = root.resolve("adapters/guide-quote.yaml");
    assertTrue(Files.isRegularFile(root.resolve("adapters/guide-quote.quote.xlsx")));
    VendorDefinition def = VendorDefinition.load(yaml);
    assertEquals("static", def.kind());
    assertFalse(def.reference(), "a real vendor, ranked");
    assertEquals("Guide 5.1 prices as a quote", def.displayName());
    assertEquals("unknown", def.config().getJsonObject("terms").getString("ingressPerGb"), "an empty cell is unknown");
    assertEquals("unknown", def.config().getJsonObject("terms").getString("migrationInPerGb"));

    CliTest.Result ranked = CliTest.run("rank", "--root=" + root, "config/scenarios/guide-template.yaml");
    assertEquals(0, ranked.status(), ranked.err());
    assertTrue(ranked.out().contains("#1 guide-quote (Guide 5.1 prices as a quote): 5000.00 CNY a month, 60000.00 over 12 months"),
        ranked.out());
    assertTrue(ranked.out().matches("(?s).*\\n  total +5000\\.00 +CNY\\n.*"), ranked.out());

    // the same sheet under a second id: the import warns of the shared name, the ranking tells the two apart by id
    CliTest.Result twice = CliTest.run("quote-sheet", "import", sheet.toString(), "--vendor", "guide-quote-2", "--root=" + root);
    assertEquals(0, twice.status(), twice.err());
    assertTrue(twice.err().contains("gpurent: warning: the display name 'Guide 5.1 prices as a quote' is also vendor guide-quote's "
        + "(guide-quote.yaml): the two are shown with their ids"), twice.err());
    CliTest.Result both = CliTest.run("rank", "--root=" + root, "config/scenarios/guide-template.yaml");
    assertEquals(0, both.status(), both.err());
    assertTrue(both.out().contains("#1 guide-quote (Guide 5.1 prices as a quote (guide-quote)): 5000.00 CNY a month"), both.out());
    assertTrue(both.out().contains("#2 guide-quote-2 (Guide 5.1 prices as a quote (guide-quote-2)): 5000.00 CNY a month"), both.out());
  }

  @Test
  void refuses_a_bad_sheet_with_every_cell_named_and_writes_nothing() throws Exception {
    Path root = emptyRoot();
    byte[] bad = Sheets.edit(Sheets.guideQuote(dev.gpurent.text.Lang.EN, today()), wb -> {
      Sheets.cell(wb.getSheetAt(0), 2, "I").setCellValue("-1500");
      Sheets.cell(wb.getSheetAt(0), 3, "A").setCellValue("RTX 9999");
    });
    Path sheet = root.resolve("bad.xlsx");
    Files.write(sheet, bad);
    CliTest.Result r = CliTest.run("quote-sheet", "import", sheet.toString(), "--vendor", "bad-cloud", "--root=" + root);
    assertEquals(2, r.status());
    assertEquals(List.of(
        "gpurent: sheet offers, row 2, column I (Price): must be > 0, got -1500",
        "gpurent: sheet offers, row 3, column A (GPU model): unknown GPU 'RTX 9999'; see config/gpus.yaml for the known cards",
        "gpurent: 2 problems in the quote sheet; nothing was written"), r.err().lines().toList());
    try (var files = Files.list(root.resolve("adapters"))) {
      assertEquals(0, files.count(), "nothing written");
    }
  }

  @Test
  void refuses_the_20000_row_xfd_sheet_with_the_limit_named_exit_2() throws Exception {
    Path root = emptyRoot();
    Path sheet = root.resolve("xfd.xlsx");
    Files.write(sheet, Sheets.xfdAttack());
    CliTest.Result r = CliTest.run("quote-sheet", "import", sheet.toString(), "--vendor", "xfd-cloud", "--root=" + root);
    assertEquals(2, r.status());
    assertEquals(List.of(
        "gpurent: sheet offers, row 1, column XFD: past the limit of 100 columns (A to CV) a quote sheet may use; nothing more was read",
        "gpurent: 1 problem in the quote sheet; nothing was written"), r.err().lines().toList());
  }

  @Test
  void makes_a_sheet_for_a_vendor_with_the_price_at_which_it_would_rank_first() throws Exception {
    Path root = emptyRoot();
    Files.copy(Path.of("adapters/guide-reference.yaml"), root.resolve("adapters/guide-reference.yaml"));
    Files.copy(Path.of("src/test/resources/sheets/infer-cloud.yaml"), root.resolve("adapters/infer-cloud.yaml"));
    Path scenario = root.resolve("small.yaml");
    Files.writeString(scenario, Files.readString(Path.of("config/scenarios/team-small.yaml")) + "\nincludeReference: true\n");
    CliTest.Result ranked = CliTest.run("rank", "--root=" + root, "--json", scenario.toString());
    assertEquals(0, ranked.status(), ranked.err());
    io.vertx.core.json.JsonObject second = new io.vertx.core.json.JsonObject(ranked.out()).getJsonArray("plans").getJsonObject(1);
    String vendor = second.getString("vendor");
    io.vertx.core.json.JsonObject wins = second.getJsonObject("winsAt");
    assertTrue(wins.getBoolean("possible"), wins.encode());

    Path out = root.resolve("rfq-" + vendor + ".xlsx");
    CliTest.Result r = CliTest.run("quote-sheet", "template", "--for", vendor, "--scenario", scenario.toString(),
        "--root", root.toString(), "-o", out.toString());
    assertEquals(0, r.status(), r.err());
    try (XSSFWorkbook wb = new XSSFWorkbook(new ByteArrayInputStream(Files.readAllBytes(out)))) {
      var header = wb.getSheetAt(0).getRow(0);
      assertEquals("Target price to rank #1", header.getCell(13).getStringCellValue());
      var row = wb.getSheetAt(0).getRow(1);
      io.vertx.core.json.JsonObject placement = second.getJsonArray("placements").getJsonObject(0);
      assertEquals(placement.getString("offer"), row.getCell(6).getStringCellValue());
      assertEquals("", row.getCell(8).getStringCellValue(), "the price is the vendor's to fill");
      assertEquals(wins.getJsonArray("unitPrices").getJsonObject(0).getString("unitPrice"), row.getCell(13).getStringCellValue());
      assertTrue(row.getCell(12).getStringCellValue().startsWith("to take #1 for team of up to 3, inference only (5.2): wins at "),
          row.getCell(12).getStringCellValue());
    }
  }
}
