package dev.gpurent.quotesheet;

import dev.gpurent.text.Lang;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Consumer;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * Fills the real template the way a vendor does in Excel: opens the workbook gpurent writes, types
 * into its cells, saves it. Rows and columns are the spreadsheet's (row 1 is the header).
 */
public final class Sheets {

  private Sheets() {}

  /** The guide's budget template (section 5.1) as a vendor's quote: its two cards and its three services. */
  public static byte[] guideQuote(Lang lang, LocalDate today) {
    return guideQuote(QuoteSheetTemplate.xlsx(lang, today), lang, today);
  }

  /** As {@link #guideQuote(Lang, LocalDate)}, typed into a template the command line wrote. */
  public static byte[] guideQuote(byte[] template, Lang lang, LocalDate today) {
    return edit(template, wb -> {
      Sheet offers = wb.getSheetAt(0);
      String validUntil = today.plusDays(60).toString();
      row(offers, 2, "RTX 4090", "1", "", "", "cn", "CN", "", lang == Lang.ZH ? "包月" : "monthly", "1500",
          lang == Lang.ZH ? "月" : "month", "CNY", validUntil, "guide 5.1: 1500/month");
      row(offers, 3, "A100 40G", "1", "", "", "cn", "CN", "", lang == Lang.ZH ? "按量" : "on-demand", "12",
          lang == Lang.ZH ? "小时" : "hour", "CNY", validUntil, "guide 5.1: 12/hour");
      Sheet terms = wb.getSheetAt(1);
      value(terms, SheetLayout.TermItem.VENDOR_NAME, "Guide 5.1 prices as a quote", null);
      value(terms, SheetLayout.TermItem.STORAGE, "0.1", "CNY");
      value(terms, SheetLayout.TermItem.EGRESS, "0.8", "CNY");
      value(terms, SheetLayout.TermItem.LOAD_BALANCER, "200", "CNY");
      value(terms, SheetLayout.TermItem.QUOTE_DATE, today.toString(), null);
    });
  }

  /** The workbook with {@code change} applied. */
  public static byte[] edit(byte[] xlsx, Consumer<XSSFWorkbook> change) {
    try (XSSFWorkbook wb = new XSSFWorkbook(new ByteArrayInputStream(xlsx)); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      change.accept(wb);
      wb.write(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Types {@code values} into row {@code rowNumber} (1-based) from column A. */
  public static void row(Sheet sheet, int rowNumber, String... values) {
    Row row = sheet.getRow(rowNumber - 1) != null ? sheet.getRow(rowNumber - 1) : sheet.createRow(rowNumber - 1);
    for (int c = 0; c < values.length; c++) {
      Cell cell = row.getCell(c) != null ? row.getCell(c) : row.createCell(c);
      if (values[c].isEmpty()) cell.setBlank();
      else cell.setCellValue(values[c]);
    }
  }

  /** The cell at spreadsheet row {@code rowNumber} (1-based) and column letter {@code col}, created if absent. */
  public static Cell cell(Sheet sheet, int rowNumber, String col) {
    Row row = sheet.getRow(rowNumber - 1) != null ? sheet.getRow(rowNumber - 1) : sheet.createRow(rowNumber - 1);
    int c = col.charAt(0) - 'A';
    return row.getCell(c) != null ? row.getCell(c) : row.createCell(c);
  }

  /** Fills the value (and currency) of a terms item's row. */
  public static void value(Sheet terms, SheetLayout.TermItem item, String value, String currency) {
    int r = termRow(item);
    cell(terms, r, "B").setCellValue(value);
    if (currency != null) cell(terms, r, "C").setCellValue(currency);
  }

  static final String MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

  /** A workbook of one sheet named {@code name} holding {@code rows} (the XML of its rows), as an attacker writes it. */
  public static byte[] workbook(String name, CharSequence rows) {
    try (XSSFWorkbook wb = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      wb.createSheet(name).createRow(0).createCell(0).setCellValue("t");
      wb.write(out);
      return replaced(out.toByteArray(), "xl/worksheets/sheet1.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\""
          + MAIN + "\"><sheetData>" + rows + "</sheetData></worksheet>");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code count} rows from row 1, each holding a number in the columns {@code columns} names. */
  public static CharSequence rows(int count, String... columns) {
    StringBuilder b = new StringBuilder();
    for (int r = 1; r <= count; r++) {
      b.append("<row r=\"").append(r).append("\">");
      for (String c : columns) b.append("<c r=\"").append(c).append(r).append("\"><v>").append(r).append("</v></c>");
      b.append("</row>");
    }
    return b;
  }

  /** The package with one part's text replaced, as a hand-edited file would be. */
  public static byte[] replaced(byte[] xlsx, String part, String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(xlsx)); ZipOutputStream z = new ZipOutputStream(out)) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        z.putNextEntry(new ZipEntry(e.getName()));
        z.write(e.getName().equals(part) ? text.getBytes(StandardCharsets.UTF_8) : in.readAllBytes());
        z.closeEntry();
      }
    }
    return out.toByteArray();
  }

  /** The attack: a 107 KB workbook whose offers sheet has one number in column XFD on each of 20,000 rows. */
  public static byte[] xfdAttack() {
    return workbook("offers", rows(20_000, "XFD"));
  }

  /** The 1-based row of a terms item in the template. */
  public static int termRow(SheetLayout.TermItem item) {
    return item.ordinal() + 2;
  }

  static List<String> problems(BadSheetException e) {
    return e.problems().stream().map(CellProblem::toString).toList();
  }
}
