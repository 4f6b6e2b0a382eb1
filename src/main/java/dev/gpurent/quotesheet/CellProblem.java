package dev.gpurent.quotesheet;

import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import dev.gpurent.text.Message;

/**
 * One thing wrong with a quote sheet, where a person finds it: the sheet, the row and column as
 * the spreadsheet numbers them (row 1 is the header, column A the first), the column's header, and
 * what is wrong, as a message of the {@code sheet} bundle (said in a language only at the edge).
 * Row and column are null for a problem of a whole sheet or file.
 */
public record CellProblem(String sheet, Integer row, String column, String header, Message message) {

  static CellProblem cell(String sheet, int row0, int col0, String header, Message reason) {
    return new CellProblem(sheet, row0 + 1, Grid.column(col0), header, reason);
  }

  static CellProblem row(String sheet, int row0, Message reason) {
    return new CellProblem(sheet, row0 + 1, null, null, reason);
  }

  static CellProblem sheet(String sheet, Message reason) {
    return new CellProblem(sheet, null, null, null, reason);
  }

  /** What is wrong, in English. */
  public String reason() {
    return Localizer.en(message);
  }

  /** Where, compactly, the same in every language: {@code offers!H3 (Price)}, {@code offers row 3}, {@code terms}, {@code file x.xlsx}. */
  public String where() {
    if (column != null) return sheet + "!" + column + row + (header == null ? "" : " (" + header + ")");
    if (row != null) return sheet + " row " + row;
    return sheet;
  }

  /** Where and what, as a message: {@code sheet offers, row 3, column H (Price): must be > 0, got -3} / {@code offers!H3「价格」：...}. */
  public Message said() {
    return Message.of("sheet.problem", "at", at(), "reason", message);
  }

  /** As a person reads it in {@code lang}. */
  public String text(Lang lang) {
    return Localizer.text(said(), lang);
  }

  private Message at() {
    if (sheet.startsWith("file ") && row == null) return Message.of("sheet.at.file", "name", sheet.substring("file ".length()));
    if (sheet.equals("vendor") && row == null) return Message.of("sheet.at.vendor");
    if (column != null) {
      return header == null ? Message.of("sheet.at.cell", "sheet", sheet, "row", row, "column", column)
          : Message.of("sheet.at.cellHeader", "sheet", sheet, "row", row, "column", column, "header", header);
    }
    return row == null ? Message.of("sheet.at.sheet", "sheet", sheet) : Message.of("sheet.at.row", "sheet", sheet, "row", row);
  }

  /** As a person reads it in English: {@code sheet offers, row 3, column H (Price): must be > 0, got -3}. */
  @Override
  public String toString() {
    return text(Lang.EN);
  }
}
