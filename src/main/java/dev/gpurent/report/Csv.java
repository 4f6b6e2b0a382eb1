package dev.gpurent.report;

/**
 * RFC 4180 CSV rows: CRLF line ends, fields quoted only when they hold a comma, quote or line break.
 * Text a spreadsheet would run as a formula (a cell beginning with {@code =}, {@code +}, {@code -},
 * {@code @}, tab or CR: OWASP's CSV injection rule) is prefixed with a single quote, so that
 * a region named {@code =1+1} in an imported history stays text. Numbers are left alone: a
 * negative price change is data, not a formula.
 */
public final class Csv {

  private final StringBuilder sb = new StringBuilder();

  public Csv row(Object... cells) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) sb.append(',');
      Object c = cells[i];
      sb.append(quote(c == null ? "" : c instanceof Number ? String.valueOf(c) : neutralised(String.valueOf(c))));
    }
    sb.append("\r\n");
    return this;
  }

  private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?");

  /** Text that cannot start a formula: a leading {@code = + - @}, tab or CR gets a {@code '} before it, unless the text is a plain number. */
  static String neutralised(String s) {
    if (s.isEmpty()) return s;
    char c = s.charAt(0);
    boolean risky = c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
    return risky && !NUMBER.matcher(s).matches() ? "'" + s : s;
  }

  static String quote(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
