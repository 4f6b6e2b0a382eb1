package dev.gpurent.quotesheet;

import dev.gpurent.text.Message;
import java.io.IOException;

/**
 * How much of a quote sheet is read: rows, columns, cells and texts, counted while the file is
 * streamed, so that a small file describing a huge sheet (one cell in column XFD on each of 20,000
 * rows is a 107 KB .xlsx, and 330 million cells once laid out as a grid) is refused at the first
 * cell past a limit, before anything of that size is built. One count covers a whole upload (every
 * sheet read of a workbook, or both CSV files).
 *
 * <p>The limits are far above a real quote (the template has 14 columns; thousands of offers are a
 * few thousand rows) and low enough that a grid at the limits is a few MB.
 */
final class SheetLimits {

  /** Rows of one sheet, the header included: a quote of thousands of offers fits ten times over. */
  static final int MAX_ROWS = 10_000;
  /** Columns of one sheet (A to CV); the template uses 14. */
  static final int MAX_COLUMNS = 100;
  /** Cells (blank but present ones included) of one upload. */
  static final int MAX_CELLS = 200_000;
  /** Distinct texts a workbook may share between its cells (its shared-strings table). */
  static final int MAX_SHARED_STRINGS = 100_000;
  /** Characters of one cell: Excel's own limit. */
  static final int MAX_CELL_CHARS = 32_767;
  /** Characters of every text of one upload together. */
  static final long MAX_TEXT_CHARS = 10_000_000;

  private int cells;
  private long chars;

  /** A limit passed: the problem names it and where it was passed; nothing more of the file was read. */
  static final class Exceeded extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient CellProblem problem;
    private final int cellsRead;

    Exceeded(CellProblem problem, int cellsRead) {
      super(problem.toString());
      this.problem = problem;
      this.cellsRead = cellsRead;
    }

    CellProblem problem() {
      return problem;
    }

    /** Cells read when the limit was passed: what a refusal cost. */
    int cellsRead() {
      return cellsRead;
    }
  }

  /** A row is about to be read ({@code row0} 0-based). */
  void row(String sheet, int row0) throws Exceeded {
    if (row0 >= MAX_ROWS) {
      throw new Exceeded(CellProblem.row(sheet, row0, Message.of("sheet.limit.rows", "max", MAX_ROWS)), cells);
    }
  }

  /** A cell is about to be read. */
  void cell(String sheet, int row0, int col0) throws Exceeded {
    row(sheet, row0);
    if (col0 >= MAX_COLUMNS) {
      throw new Exceeded(CellProblem.cell(sheet, row0, col0, null, Message.of("sheet.limit.columns", "max", MAX_COLUMNS,
          "last", Grid.column(MAX_COLUMNS - 1))), cells);
    }
    if (++cells > MAX_CELLS) {
      throw new Exceeded(CellProblem.cell(sheet, row0, col0, null, Message.of("sheet.limit.cells", "max", MAX_CELLS)), cells - 1);
    }
  }

  /** A text of {@code length} characters so far is being read. */
  void text(String sheet, long length) throws Exceeded {
    if (length > MAX_CELL_CHARS) {
      throw new Exceeded(CellProblem.sheet(sheet, Message.of("sheet.limit.cellText", "max", MAX_CELL_CHARS)), cells);
    }
  }

  /** A whole text of {@code length} characters was read. */
  void textRead(String sheet, int length) throws Exceeded {
    chars += length;
    if (chars > MAX_TEXT_CHARS) {
      throw new Exceeded(CellProblem.sheet(sheet, Message.of("sheet.limit.text", "max", MAX_TEXT_CHARS)), cells);
    }
  }

  /** One more shared string ({@code count} so far). */
  void sharedString(String file, int count) throws Exceeded {
    if (count > MAX_SHARED_STRINGS) {
      throw new Exceeded(CellProblem.sheet(file, Message.of("sheet.limit.shared", "max", MAX_SHARED_STRINGS)), cells);
    }
  }

  int cellsRead() {
    return cells;
  }
}
