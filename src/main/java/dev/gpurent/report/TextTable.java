package dev.gpurent.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with columns as wide as their widest cell; numbers right-aligned. Widths are
 * terminal columns: a CJK character (or a full-width form) takes two, so Chinese bills line up.
 */
public final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final boolean[] rightAligned;

  public TextTable(boolean[] rightAligned, String... header) {
    this.rightAligned = rightAligned;
    rows.add(header);
  }

  public TextTable row(String... cells) {
    rows.add(cells);
    return this;
  }

  public String render(String indent) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) for (int c = 0; c < cols; c++) width[c] = Math.max(width[c], r[c] == null ? 0 : width(r[c]));
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < cols; c++) {
        String cell = r[c] == null ? "" : r[c];
        String pad = " ".repeat(width[c] - width(cell));
        line.append(rightAligned[c] ? pad + cell : cell + (c == cols - 1 ? "" : pad));
        if (c < cols - 1) line.append("  ");
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  /** Terminal columns of {@code s}: two for each wide code point (East Asian Wide and Fullwidth, as terminals draw them). */
  public static int width(String s) {
    int w = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      w += wide(cp) ? 2 : 1;
      i += Character.charCount(cp);
    }
    return w;
  }

  /** {@code s} cut to at most {@code columns} terminal columns, an ellipsis marking the cut. */
  public static String cut(String s, int columns) {
    if (width(s) <= columns) return s;
    StringBuilder sb = new StringBuilder();
    int w = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int cw = wide(cp) ? 2 : 1;
      if (w + cw > columns - 1) break;
      sb.appendCodePoint(cp);
      w += cw;
      i += Character.charCount(cp);
    }
    return sb.append('…').toString();
  }

  private static boolean wide(int cp) {
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF)
        || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF)
        || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
        || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
  }
}
