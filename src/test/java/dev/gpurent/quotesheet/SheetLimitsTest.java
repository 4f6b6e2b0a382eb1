package dev.gpurent.quotesheet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quotesheet.QuoteSheetReader.Upload;
import dev.gpurent.text.Lang;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Sheet;
import org.junit.jupiter.api.Test;

/**
 * Quote sheets that are small files and huge sheets: each refused with the limit named, at the first
 * row, column, cell or text past it, which the count of cells read at the refusal shows (the grid
 * that would have been built is never built). The sheets' XML is written by hand, as an attacker
 * would, so that the test itself stays small and fast.
 */
class SheetLimitsTest {

  static List<String> problems(String file, byte[] bytes) {
    return Sheets.problems(assertThrows(BadSheetException.class, () -> QuoteSheetReader.read(List.of(new Upload(file, bytes)),
        Fixtures.CATALOG, QuoteSheetReaderTest.CLOCK)));
  }

  static SheetLimits.Exceeded exceeded(byte[] xlsx) {
    return assertThrows(SheetLimits.Exceeded.class, () -> Grid.fromXlsx(xlsx, "file x.xlsx", name -> true, new SheetLimits()));
  }

  /** The attack: one number in column XFD on each of 20,000 rows. */
  static byte[] xfdSheet() {
    return Sheets.xfdAttack();
  }

  @Test
  void the_20000_row_xfd_sheet_is_refused_at_its_first_cell() {
    byte[] xlsx = xfdSheet();
    assertTrue(xlsx.length < 200 * 1024, xlsx.length + " bytes");
    assertEquals(List.of("sheet offers, row 1, column XFD: past the limit of 100 columns (A to CV) a quote sheet may use; "
        + "nothing more was read"), problems("attack.xlsx", xlsx));
    assertEquals(0, exceeded(xlsx).cellsRead());
  }

  @Test
  void a_sheet_past_10000_rows_is_refused_at_row_10001_having_read_10000_cells() {
    byte[] xlsx = Sheets.workbook("offers", Sheets.rows(20_000, "A"));
    assertEquals(List.of("sheet offers, row 10001: past the limit of 10000 rows a quote sheet may have; nothing more was read"),
        problems("rows.xlsx", xlsx));
    assertEquals(10_000, exceeded(xlsx).cellsRead());
    byte[] oneFarRow = Sheets.workbook("offers", "<row r=\"1048576\"><c r=\"A1048576\"><v>1</v></c></row>");
    assertEquals(List.of("sheet offers, row 1048576: past the limit of 10000 rows a quote sheet may have; nothing more was read"),
        problems("far.xlsx", oneFarRow));
  }

  @Test
  void a_sheet_past_200000_cells_is_refused_at_the_next_one() {
    String[] hundred = new String[100];
    for (int c = 0; c < 100; c++) hundred[c] = Grid.column(c);
    byte[] xlsx = Sheets.workbook("offers", Sheets.rows(2_001, hundred));
    assertEquals(List.of("sheet offers, row 2001, column A: past the limit of 200000 cells a quote sheet may have; "
        + "nothing more was read"), problems("cells.xlsx", xlsx));
    assertEquals(200_000, exceeded(xlsx).cellsRead());
  }

  @Test
  void a_workbook_past_100000_shared_strings_is_refused_before_its_sheets_are_read() throws IOException {
    byte[] small = Sheets.workbook("offers", "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>");
    StringBuilder sst = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">");
    for (int i = 0; i <= 100_000; i++) sst.append("<si><t>t").append(i).append("</t></si>");
    byte[] xlsx = Sheets.replaced(small, "xl/sharedStrings.xml", sst.append("</sst>").toString());
    assertEquals(List.of("file texts.xlsx: more than 100000 distinct texts (shared strings), the limit of a quote sheet; "
        + "nothing more was read"), problems("texts.xlsx", xlsx));
    assertEquals(0, exceeded(xlsx).cellsRead());
  }

  @Test
  void a_text_longer_than_a_cell_holds_is_refused() {
    byte[] xlsx = Sheets.workbook("offers", "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>" + "x".repeat(40_000) + "</t></is></c></row>");
    byte[] csv = ("GPU model\n" + "x".repeat(40_000) + "\n").getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("sheet offers: a text of more than 32767 characters, the limit of one cell; nothing more was read"),
        problems("long.csv", csv));
    assertEquals(List.of("sheet offers: a text of more than 32767 characters, the limit of one cell; nothing more was read"),
        problems("long.xlsx", xlsx));
  }

  @Test
  void csv_sheets_are_bounded_the_same() {
    byte[] rows = "GPU model\n1\n".repeat(5_001).getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("sheet offers, row 10001: past the limit of 10000 rows a quote sheet may have; nothing more was read"),
        problems("rows.csv", rows));
    byte[] wide = (",".repeat(150) + "\n").getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("sheet offers, row 1, column CW: past the limit of 100 columns (A to CV) a quote sheet may use; "
        + "nothing more was read"), problems("wide.csv", wide));
  }

  @Test
  void sheets_other_than_offers_and_terms_are_named_but_never_read() throws IOException {
    byte[] xlsx = Sheets.workbook("Sheet1", Sheets.rows(20_000, "XFD"));
    SheetLimits limits = new SheetLimits();
    List<Grid> sheets = Grid.fromXlsx(xlsx, "file x.xlsx", SheetLayout::isOffersSheet, limits);
    assertEquals(List.of("Sheet1"), sheets.stream().map(Grid::name).toList());
    assertEquals(0, sheets.get(0).rows().size());
    assertEquals(0, limits.cellsRead());
  }

  @Test
  void the_streamed_grid_is_the_object_models_grid_cell_for_cell() throws IOException {
    byte[] guide = Sheets.guideQuote(Lang.EN, QuoteSheetReaderTest.TODAY);
    byte[] typed = Sheets.edit(guide, wb -> {
      Sheet offers = wb.getSheetAt(0);
      Sheets.cell(offers, 2, "I").setCellValue(1500.25);
      Sheets.cell(offers, 3, "I").setCellValue(1e-7);
      var date = Sheets.cell(offers, 2, "L");
      date.setCellValue(java.time.LocalDate.parse("2026-08-01"));
      var style = wb.createCellStyle();
      style.setDataFormat(wb.getCreationHelper().createDataFormat().getFormat("yyyy-mm-dd"));
      date.setCellStyle(style);
      Sheets.cell(offers, 4, "A").setCellValue(true);
      Sheets.cell(offers, 4, "B").setCellFormula("1000+500");
      Sheets.cell(offers, 4, "C").setCellErrorValue(FormulaError.DIV0.getCode());
      Sheets.cell(offers, 4, "D").setCellValue(new org.apache.poi.xssf.usermodel.XSSFRichTextString("  rich  "));
      Sheets.cell(offers, 7, "E").setCellStyle(style);
    });
    for (byte[] xlsx : List.of(guide, typed, Sheets.guideQuote(Lang.ZH, QuoteSheetReaderTest.TODAY))) {
      SheetLimits limits = new SheetLimits();
      List<Grid> streamed = Grid.fromXlsx(xlsx, "file x.xlsx", name -> true, limits);
      List<Grid> plain = PlainGrid.fromXlsx(xlsx);
      assertEquals(plain.stream().map(Grid::name).toList(), streamed.stream().map(Grid::name).toList());
      for (int i = 0; i < plain.size(); i++) {
        Grid p = plain.get(i);
        Grid g = streamed.get(i);
        for (int r = 0; r < Math.max(p.rows().size(), g.rows().size()); r++) {
          for (int c = 0; c < SheetLimits.MAX_COLUMNS; c++) {
            assertEquals(p.cell(r, c), g.cell(r, c), p.name() + "!" + Grid.column(c) + (r + 1));
          }
        }
      }
      assertTrue(limits.cellsRead() > 0 && limits.cellsRead() < 2_000, limits.cellsRead() + " cells");
    }
  }
}
