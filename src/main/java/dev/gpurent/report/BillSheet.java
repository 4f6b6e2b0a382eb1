package dev.gpurent.report;

import static dev.gpurent.report.RankingXlsx.BOUGHT_FROM;
import static dev.gpurent.report.RankingXlsx.FIRST_LINE;
import static dev.gpurent.report.RankingXlsx.FX;
import static dev.gpurent.report.RankingXlsx.HORIZON_ROW;
import static dev.gpurent.report.RankingXlsx.ITEM;
import static dev.gpurent.report.RankingXlsx.NOTE;
import static dev.gpurent.report.RankingXlsx.PER_MONTH;
import static dev.gpurent.report.RankingXlsx.PRICED_BY;
import static dev.gpurent.report.RankingXlsx.QUANTITY;
import static dev.gpurent.report.RankingXlsx.SOURCE;
import static dev.gpurent.report.RankingXlsx.SPEC;
import static dev.gpurent.report.RankingXlsx.UNIT;
import static dev.gpurent.report.RankingXlsx.UNIT_PRICE;
import static dev.gpurent.report.RankingXlsx.UPFRONT;
import static dev.gpurent.report.XlsxCells.cell;
import static dev.gpurent.report.XlsxCells.col;
import static dev.gpurent.report.XlsxCells.formula;
import static dev.gpurent.report.XlsxCells.map;
import static dev.gpurent.report.XlsxCells.maps;
import static dev.gpurent.report.XlsxCells.number;
import static dev.gpurent.report.XlsxCells.quoted;
import static dev.gpurent.report.XlsxCells.row;
import static dev.gpurent.report.XlsxCells.text;

import dev.gpurent.text.Messages;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;

/**
 * A plan's bill on a sheet of its own, in the guide's template columns, whose per-month cells
 * multiply out the line and whose totals the summary points at; the record is the sheet's name
 * and the row of its total (0-based; the horizon total is the next row).
 */
record BillSheet(String name, int totalRow) {

  /** Writes the bill of {@code plan} on a new sheet named after {@code wanted}; its horizon total multiplies by {@code summary}'s horizon. */
  static BillSheet write(XlsxCells x, Messages words, Sheet summary, String wanted, Map<String, ?> plan, boolean isMixed) {
    String name = x.sheetName(wanted);
    Sheet s = x.wb.createSheet(name);
    String title = isMixed ? words.text("bill.mixedTitle", "vendor", text(plan.get("homeVendor")))
        : words.text("bill.title", "vendor", text(plan.get("vendor")), "name", text(plan.get("displayName")));
    cell(s, 0, 0, title).setCellStyle(x.bold);
    Row h = row(s, FIRST_LINE - 1);
    List<String> heads = new ArrayList<>(List.of("bill.item", "bill.spec", "bill.quantity", "bill.unitPrice", "bill.unit",
        "bill.perMonth", "bill.note", "bill.pricedBy", "bill.source", "bill.fx", "bill.upfront"));
    if (isMixed) heads.add("bill.boughtFrom");
    x.headings(h, heads.stream().map(words::text).toList());
    List<Map<String, ?>> lines = XlsxCells.lines(plan);
    int r = FIRST_LINE;
    for (Map<String, ?> l : lines) {
      Row row = row(s, r);
      row.createCell(ITEM).setCellValue(text(l.get("item")));
      row.createCell(SPEC).setCellValue(text(l.get("spec")));
      row.createCell(QUANTITY).setCellValue(number(l.get("quantity")));
      Cell price = row.createCell(UNIT_PRICE);
      price.setCellValue(number(l.get("unitPrice")));
      price.setCellStyle(x.unitPrice);
      row.createCell(UNIT).setCellValue(unitWord(words, text(l.get("unit"))));
      formula(row, PER_MONTH, "ROUND(" + col(QUANTITY) + (r + 1) + "*" + col(UNIT_PRICE) + (r + 1) + ",2)", x.money);
      row.createCell(NOTE).setCellValue(text(l.get("note")));
      row.createCell(PRICED_BY).setCellValue(words.text("pricedBy." + text(l.get("pricedBy"))));
      row.createCell(SOURCE).setCellValue(text(l.get("source")));
      row.createCell(FX).setCellValue(text(l.get("fx")));
      if (l.get("upfront") != null) {
        Cell upfront = row.createCell(UPFRONT);
        upfront.setCellValue(number(l.get("upfront")));
        upfront.setCellStyle(x.money);
      }
      if (isMixed) row.createCell(BOUGHT_FROM).setCellValue(text(l.get("vendor")));
      r++;
    }
    if (lines.isEmpty()) r++;  // an empty bill keeps the layout the summary points at
    String perMonth = col(PER_MONTH);
    Row total = row(s, r);
    cell(s, r, ITEM, words.text("bill.total")).setCellStyle(x.bold);
    formula(total, PER_MONTH, lines.isEmpty() ? "0" : "ROUND(SUM(" + perMonth + (FIRST_LINE + 1) + ":" + perMonth + r + "),2)", x.money);
    Row horizon = row(s, r + 1);
    horizon.createCell(ITEM).setCellValue(words.text("bill.horizonTotal"));
    formula(horizon, PER_MONTH, "ROUND(" + perMonth + (r + 1) + "*" + quoted(summary.getSheetName()) + "!$B$"
        + (HORIZON_ROW + 1) + ",2)", x.money);
    int next = r + 3;
    Map<String, ?> bill = map(plan.get("bill"));
    if (bill != null && bill.get("upfront") != null && new BigDecimal(text(bill.get("upfront"))).signum() > 0) {
      Row due = row(s, r + 2);
      due.createCell(ITEM).setCellValue(words.text("bill.upfrontTotal"));
      String up = col(UPFRONT);
      formula(due, UPFRONT, "SUM(" + up + (FIRST_LINE + 1) + ":" + up + r + ")", x.money);
      next = r + 4;
    }
    for (Map<String, ?> g : maps(plan.get("gaps"))) {
      cell(s, next, ITEM, words.text("bill.gap"));
      cell(s, next++, SPEC, text(g.get("item")) + ": " + text(g.get("reason")));
    }
    Object warnings = plan.get("warnings");
    if (warnings instanceof List<?> ws) {
      for (Object w : ws) {
        cell(s, next, ITEM, words.text("bill.warning"));
        cell(s, next++, SPEC, text(w));
      }
    }
    int[] widths = {18, 48, 12, 16, 10, 16, 60, 12, 40, 40, 16, 20};
    for (int c = ITEM; c <= BOUGHT_FROM; c++) s.setColumnWidth(c, widths[c] * 256);
    s.createFreezePane(0, FIRST_LINE);
    x.printSetup(s, FIRST_LINE - 1);
    return new BillSheet(name, r);
  }

  /** A line's unit as the language writes it (card-hour / 卡·小时); one the report bundle does not know as it is. */
  private static String unitWord(Messages words, String unit) {
    Messages report = Messages.of("report", words.lang());
    String code = "unit." + unit.replace(' ', '-');
    return report.has(code) ? report.text(code) : unit;
  }
}
