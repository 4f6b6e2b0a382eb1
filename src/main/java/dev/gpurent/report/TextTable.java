package dev.gpurent.report;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with columns as wide as their widest cell; numbers right-aligned. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final boolean[] rightAligned;

  TextTable(boolean[] rightAligned, String... header) {
    this.rightAligned = rightAligned;
    rows.add(header);
  }

  TextTable row(String... cells) {
    rows.add(cells);
    return this;
  }

  String render(String indent) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) for (int c = 0; c < cols; c++) width[c] = Math.max(width[c], r[c] == null ? 0 : r[c].length());
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < cols; c++) {
        String cell = r[c] == null ? "" : r[c];
        String pad = " ".repeat(width[c] - cell.length());
        line.append(rightAligned[c] ? pad + cell : cell + (c == cols - 1 ? "" : pad));
        if (c < cols - 1) line.append("  ");
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }
}
