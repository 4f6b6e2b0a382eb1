package dev.gpurent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.text.Lang;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.FormulaEvaluator;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

/** The ranking workbook finance receives, on the guide's template (5.1) at the guide's reference prices. */
class RankingXlsxTest {

  static Map<String, Object> guideTemplate() {
    Scenario s = Fixtures.scenario("guide-template.yaml");
    Ranking r = new CostModel(Fixtures.CATALOG, Fixtures.RULES)
        .rank(s.withConstraints(s.constraints().withIncludeReference(true)), Fixtures.book(Fixtures.guideReference()));
    return r.toMap();
  }

  @Test
  void the_guide_template_totals_5000_by_formula_line_by_line() throws Exception {
    Map<String, Object> ranking = guideTemplate();
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(ranking, Lang.EN))) {
      assertEquals(5, RankingWorkbook.assertMatches(ranking, wb));
      assertEquals(List.of("Summary", "1 guide-reference"), List.of(wb.getSheetName(0), wb.getSheetName(1)));
      FormulaEvaluator ev = RankingWorkbook.recalculate(wb);
      Sheet bill = wb.getSheet("1 guide-reference");
      List<Double> perMonth = new ArrayList<>();
      for (int r = RankingXlsx.FIRST_LINE; r < RankingXlsx.FIRST_LINE + 5; r++) {
        perMonth.add(RankingWorkbook.value(ev, bill, r, RankingXlsx.PER_MONTH));
      }
      assertEquals(List.of(3000.0, 1200.0, 200.0, 400.0, 200.0), perMonth);
      // the quantities are what is billed: 2 cards a month, 100 GPU-hours, 2000 GB, 500 GB, 1 balancer
      assertEquals(2.0, RankingWorkbook.value(ev, bill, RankingXlsx.FIRST_LINE, RankingXlsx.QUANTITY));
      assertEquals(100.0, RankingWorkbook.value(ev, bill, RankingXlsx.FIRST_LINE + 1, RankingXlsx.QUANTITY));
      assertEquals("ROUND(C4*D4,2)", bill.getRow(RankingXlsx.FIRST_LINE).getCell(RankingXlsx.PER_MONTH).getCellFormula());
      assertEquals("ROUND(SUM(F4:F8),2)", bill.getRow(8).getCell(RankingXlsx.PER_MONTH).getCellFormula());
      assertEquals(5000.0, RankingWorkbook.value(ev, bill, 8, RankingXlsx.PER_MONTH));
      assertEquals(60000.0, RankingWorkbook.value(ev, bill, 9, RankingXlsx.PER_MONTH));
      Sheet summary = wb.getSheet("Summary");
      assertEquals("'1 guide-reference'!$F$9", summary.getRow(RankingXlsx.TABLE_HEADER + 1).getCell(3).getCellFormula());
      assertEquals(List.of("Rank", "Vendor", "Display name", "Monthly total", "Horizon total", "Currency", "Complete", "Gaps",
          "Dated", "Price date", "inference: card", "inference: count", "inference: billing", "inference: region",
          "fine-tuning: card", "fine-tuning: count", "fine-tuning: billing", "fine-tuning: region", "What it would take to be 1", "Sheet"),
          texts(summary, RankingXlsx.TABLE_HEADER));
      assertEquals(List.of("1", "guide-reference", "Guide reference prices (not a real vendor)", "5000.0", "60000.0", "CNY",
          "yes", "", "yes", "45658.0", "NVIDIA GeForce RTX 4090", "2.0", "monthly", "cn", "NVIDIA A100 40GB SXM",
          "1.0", "on-demand", "cn", "1 guide-reference"), texts(summary, RankingXlsx.TABLE_HEADER + 1));
      assertEquals(12.0, summary.getRow(RankingXlsx.HORIZON_ROW).getCell(1).getNumericCellValue());
    }
  }

  @Test
  void editing_a_quantity_reprices_the_bill_and_the_summary() throws Exception {
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(guideTemplate(), Lang.EN))) {
      Sheet bill = wb.getSheet("1 guide-reference");
      // a third RTX 4090 at 1500.00 a month
      bill.getRow(RankingXlsx.FIRST_LINE).getCell(RankingXlsx.QUANTITY).setCellValue(3);
      FormulaEvaluator ev = RankingWorkbook.recalculate(wb);
      assertEquals(4500.0, RankingWorkbook.value(ev, bill, RankingXlsx.FIRST_LINE, RankingXlsx.PER_MONTH));
      assertEquals(6500.0, RankingWorkbook.value(ev, bill, 8, RankingXlsx.PER_MONTH));
      assertEquals(78000.0, RankingWorkbook.value(ev, bill, 9, RankingXlsx.PER_MONTH));
      Sheet summary = wb.getSheet("Summary");
      assertEquals(6500.0, RankingWorkbook.value(ev, summary, RankingXlsx.TABLE_HEADER + 1, 3));
      assertEquals(78000.0, RankingWorkbook.value(ev, summary, RankingXlsx.TABLE_HEADER + 1, 4));
      // and a 24-month horizon doubles the horizon total
      summary.getRow(RankingXlsx.HORIZON_ROW).getCell(1).setCellValue(24);
      ev = RankingWorkbook.recalculate(wb);
      assertEquals(156000.0, RankingWorkbook.value(ev, summary, RankingXlsx.TABLE_HEADER + 1, 4));
    }
  }

  @Test
  void the_written_file_carries_its_results_and_asks_to_be_recalculated() throws Exception {
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(guideTemplate(), Lang.EN))) {
      assertTrue(wb.getForceFormulaRecalculation());
      // cached results, read without evaluating: what a viewer that does not calculate shows
      var total = wb.getSheet("1 guide-reference").getRow(8).getCell(RankingXlsx.PER_MONTH);
      assertEquals(CellType.NUMERIC, total.getCachedFormulaResultType());
      assertEquals(5000.0, total.getNumericCellValue());
      assertEquals(5000.0, wb.getSheet("Summary").getRow(RankingXlsx.TABLE_HEADER + 1).getCell(3).getNumericCellValue());
      assertEquals("#,##0.00 \"CNY\"", total.getCellStyle().getDataFormatString());
      // a unit price shows every decimal it has (at least 2): quantity x unit price must multiply out on the sheet
      assertEquals("#,##0.00########## \"CNY\"", wb.getSheet("1 guide-reference").getRow(RankingXlsx.FIRST_LINE)
          .getCell(RankingXlsx.UNIT_PRICE).getCellStyle().getDataFormatString());
    }
  }

  @Test
  void in_chinese_the_labels_are_the_guides_and_yuan_is_written_with_its_sign() throws Exception {
    Map<String, Object> ranking = guideTemplate();
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(ranking, Lang.ZH))) {
      RankingWorkbook.assertMatches(ranking, wb, Lang.ZH);
      assertEquals("汇总", wb.getSheetName(0));
      Sheet bill = wb.getSheetAt(1);
      assertEquals(List.of("项目", "规格", "数量", "单价", "单位", "月费用", "备注", "定价方", "来源", "汇率", "预付"),
          texts(bill, RankingXlsx.FIRST_LINE - 1));
      assertEquals("合计", bill.getRow(8).getCell(0).getStringCellValue());
      assertEquals("\"¥\"#,##0.00", bill.getRow(8).getCell(RankingXlsx.PER_MONTH).getCellStyle().getDataFormatString());
      List<String> row = texts(wb.getSheetAt(0), RankingXlsx.TABLE_HEADER + 1);
      assertEquals("包月", row.get(12));
      assertEquals("按量计费", row.get(16));
      assertEquals("是", row.get(6));
    }
  }

  @Test
  void sheet_names_are_legal_unique_and_at_most_31_characters() throws Exception {
    Map<String, Object> ranking = guideTemplate();
    @SuppressWarnings("unchecked")
    Map<String, Object> plan = new LinkedHashMap<>(((List<Map<String, Object>>) ranking.get("plans")).get(0));
    List<Map<String, Object>> plans = new ArrayList<>();
    for (String v : List.of("a/b:c*d?e[f]g\\h-very-long-vendor-name-beyond-31", "it's'")) {
      Map<String, Object> p = new LinkedHashMap<>(plan);
      p.put("vendor", v);
      plans.add(p);
    }
    ranking.put("plans", plans);
    ranking.put("unavailable", List.of(Map.of("vendor", "aws", "reason", "no quotes yet: offline")));
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(ranking, Lang.EN))) {
      // the summary's formulas reach both sheets, the one with an apostrophe too
      RankingWorkbook.assertMatches(ranking, wb);
      assertEquals(List.of("Summary", "1 a_b_c_d_e_f_g_h-very-long-ven", "2 it's_"),
          List.of(wb.getSheetName(0), wb.getSheetName(1), wb.getSheetName(2)));
      Sheet summary = wb.getSheetAt(0);
      int r = RankingXlsx.TABLE_HEADER + 1 + plans.size() + 1;
      assertEquals(List.of("Not ranked"), texts(summary, r));
      assertEquals(List.of("aws", "no quotes yet: offline"), texts(summary, r + 2));
    }
    Set<String> taken = new HashSet<>();
    String long40 = "x".repeat(40);
    assertEquals("x".repeat(31), RankingXlsx.sheetName(long40, taken));
    assertEquals("x".repeat(27) + " (2)", RankingXlsx.sheetName(long40, taken));
    assertEquals("X".repeat(27) + " (3)", RankingXlsx.sheetName("X".repeat(35), taken));
    assertEquals("summary (2)", RankingXlsx.sheetName("summary", new HashSet<>(Set.of("summary"))));
  }

  @Test
  void names_the_download_after_the_scenario_in_plain_ascii() {
    assertEquals("gpurent-guide-template-5.1.xlsx", RankingXlsx.fileName("guide template (5.1)"));
    assertEquals("gpurent-ranking.xlsx", RankingXlsx.fileName("推理方案"));
    assertEquals("gpurent-a-b.xlsx", RankingXlsx.fileName("a\"; b\r\n"));
  }

  /** A row's cells as text, numbers in Java's notation and formulas by their cached result. */
  @Test
  void an_incomplete_plan_says_whose_price_each_line_is_and_what_quote_would_win_and_the_mixed_bill_names_vendors() throws Exception {
    Scenario s = Fixtures.scenario("guide-template.yaml");
    Ranking r = new CostModel(Fixtures.CATALOG, Fixtures.RULES).rank(s.withConstraints(s.constraints().withIncludeReference(true)),
        Fixtures.book(Fixtures.guideReference(), Fixtures.withTypicalStorage(Fixtures.sheet(java.nio.file.Path.of("src/test/resources/sheets/train-cloud.yaml"))),
            Fixtures.sheet(java.nio.file.Path.of("src/test/resources/sheets/infer-cloud.yaml"))));
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(r.toMap(), Lang.EN))) {
      Sheet summary = wb.getSheet("Summary");
      assertTrue(texts(summary, 9).get(0).startsWith("Rank 1 is the cheapest complete plan"), texts(summary, 9).toString());
      List<String> first = texts(summary, RankingXlsx.TABLE_HEADER + 1), second = texts(summary, RankingXlsx.TABLE_HEADER + 2);
      assertEquals(List.of("guide-reference", "yes"), List.of(first.get(1), first.get(6)));
      assertEquals(List.of("train-cloud", "no"), List.of(second.get(1), second.get(6)));
      assertEquals("beats #1 guide-reference if its object storage costs at most 0.6249/GB-month: ask for a quote",
          second.get(second.size() - 2));
      Sheet train = wb.getSheet("2 train-cloud");
      assertEquals(List.of("object storage", "typical figure"), List.of(
          train.getRow(RankingXlsx.FIRST_LINE + 2).getCell(RankingXlsx.ITEM).getStringCellValue(),
          train.getRow(RankingXlsx.FIRST_LINE + 2).getCell(RankingXlsx.PRICED_BY).getStringCellValue()));
      Sheet mixed = wb.getSheet("mixed plan");
      assertEquals("Bought from", mixed.getRow(RankingXlsx.FIRST_LINE - 1).getCell(RankingXlsx.BOUGHT_FROM).getStringCellValue());
      List<String> from = new ArrayList<>();
      for (int i = 0; i < 6; i++) from.add(mixed.getRow(RankingXlsx.FIRST_LINE + i).getCell(RankingXlsx.BOUGHT_FROM).getStringCellValue());
      assertEquals(List.of("infer-cloud", "train-cloud", "infer-cloud", "infer-cloud", "infer-cloud", "infer-cloud"), from);
    }
  }

  @Test
  void dates_are_excel_dates_and_every_sheet_prints_one_page_wide_with_its_headings() throws Exception {
    Map<String, Object> ranking = guideTemplate();
    try (XSSFWorkbook wb = RankingWorkbook.open(RankingXlsx.render(ranking, Lang.EN))) {
      Sheet summary = wb.getSheet("Summary");
      org.apache.poi.ss.usermodel.Cell priceDate = summary.getRow(RankingXlsx.TABLE_HEADER + 1).getCell(9);
      assertEquals(CellType.NUMERIC, priceDate.getCellType());
      assertTrue(org.apache.poi.ss.usermodel.DateUtil.isCellDateFormatted(priceDate));
      assertEquals(java.time.LocalDateTime.of(2025, 1, 1, 0, 0), priceDate.getLocalDateTimeCellValue(), "the guide's prices are of 2025-01-01");
      assertEquals("yyyy-mm-dd", priceDate.getCellStyle().getDataFormatString());
      org.apache.poi.ss.usermodel.Cell quotesAt = summary.getRow(4).getCell(1);
      assertEquals(CellType.NUMERIC, quotesAt.getCellType());
      assertTrue(org.apache.poi.ss.usermodel.DateUtil.isCellDateFormatted(quotesAt));
      assertEquals(java.time.LocalDateTime.ofInstant(java.time.Instant.parse(String.valueOf(ranking.get("quotesAt"))), java.time.ZoneOffset.UTC)
          .truncatedTo(java.time.temporal.ChronoUnit.SECONDS), quotesAt.getLocalDateTimeCellValue(), "to the second, in UTC");
      for (int i = 0; i < wb.getNumberOfSheets(); i++) {
        Sheet s = wb.getSheetAt(i);
        assertTrue(s.getFitToPage(), s.getSheetName());
        assertEquals(1, s.getPrintSetup().getFitWidth(), s.getSheetName());
        assertEquals(0, s.getPrintSetup().getFitHeight(), s.getSheetName() + ": as many pages down as it takes");
        assertTrue(s.getPrintSetup().getLandscape(), s.getSheetName());
        assertTrue(wb.getPrintArea(i) != null && wb.getPrintArea(i).contains("$A$1"), s.getSheetName() + ": " + wb.getPrintArea(i));
        int headings = i == 0 ? RankingXlsx.TABLE_HEADER : RankingXlsx.FIRST_LINE - 1;
        assertEquals(new org.apache.poi.ss.util.CellRangeAddress(headings, headings, -1, -1), s.getRepeatingRows(), s.getSheetName());
      }
    }
  }

  static List<String> texts(Sheet s, int row) {
    List<String> out = new ArrayList<>();
    s.getRow(row).forEach(c -> {
      CellType t = c.getCellType() == CellType.FORMULA ? c.getCachedFormulaResultType() : c.getCellType();
      out.add(t == CellType.NUMERIC ? (c.getNumericCellValue() == Math.rint(c.getNumericCellValue()) && c.getCellType() != CellType.FORMULA
          && c.getColumnIndex() == 0 ? Long.toString((long) c.getNumericCellValue()) : Double.toString(c.getNumericCellValue()))
          : c.getStringCellValue());
    });
    return out;
  }
}
