package dev.gpurent.report;

import dev.gpurent.text.Lang;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * The ranking workbook's cell styles and sheet names, and how a ranking's value (exact decimal
 * text, an ISO date, a map read as plain values) goes into a cell: what its summary and bill sheets share.
 */
final class XlsxCells {

  final XSSFWorkbook wb = new XSSFWorkbook();
  final CellStyle bold, money, unitPrice, day, instant;
  private final Set<String> sheetNames = new HashSet<>();

  XlsxCells(Lang lang, String currency) {
    // ¥ is how a Chinese bill writes yuan; elsewhere the ISO code, which no reader mistakes
    String prefix = lang == Lang.ZH && currency.equals("CNY") ? "\"¥\"" : "";
    String suffix = prefix.isEmpty() ? " \"" + currency + "\"" : "";
    money = style(prefix + "#,##0.00" + suffix);
    // as many decimals as the figure has (up to Excel's 15 digits), at least 2: a bill's unit price must multiply out
    unitPrice = style(prefix + "#,##0.00##########" + suffix);
    // dates as Excel dates, so that a finance sheet can sort and subtract them; times are UTC
    day = style("yyyy-mm-dd");
    instant = style("yyyy-mm-dd hh:mm:ss");
    bold = wb.createCellStyle();
    Font f = wb.createFont();
    f.setBold(true);
    bold.setFont(f);
  }

  /** A legal name, unique in this workbook ({@link RankingXlsx#sheetName(String, Set)}). */
  String sheetName(String wanted) {
    return RankingXlsx.sheetName(wanted, sheetNames);
  }

  private CellStyle style(String format) {
    CellStyle s = wb.createCellStyle();
    s.setDataFormat(wb.createDataFormat().getFormat(format));
    return s;
  }

  /**
   * An ISO date ("2025-01-01") or instant ("2026-12-02T06:09:05.274504493Z", kept to the second,
   * in UTC) as an Excel date cell, or only its day; text that is neither stays text.
   */
  void date(Row row, int column, Object iso, boolean dayOnly) {
    String v = text(iso);
    Cell c = row.createCell(column);
    try {
      if (v.length() == 10 || dayOnly) {
        c.setCellValue(v.length() == 10 ? java.time.LocalDate.parse(v)
            : java.time.LocalDate.ofInstant(java.time.Instant.parse(v), java.time.ZoneOffset.UTC));
        c.setCellStyle(day);
      } else {
        c.setCellValue(java.time.LocalDateTime.ofInstant(java.time.Instant.parse(v), java.time.ZoneOffset.UTC)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        c.setCellStyle(instant);
      }
    } catch (java.time.format.DateTimeParseException notADate) {
      c.setCellValue(v);
    }
  }

  /**
   * Printed as a finance lead prints it: landscape, one page wide, the sheet's used range as the
   * print area, and its headings repeated on every page.
   */
  void printSetup(Sheet s, int headingRow) {
    s.setFitToPage(true);
    s.setAutobreaks(true);
    s.getPrintSetup().setLandscape(true);
    s.getPrintSetup().setFitWidth((short) 1);
    s.getPrintSetup().setFitHeight((short) 0);
    int lastRow = Math.max(s.getLastRowNum(), headingRow);
    int lastColumn = 0;
    for (Row r : s) lastColumn = Math.max(lastColumn, r.getLastCellNum() - 1);
    wb.setPrintArea(wb.getSheetIndex(s), 0, Math.max(lastColumn, 0), 0, lastRow);
    s.setRepeatingRows(new org.apache.poi.ss.util.CellRangeAddress(headingRow, headingRow, -1, -1));
  }

  /** Headings in a row, bold. */
  void headings(Row h, List<String> heads) {
    for (int c = 0; c < heads.size(); c++) {
      Cell cell = h.createCell(c);
      cell.setCellValue(heads.get(c));
      cell.setCellStyle(bold);
    }
  }

  static String quoted(String sheet) {
    return "'" + sheet.replace("'", "''") + "'";
  }

  static void formula(Row row, int c, String formula, CellStyle style) {
    Cell cell = row.createCell(c);
    cell.setCellFormula(formula);
    cell.setCellStyle(style);
  }

  static Cell cell(Sheet s, int r, int c, String value) {
    Cell cell = row(s, r).createCell(c);
    cell.setCellValue(value);
    return cell;
  }

  static Row row(Sheet s, int r) {
    Row row = s.getRow(r);
    return row == null ? s.createRow(r) : row;
  }

  static String col(int c) {
    return CellReference.convertNumToColString(c);
  }

  /** Money and units travel as exact decimal text ("1500.00"); a decoded JSON number is taken as it is. */
  static double number(Object o) {
    if (o instanceof Number n) return n.doubleValue();
    return new BigDecimal(text(o)).doubleValue();
  }

  static String text(Object o) {
    return o == null ? "" : o.toString();
  }

  /** A plan's bill lines, none when it has no bill. */
  static List<Map<String, ?>> lines(Map<String, ?> plan) {
    Map<String, ?> bill = map(plan.get("bill"));
    return bill == null ? List.of() : maps(bill.get("lines"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, ?> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, ?>) m : null;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, ?>> maps(Object o) {
    return o instanceof List<?> l ? (List<Map<String, ?>>) l : List.of();
  }
}
