package dev.gpurent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.FormulaEvaluator;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * A ranking workbook read back as finance's spreadsheet reads it: opened with POI, its formulas
 * evaluated by POI's own evaluator, every figure held to the JSON ranking it was made from.
 */
public final class RankingWorkbook {

  private RankingWorkbook() {}

  public static XSSFWorkbook open(byte[] bytes) throws IOException {
    return new XSSFWorkbook(new ByteArrayInputStream(bytes));
  }

  /** Every formula evaluated afresh (cached results dropped), as a spreadsheet does on opening. */
  public static FormulaEvaluator recalculate(XSSFWorkbook wb) {
    FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
    ev.clearAllCachedResultValues();
    ev.evaluateAll();
    return ev;
  }

  /** The evaluated value of a numeric or formula cell. */
  public static double value(FormulaEvaluator ev, Sheet s, int row, int col) {
    Cell c = s.getRow(row).getCell(col);
    assertNotNull(c, s.getSheetName() + " row " + (row + 1) + " col " + col);
    return c.getCellType() == CellType.FORMULA ? ev.evaluate(c).getNumberValue() : c.getNumericCellValue();
  }

  /** The figure as the JSON writes it ("5000.00") read as the double a cell would hold. */
  static double figure(Object json) {
    return Double.parseDouble(json.toString());
  }

  /**
   * The summary's totals and every bill's lines, total and horizon total, evaluated, equal the
   * ranking's figures exactly (the same double as the JSON's decimal text); returns the lines checked.
   * The ranking's texts are read in English (an engine map's messages rendered so).
   */
  public static int assertMatches(Map<String, ?> ranking, XSSFWorkbook wb) {
    return assertMatches(ranking, wb, dev.gpurent.text.Lang.EN);
  }

  /** As above, the ranking's texts rendered in {@code lang}, the workbook's language. */
  @SuppressWarnings("unchecked")
  public static int assertMatches(Map<String, ?> neutralOrRendered, XSSFWorkbook wb, dev.gpurent.text.Lang lang) {
    Map<String, ?> ranking = dev.gpurent.text.Localizer.page(neutralOrRendered, lang);
    FormulaEvaluator ev = recalculate(wb);
    Sheet summary = wb.getSheetAt(0);
    List<Map<String, ?>> plans = new ArrayList<>((List<Map<String, ?>>) ranking.get("plans"));
    if (ranking.get("reference") != null) plans.add((Map<String, ?>) ranking.get("reference"));
    if (ranking.get("mixed") != null) plans.add((Map<String, ?>) ranking.get("mixed"));
    assertEquals(1 + plans.size(), wb.getNumberOfSheets());
    int lines = 0;
    for (int i = 0; i < plans.size(); i++) {
      Map<String, ?> plan = plans.get(i);
      Row row = summary.getRow(RankingXlsx.TABLE_HEADER + 1 + i);
      String who = plan.containsKey("homeVendor") ? "mixed" : plan.get("vendor").toString();
      assertEquals(figure(plan.get("monthlyTotal")), value(ev, summary, row.getRowNum(), 3), who + " monthly total");
      assertEquals(figure(plan.get("horizonTotal")), value(ev, summary, row.getRowNum(), 4), who + " horizon total");
      Sheet bill = wb.getSheet(row.getCell(row.getLastCellNum() - 1).getStringCellValue());
      assertNotNull(bill, who);
      List<Map<String, ?>> items = (List<Map<String, ?>>) ((Map<String, ?>) plan.get("bill")).get("lines");
      for (int j = 0; j < items.size(); j++) {
        Map<String, ?> l = items.get(j);
        int r = RankingXlsx.FIRST_LINE + j;
        String where = who + " " + l.get("item");
        assertEquals(l.get("item"), bill.getRow(r).getCell(RankingXlsx.ITEM).getStringCellValue(), where);
        assertEquals(figure(l.get("quantity")), value(ev, bill, r, RankingXlsx.QUANTITY), where + " quantity");
        assertEquals(figure(l.get("unitPrice")), value(ev, bill, r, RankingXlsx.UNIT_PRICE), where + " unit price");
        assertEquals(figure(l.get("perMonth")), value(ev, bill, r, RankingXlsx.PER_MONTH), where + " per month: "
            + l.get("quantity") + " x " + l.get("unitPrice"));
        if (l.get("upfront") != null) {
          assertEquals(figure(l.get("upfront")), value(ev, bill, r, RankingXlsx.UPFRONT), where + " upfront");
        }
        lines++;
      }
      int total = RankingXlsx.FIRST_LINE + items.size();
      assertEquals(figure(plan.get("monthlyTotal")), value(ev, bill, total, RankingXlsx.PER_MONTH), who + " total");
      assertEquals(figure(plan.get("horizonTotal")), value(ev, bill, total + 1, RankingXlsx.PER_MONTH), who + " horizon");
      Object upfront = ((Map<String, ?>) plan.get("bill")).get("upfront");
      if (upfront != null && figure(upfront) > 0) {
        assertEquals(figure(upfront), value(ev, bill, total + 2, RankingXlsx.UPFRONT), who + " due upfront");
      }
    }
    assertTrue(lines > 0 || plans.isEmpty());
    return lines;
  }
}
