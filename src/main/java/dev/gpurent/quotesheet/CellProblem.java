package dev.gpurent.quotesheet;

/**
 * One thing wrong with a quote sheet, where a person finds it: the sheet, the row and column as
 * the spreadsheet numbers them (row 1 is the header, column A the first), the column's header, and
 * what is wrong. Row and column are null for a problem of a whole sheet or file.
 */
public record CellProblem(String sheet, Integer row, String column, String header, String reason) {

  static CellProblem cell(String sheet, int row0, int col0, String header, String reason) {
    return new CellProblem(sheet, row0 + 1, Grid.column(col0), header, reason);
  }

  static CellProblem row(String sheet, int row0, String reason) {
    return new CellProblem(sheet, row0 + 1, null, null, reason);
  }

  static CellProblem sheet(String sheet, String reason) {
    return new CellProblem(sheet, null, null, null, reason);
  }

  /** Where, compactly: {@code offers!H3 (Price)}, {@code offers row 3}, {@code terms}, {@code file x.xlsx}. */
  public String where() {
    if (column != null) return sheet + "!" + column + row + (header == null ? "" : " (" + header + ")");
    if (row != null) return sheet + " row " + row;
    return sheet;
  }

  /** As a person reads it: {@code sheet offers, row 3, column H (Price): must be > 0, got -3}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    if (sheet.startsWith("file ") || sheet.equals("vendor")) b.append(sheet);
    else b.append("sheet ").append(sheet);
    if (row != null) b.append(", row ").append(row);
    if (column != null) b.append(", column ").append(column);
    if (header != null) b.append(" (").append(header).append(')');
    return b.append(": ").append(reason).toString();
  }
}
