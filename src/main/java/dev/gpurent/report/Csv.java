package dev.gpurent.report;

/** RFC 4180 CSV rows: CRLF line ends, fields quoted only when they hold a comma, quote or line break. */
public final class Csv {

  private final StringBuilder sb = new StringBuilder();

  public Csv row(Object... cells) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) sb.append(',');
      sb.append(quote(cells[i] == null ? "" : String.valueOf(cells[i])));
    }
    sb.append("\r\n");
    return this;
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
