package dev.gpurent.quotesheet;

import dev.gpurent.text.Lang;
import dev.gpurent.quotesheet.SheetLayout.OfferColumn;
import dev.gpurent.quotesheet.SheetLayout.TermColumn;
import dev.gpurent.quotesheet.SheetLayout.TermItem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.poi.ss.usermodel.BorderStyle;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.DataValidation;
import org.apache.poi.ss.usermodel.DataValidationHelper;
import org.apache.poi.ss.usermodel.FillPatternType;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.IndexedColors;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.util.CellRangeAddressList;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * The blank quote sheet to send to a vendor: an offers sheet (headers, then one example row to
 * replace), a terms sheet (one row per item, an example value beside each empty value cell) and an
 * instructions sheet, headers in the chosen language. Every cell is text, so that nothing a
 * spreadsheet would reformat (a code like 1e3, a date) changes on the way.
 */
public final class QuoteSheetTemplate {

  private QuoteSheetTemplate() {}

  /** The workbook as .xlsx bytes. The example offer is valid until 30 days after {@code today}. */
  public static byte[] xlsx(Lang lang, LocalDate today) {
    return xlsx(lang, today, List.of());
  }

  /**
   * The workbook with {@code offers} (cells in {@link OfferColumn} order) in place of the example
   * row: a sheet made for one vendor, its offers named and their target prices filled in.
   */
  public static byte[] xlsx(Lang lang, LocalDate today, List<List<String>> offerRows) {
    return xlsx(lang, today, offerRows, java.util.Map.of());
  }

  /**
   * The same, with {@code termNotes} in the note cell of those terms rows: for a vendor whose plan
   * misses a stated price, the highest price of each missing service at which it would rank #1.
   */
  public static byte[] xlsx(Lang lang, LocalDate today, List<List<String>> offerRows, java.util.Map<TermItem, String> termNotes) {
    Poi.ready();
    try (XSSFWorkbook wb = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      CellStyle header = wb.createCellStyle();
      Font bold = wb.createFont();
      bold.setBold(true);
      header.setFont(bold);
      header.setFillForegroundColor(IndexedColors.GREY_25_PERCENT.getIndex());
      header.setFillPattern(FillPatternType.SOLID_FOREGROUND);
      header.setBorderBottom(BorderStyle.THIN);
      CellStyle example = wb.createCellStyle();
      Font italic = wb.createFont();
      italic.setItalic(true);
      italic.setColor(IndexedColors.GREY_50_PERCENT.getIndex());
      example.setFont(italic);
      CellStyle text = wb.createCellStyle();
      text.setDataFormat(wb.createDataFormat().getFormat("@"));

      XSSFSheet offers = wb.createSheet(SheetLayout.offersSheet(lang));
      write(offers, 0, headers(lang), header);
      if (offerRows.isEmpty()) {
        write(offers, 1, SheetLayout.exampleOffer(lang, today.plusDays(30).toString()), example);
      } else {
        for (int i = 0; i < offerRows.size(); i++) write(offers, 1 + i, offerRows.get(i), null);
      }
      for (int c = 0; c < OfferColumn.values().length; c++) {
        offers.setColumnWidth(c, 256 * Math.max(12, OfferColumn.values()[c].header(lang).length() + 4));
        offers.setDefaultColumnStyle(c, text);
      }
      offers.createFreezePane(0, 1);
      DataValidationHelper dv = offers.getDataValidationHelper();
      String[] modes = lang == Lang.EN ? new String[] {"on-demand", "monthly", "yearly", "3-year", "spot"}
          : new String[] {"按量", "包月", "包年", "3年", "竞价"};
      DataValidation billing = dv.createValidation(dv.createExplicitListConstraint(modes),
          new CellRangeAddressList(1, 1000, OfferColumn.BILLING.ordinal(), OfferColumn.BILLING.ordinal()));
      billing.setShowErrorBox(false);  // a suggestion list: other spellings are read too
      offers.addValidationData(billing);
      String[] units = lang == Lang.EN ? new String[] {"hour", "month", "year", "term"} : new String[] {"小时", "月", "年", "整期"};
      DataValidation unit = dv.createValidation(dv.createExplicitListConstraint(units),
          new CellRangeAddressList(1, 1000, OfferColumn.UNIT.ordinal(), OfferColumn.UNIT.ordinal()));
      unit.setShowErrorBox(false);
      offers.addValidationData(unit);

      XSSFSheet terms = wb.createSheet(SheetLayout.termsSheet(lang));
      List<String> termHeaders = new ArrayList<>();
      for (TermColumn c : TermColumn.values()) termHeaders.add(c.header(lang));
      write(terms, 0, termHeaders, header);
      int r = 1;
      for (TermItem item : TermItem.values()) {
        write(terms, r++, List.of(item.label(lang), "", "", "", item.example(lang), termNotes.getOrDefault(item, "")), null);
        terms.getRow(r - 1).getCell(TermColumn.EXAMPLE.ordinal()).setCellStyle(example);
      }
      terms.setColumnWidth(0, 256 * 44);
      for (int c = 1; c < TermColumn.values().length; c++) {
        terms.setColumnWidth(c, 256 * Math.max(14, TermColumn.values()[c].header(lang).length() + 4));
        terms.setDefaultColumnStyle(c, text);
      }
      terms.createFreezePane(0, 1);

      XSSFSheet notes = wb.createSheet(SheetLayout.notesSheet(lang));
      List<String> lines = SheetLayout.notes(lang);
      for (int i = 0; i < lines.size(); i++) write(notes, i, List.of(lines.get(i)), i == 0 ? header : null);
      notes.setColumnWidth(0, 256 * 120);
      wb.write(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One sheet of the template as CSV (UTF-8 with a byte-order mark, which Excel needs to read Chinese). */
  public static byte[] csv(Lang lang, boolean termsSheet, LocalDate today) {
    List<List<String>> rows = new ArrayList<>();
    if (!termsSheet) {
      rows.add(headers(lang));
      rows.add(SheetLayout.exampleOffer(lang, today.plusDays(30).toString()));
    } else {
      List<String> h = new ArrayList<>();
      for (TermColumn c : TermColumn.values()) h.add(c.header(lang));
      rows.add(h);
      for (TermItem item : TermItem.values()) rows.add(List.of(item.label(lang), "", "", "", item.example(lang), ""));
    }
    StringBuilder b = new StringBuilder("\uFEFF");
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        if (i > 0) b.append(',');
        String v = row.get(i);
        b.append(v.matches(".*[\",\\r\\n].*") ? '"' + v.replace("\"", "\"\"") + '"' : v);
      }
      b.append("\r\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A sheet's offer rows made for one vendor: its winning offer per workload for a scenario, the
   * price cell left for the vendor, the target price at which it would rank #1 (its current price
   * when it already is), and a note saying so.
   */
  public static List<List<String>> targetRows(Lang lang, String scenario, String currency, dev.gpurent.cost.VendorPlan plan,
                                              boolean first) {
    List<List<String>> rows = new ArrayList<>();
    for (int w = 0; w < plan.placements().size(); w++) {
      dev.gpurent.cost.Placement p = plan.placements().get(w);
      dev.gpurent.quote.Quote q = p.quote();
      String target;
      String note;
      java.util.Optional<dev.gpurent.cost.WinsAt> wins = plan.winsAt();
      if (first) {
        target = p.unitPrice().round(4).plain();
        note = SheetLayout.pick(lang, "already #1 for " + scenario, "在「" + scenario + "」中已排名第一");
      } else if (wins.isPresent() && !wins.get().services().isEmpty()) {
        // Its GPUs already beat #1: what it lacks is a stated price for a service (the terms sheet asks for it).
        target = p.unitPrice().round(4).plain();
        note = SheetLayout.pick(lang, "beats #1 for " + scenario + " at this price if the terms sheet's services are quoted as asked: ",
            "按此价格，若条款表中的服务按要求报价，即可在「" + scenario + "」中胜过第一名：")
            + dev.gpurent.text.Localizer.text(wins.get().text(), lang);
      } else if (wins.isPresent() && wins.get().discount().isPresent()) {
        target = wins.get().unitPrices().get(w).unitPrice().plain();
        note = SheetLayout.pick(lang, "to take #1 for " + scenario + ": ", "在「" + scenario + "」中排名第一需：")
            + dev.gpurent.text.Localizer.text(wins.get().text(), lang);
      } else {
        target = "";
        note = wins.map(x -> dev.gpurent.text.Localizer.text(x.text(), lang)).orElse("");
      }
      rows.add(List.of(p.gpu().name(), number(q.gpuCount()), q.vcpus() > 0 ? number(q.vcpus()) : "",
          q.ramGiB() > 0 ? number(q.ramGiB()) : "", q.region(), q.country(), q.offerId(), SheetLayout.billingText(lang, q.billing()),
          "", SheetLayout.unitText(lang, q.unit().wire()), currency, "", note, target));
    }
    return rows;
  }

  /**
   * For a vendor whose plan lacks a stated price for a service (priced from a fallback provider or a
   * typical figure) and already costs less than #1: per such service on the terms sheet, the highest
   * price at which it would still rank #1 ({@code WinsAt.services}); empty otherwise.
   */
  public static java.util.Map<TermItem, String> targetTermNotes(Lang lang, String scenario, dev.gpurent.cost.VendorPlan plan) {
    java.util.Map<TermItem, String> notes = new java.util.EnumMap<>(TermItem.class);
    plan.winsAt().ifPresent(w -> w.services().forEach(c -> {
      TermItem item = switch (c.service()) {
        case "objectStorage" -> TermItem.STORAGE;
        case "egress" -> TermItem.EGRESS;
        case "ingress" -> TermItem.INGRESS;
        default -> TermItem.LOAD_BALANCER;
      };
      notes.put(item, SheetLayout.pick(lang, "to rank #1 for " + scenario + " (beating " + c.against() + "): at most " + c.atMost().plain() + " "
          + c.atMost().currency() + " per " + c.unit() + "; billed now at " + c.billedAt().round(4).plain() + " (" + c.pricedBy() + ")",
          "在「" + scenario + "」中排名第一（胜过 " + c.against() + "）：不高于 " + c.atMost().plain() + " " + c.atMost().currency()
          + "/" + c.unit() + "；目前按 " + c.billedAt().round(4).plain() + " 计价（" + (c.pricedBy().equals("typical") ? "典型估计值" : "替代供应商") + "）"));
    }));
    return notes;
  }

  private static String number(double d) {
    return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  static List<String> headers(Lang lang) {
    List<String> h = new ArrayList<>();
    for (OfferColumn c : OfferColumn.values()) h.add(c.header(lang));
    return h;
  }

  private static void write(XSSFSheet sheet, int rowIndex, List<String> values, CellStyle style) {
    Row row = sheet.createRow(rowIndex);
    for (int c = 0; c < values.size(); c++) {
      var cell = row.createCell(c);
      cell.setCellValue(values.get(c));
      if (style != null) cell.setCellStyle(style);
    }
  }
}
