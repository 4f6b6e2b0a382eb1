package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.PlainValues;
import dev.gpurent.report.RankingWorkbook;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rank --xlsx FILE}: the workbook written where asked, with the same figures as {@code rank --json}. */
class RankXlsxTest {

  @TempDir
  Path tmp;

  @Test
  void writes_the_workbook_and_says_where_and_how_many_sheets() throws Exception {
    String root = CliTest.guideOnly();
    Path file = tmp.resolve("ranking.xlsx");
    CliTest.Result r = CliTest.run("rank", "--root=" + root, "--include-reference", "--xlsx", file.toString(),
        "config/scenarios/guide-template.yaml");
    assertEquals(0, r.status(), r.err());
    assertEquals("wrote " + file + ": 2 sheets (a summary and 1 bills, totals as formulas)\n", r.out());
    CliTest.Result json = CliTest.run("rank", "--root=" + root, "--include-reference", "--json", "config/scenarios/guide-template.yaml");
    JsonObject ranking = new JsonObject(json.out());
    try (XSSFWorkbook wb = RankingWorkbook.open(Files.readAllBytes(file))) {
      assertEquals(5, RankingWorkbook.assertMatches(PlainValues.map(ranking), wb));
      assertEquals(5000.0, wb.getSheet("1 guide-reference").getRow(8).getCell(5).getNumericCellValue());
    }
  }

  @Test
  void takes_one_format_only() {
    CliTest.Result r = CliTest.run("rank", "--root=" + CliTest.guideOnly(), "--json", "--xlsx", tmp.resolve("x.xlsx").toString(),
        "config/scenarios/guide-template.yaml");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("mutually exclusive"), r.err());
    assertTrue(Files.notExists(tmp.resolve("x.xlsx")));
  }
}
