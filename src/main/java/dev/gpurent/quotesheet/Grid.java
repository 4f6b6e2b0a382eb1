package dev.gpurent.quotesheet;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * One sheet as rows of typed cells, read from a workbook or a CSV file, so that the quote-sheet
 * reader checks both the same way. Rows and columns are 0-based here; messages show them as a
 * spreadsheet does (row 1, column A).
 */
record Grid(String name, List<List<Value>> rows) {

  /** What a cell holds. Formulas are kept as such (never evaluated): a quote is typed values. */
  enum Type { BLANK, TEXT, NUMBER, DATE, BOOLEAN, FORMULA, ERROR }

  /** One cell: its type, its text as shown, and its number or date when it is one. */
  record Value(Type type, String text, BigDecimal number, LocalDate date) {
    static final Value BLANK = new Value(Type.BLANK, "", null, null);

    static Value text(String s) {
      String t = s == null ? "" : s.strip();
      return t.isEmpty() ? BLANK : new Value(Type.TEXT, t, null, null);
    }

    boolean isBlank() {
      return type == Type.BLANK;
    }
  }

  Value cell(int row, int col) {
    if (row >= rows.size()) return Value.BLANK;
    List<Value> r = rows.get(row);
    return col < r.size() ? r.get(col) : Value.BLANK;
  }

  /** Spreadsheet column letters: 0 is A, 26 is AA. */
  static String column(int col) {
    StringBuilder b = new StringBuilder();
    for (int c = col + 1; c > 0; c = (c - 1) / 26) b.insert(0, (char) ('A' + (c - 1) % 26));
    return b.toString();
  }

  /**
   * The sheets of an .xlsx workbook ({@code file}, as a refusal names it: "file x.xlsx"), streamed
   * under {@code limits}; a sheet {@code wanted} refuses is named but not read. Fails (IOException) when the bytes are not a workbook, and with
   * {@link SheetLimits.Exceeded} at the first row, cell or text past a limit.
   */
  static List<Grid> fromXlsx(byte[] bytes, String file, java.util.function.Predicate<String> wanted, SheetLimits limits)
      throws IOException {
    return XlsxGrids.read(bytes, file, wanted, limits);
  }

  /**
   * A CSV file (RFC 4180: commas, double quotes, CRLF or LF; UTF-8, with or without a byte-order
   * mark) as one sheet. Every cell is text, as CSV has no types; a cell starting with {@code =} is
   * taken for the formula a spreadsheet would see in it. Rows, cells and text are counted against
   * {@code limits} as they are read, as a workbook's are.
   */
  static Grid fromCsv(String name, byte[] bytes, SheetLimits limits) throws IOException {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new IOException("not UTF-8 text");
    }
    if (text.startsWith("\uFEFF")) text = text.substring(1);
    if (text.indexOf('\u0000') >= 0) throw new IOException("not a text file (it holds NUL bytes)");
    List<List<Value>> rows = new ArrayList<>();
    List<Value> row = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (quoted) {
        if (ch == '"') {
          if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          cell.append(ch);
          if (cell.length() > SheetLimits.MAX_CELL_CHARS) limits.text(name, cell.length());
        }
      } else if (ch == '"' && cell.length() == 0) {
        quoted = true;
        wasQuoted = true;
      } else if (ch == ',') {
        limits.cell(name, rows.size(), row.size());
        row.add(csvValue(cell.toString(), wasQuoted));
        cell.setLength(0);
        wasQuoted = false;
      } else if (ch == '\n' || ch == '\r') {
        if (ch == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
        limits.cell(name, rows.size(), row.size());
        row.add(csvValue(cell.toString(), wasQuoted));
        rows.add(row);
        row = new ArrayList<>();
        cell.setLength(0);
        wasQuoted = false;
      } else {
        cell.append(ch);
        if (cell.length() > SheetLimits.MAX_CELL_CHARS) limits.text(name, cell.length());
      }
    }
    if (quoted) throw new IOException("a quoted cell is never closed");
    if (cell.length() > 0 || !row.isEmpty()) {
      limits.cell(name, rows.size(), row.size());
      row.add(csvValue(cell.toString(), wasQuoted));
      rows.add(row);
    }
    return new Grid(name, rows);
  }

  private static Value csvValue(String s, boolean quoted) {
    String t = s.strip();
    if (!t.isEmpty() && t.charAt(0) == '=') return new Value(Type.FORMULA, t, null, null);
    return Value.text(t);
  }

  /** Today's date for UTC, as the sheets compare dates. */
  static LocalDate today(java.time.Clock clock) {
    return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
  }
}
