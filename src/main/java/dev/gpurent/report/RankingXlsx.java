package dev.gpurent.report;

import static dev.gpurent.report.XlsxCells.cell;
import static dev.gpurent.report.XlsxCells.col;
import static dev.gpurent.report.XlsxCells.formula;
import static dev.gpurent.report.XlsxCells.lines;
import static dev.gpurent.report.XlsxCells.map;
import static dev.gpurent.report.XlsxCells.maps;
import static dev.gpurent.report.XlsxCells.quoted;
import static dev.gpurent.report.XlsxCells.row;
import static dev.gpurent.report.XlsxCells.text;

import dev.gpurent.quotesheet.Poi;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Messages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.WorkbookUtil;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * The ranking as an Excel workbook for finance: a summary sheet, then one sheet per bill (each
 * ranked vendor in the ranking's order, complete plans first, the guide's reference, the mixed
 * plan, whose lines each name the vendor they are bought from). Each line says whose price it
 * carries (vendor, fallback or typical), each plan below #1 what it would take to be #1. A bill line's per-month cell is
 * {@code ROUND(quantity x unit price, 2)}, its total a SUM and the horizon total the total times
 * the summary's horizon, and the summary's totals point at each bill's total: editing a quantity
 * re-prices the bill and the summary. The quantity and unit price are the line's own, with as many
 * decimals as they need to multiply to its per month, so the formulas give exactly the ranking's figures.
 * A bill whose terms ask an amount upfront has it per line, and its sum under the horizon total.
 *
 * <p>Read from the rendered ranking, {@code Ranking.toMap()} or the same JSON as plain maps and
 * lists ({@code PlainValues}): its texts are shown as they are; the workbook's own labels come
 * from the {@code xlsx} bundle in the language asked for. Formula results are cached before
 * writing, for viewers that do not calculate, and the workbook asks to be recalculated on open.
 */
public final class RankingXlsx {

  /** The media type of an .xlsx file, as {@code Accept} asks for it. */
  public static final String MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

  /**
   * The bill sheets' columns, in the guide's template order (5.1), then where each price is from,
   * then what an upfront term asks when it starts (already spread into the line's per month).
   */
  static final int ITEM = 0, SPEC = 1, QUANTITY = 2, UNIT_PRICE = 3, UNIT = 4, PER_MONTH = 5, NOTE = 6, PRICED_BY = 7,
      SOURCE = 8, FX = 9, UPFRONT = 10, BOUGHT_FROM = 11;
  /** A bill sheet: title, blank, headings, then the lines from this row. */
  static final int FIRST_LINE = 3;
  /** The summary's horizon cell (B4), which every bill's horizon total multiplies by. */
  static final int HORIZON_ROW = 3;
  /** The summary's table of plans: headings, then one row per plan from the next row. */
  static final int TABLE_HEADER = 10;
  /** Excel's limit on a sheet name. */
  private static final int SHEET_NAME_MAX = 31;

  private final Map<String, ?> ranking;
  private final Messages words;
  private final Messages common;
  private final XlsxCells x;
  private final XSSFWorkbook wb;
  private final Sheet summary;

  private RankingXlsx(Map<String, ?> ranking, Lang lang) {
    this.ranking = ranking;
    this.words = Messages.of("xlsx", lang);
    this.common = Messages.of("common", lang);
    this.x = new XlsxCells(lang, text(ranking.get("currency")));
    this.wb = x.wb;
    summary = wb.createSheet(x.sheetName(words.text("sheet.summary")));
  }

  /** The workbook's bytes; {@link #workbook} for the workbook itself. */
  public static byte[] render(Map<String, ?> ranking, Lang lang) {
    try (XSSFWorkbook wb = workbook(ranking, lang); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      wb.write(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code gpurent-<scenario>.xlsx}, the scenario's name in letters, digits, '.', '_' and '-' only (a header must be ASCII). */
  public static String fileName(String scenario) {
    String safe = scenario.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[-.]+|-+$", "");
    if (safe.length() > 80) safe = safe.substring(0, 80);
    return "gpurent-" + (safe.isEmpty() ? "ranking" : safe) + ".xlsx";
  }

  /**
   * The workbook, its formulas evaluated; the caller closes it. The ranking may be the engine's
   * map (messages still neutral) or one already rendered: its texts are rendered in {@code lang} here.
   */
  public static XSSFWorkbook workbook(Map<String, ?> ranking, Lang lang) {
    Poi.ready();
    return new RankingXlsx(dev.gpurent.text.Localizer.page(ranking, lang), lang).build();
  }

  private XSSFWorkbook build() {
    List<Map<String, ?>> plans = maps(ranking.get("plans"));
    Map<String, ?> reference = map(ranking.get("reference"));
    Map<String, ?> mixed = map(ranking.get("mixed"));
    List<Map<String, ?>> all = new ArrayList<>(plans);
    if (reference != null) all.add(reference);
    if (mixed != null) all.add(mixed);
    List<String> workloads = all.isEmpty() ? List.of()
        : maps(all.get(0).get("placements")).stream().map(p -> text(p.get("workload"))).toList();

    header(all);
    int row = tableHeadings(workloads);
    int rank = 0;
    for (Map<String, ?> p : plans) {
      rank++;
      row = summaryRow(row, rank, p, bill(rank + " " + text(p.get("vendor")), p, false));
    }
    if (reference != null) {
      BillSheet sheet = bill(words.text("sheet.reference", "vendor", text(reference.get("vendor"))), reference, false);
      row = summaryRow(row, null, reference, sheet);
    }
    if (mixed != null) row = summaryRow(row, null, mixed, bill(words.text("sheet.mixed"), mixed, true));
    unavailable(row + 1);
    if (!maps(ranking.get("apis")).isEmpty()) ApiSheet.add(wb, x.sheetName(words.text("sheet.apis")), maps(ranking.get("apis")), words, x.money);
    // fixed widths: measuring text needs fonts, which a server may not have
    summary.setColumnWidth(0, 24 * 256);
    summary.setColumnWidth(1, 20 * 256);
    summary.setColumnWidth(2, 36 * 256);
    for (int c = 3; c < 12 + 4 * workloads.size(); c++) summary.setColumnWidth(c, 16 * 256);
    x.printSetup(summary, TABLE_HEADER);

    wb.getCreationHelper().createFormulaEvaluator().evaluateAll();
    wb.setForceFormulaRecalculation(true);
    return wb;
  }

  // ------------------------------------------------------------------ summary

  /** Scenario, currency, horizon, quotes time, FX rates used and the ranking's notes. */
  private void header(List<Map<String, ?>> all) {
    cell(summary, 0, 0, words.text("summary.title", "scenario", text(ranking.get("scenario")))).setCellStyle(x.bold);
    labelled(1, "summary.scenario", text(ranking.get("scenario")));
    labelled(2, "summary.currency", text(ranking.get("currency")));
    Row horizon = row(summary, HORIZON_ROW);
    horizon.createCell(0).setCellValue(words.text("summary.horizon"));
    horizon.createCell(1).setCellValue(((Number) ranking.get("horizonMonths")).doubleValue());
    Row quotesAt = row(summary, 4);
    quotesAt.createCell(0).setCellValue(words.text("summary.quotesAt"));
    x.date(quotesAt, 1, ranking.get("quotesAt"), false);
    Set<String> fx = new LinkedHashSet<>();
    for (Map<String, ?> p : all) {
      for (Map<String, ?> l : lines(p)) {
        if (!text(l.get("fx")).isEmpty()) fx.add(text(l.get("fx")));
      }
    }
    labelled(5, "summary.fx", String.join("; ", fx));
    labelled(6, "summary.referenceNote", text(ranking.get("referenceNote")));
    labelled(7, "summary.mixedNote", text(ranking.get("mixedNote")));
    cell(summary, 8, 0, words.text("summary.edit"));
    cell(summary, 9, 0, words.text("summary.order"));
  }

  private void labelled(int r, String code, String value) {
    Row row = row(summary, r);
    row.createCell(0).setCellValue(words.text(code));
    row.createCell(1).setCellValue(value);
  }

  private int tableHeadings(List<String> workloads) {
    Row h = row(summary, TABLE_HEADER);
    List<String> heads = new ArrayList<>(List.of(words.text("col.rank"), words.text("col.vendor"), words.text("col.name"),
        words.text("col.monthly"), words.text("col.horizon"), words.text("col.currency"), words.text("col.complete"),
        words.text("col.gaps"), words.text("col.dated"), words.text("col.priceDate")));
    for (String w : workloads) {
      for (String code : List.of("col.card", "col.count", "col.billing", "col.region")) heads.add(words.text(code, "workload", w));
    }
    heads.add(words.text("col.winsAt"));
    heads.add(words.text("col.sheet"));
    x.headings(h, heads);
    summary.createFreezePane(0, TABLE_HEADER + 1);
    return TABLE_HEADER + 1;
  }

  /** One plan's row: its totals are the bill sheet's total cells. {@code rank} null for the reference and the mixed plan. */
  private int summaryRow(int r, Integer rank, Map<String, ?> plan, BillSheet sheet) {
    Row row = row(summary, r);
    boolean isMixed = plan.containsKey("homeVendor");
    if (rank != null) row.createCell(0).setCellValue(rank);
    else row.createCell(0).setCellValue(words.text(isMixed ? "rank.mixed" : "rank.reference"));
    List<Map<String, ?>> placements = maps(plan.get("placements"));
    if (isMixed) {
      row.createCell(1).setCellValue(String.join(", ", placements.stream().map(p -> text(p.get("vendor"))).distinct().toList()));
      row.createCell(2).setCellValue(words.text("bill.mixedTitle", "vendor", text(plan.get("homeVendor"))));
    } else {
      row.createCell(1).setCellValue(text(plan.get("vendor")));
      row.createCell(2).setCellValue(text(plan.get("displayName")));
    }
    String ref = quoted(sheet.name()) + "!$" + col(PER_MONTH) + "$";
    formula(row, 3, ref + (sheet.totalRow() + 1), x.money);
    formula(row, 4, ref + (sheet.totalRow() + 2), x.money);
    row.createCell(5).setCellValue(text(ranking.get("currency")));
    row.createCell(6).setCellValue(words.text(Boolean.TRUE.equals(plan.get("complete")) ? "yes" : "no"));
    row.createCell(7).setCellValue(String.join("; ", maps(plan.get("gaps")).stream()
        .map(g -> text(g.get("item")) + ": " + text(g.get("reason"))).toList()));
    if (plan.containsKey("dated")) row.createCell(8).setCellValue(words.text(Boolean.TRUE.equals(plan.get("dated")) ? "yes" : "no"));
    if (plan.get("priceDate") != null) x.date(row, 9, plan.get("priceDate"), true);
    int c = 10;
    for (Map<String, ?> p : placements) {
      row.createCell(c++).setCellValue(text(p.get("gpuName")));
      row.createCell(c++).setCellValue(((Number) p.get("cards")).doubleValue());
      row.createCell(c++).setCellValue(billing(text(p.get("billing"))));
      row.createCell(c++).setCellValue(text(p.get("region")));
    }
    Map<String, ?> winsAt = map(plan.get("winsAt"));
    if (winsAt != null) row.createCell(c).setCellValue(text(winsAt.get("text")));
    // the sheet's name stays the row's last cell
    row.createCell(c + 1).setCellValue(sheet.name());
    return r + 1;
  }

  private String billing(String wire) {
    String code = "billing." + wire;
    return common.codes().contains(code) ? common.text(code) : wire;
  }

  /** A plan's bill on a sheet of its own. */
  private BillSheet bill(String wanted, Map<String, ?> plan, boolean isMixed) {
    return BillSheet.write(x, words, summary, wanted, plan, isMixed);
  }

  private void unavailable(int r) {
    List<Map<String, ?>> out = maps(ranking.get("unavailable"));
    if (out.isEmpty()) return;
    cell(summary, r, 0, words.text("unavailable.title")).setCellStyle(x.bold);
    Row h = row(summary, r + 1);
    h.createCell(0).setCellValue(words.text("unavailable.vendor"));
    h.createCell(1).setCellValue(words.text("unavailable.reason"));
    for (int i = 0; i < out.size(); i++) {
      Row row = row(summary, r + 2 + i);
      row.createCell(0).setCellValue(text(out.get(i).get("vendor")));
      row.createCell(1).setCellValue(text(out.get(i).get("reason")));
    }
  }

  // ------------------------------------------------------------------ sheet names

  /**
   * A legal sheet name (no []:*?/\, no apostrophe at either end, at most 31 characters), made
   * unique among {@code taken} (Excel ignores case) with " (2)", " (3)" ...; added to them.
   */
  static String sheetName(String wanted, Set<String> taken) {
    String base = WorkbookUtil.createSafeSheetName(wanted.strip(), '_');
    String name = base;
    for (int n = 2; !taken.add(name.toLowerCase(java.util.Locale.ROOT)); n++) {
      String tail = " (" + n + ")";
      name = base.substring(0, Math.min(base.length(), SHEET_NAME_MAX - tail.length())) + tail;
    }
    return name;
  }
}
