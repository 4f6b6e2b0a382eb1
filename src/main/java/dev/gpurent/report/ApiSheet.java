package dev.gpurent.report;

import dev.gpurent.text.Messages;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;

/**
 * The workbook's "rent or call an API" sheet: one row per API selling an inference workload's
 * model (its prices per million tokens, the workload's tokens a month, what that costs a month, the
 * recorded row it comes from), then the workload's verdict. Read from the ranking's {@code apis}
 * (texts already rendered); a ranking without them gets no sheet.
 */
final class ApiSheet {

  private ApiSheet() {}

  static void add(Workbook wb, String name, List<Map<String, ?>> apis, Messages words, CellStyle money) {
    if (apis.isEmpty()) return;
    Sheet s = wb.createSheet(name);
    int r = 0;
    Row head = s.createRow(r++);
    String[] heads = {"api.workload", "api.model", "api.provider", "api.providerModel", "api.inputPerMillion", "api.outputPerMillion",
        "api.inputTokens", "api.outputTokens", "api.monthly", "api.context", "api.limit", "api.fx", "api.source"};
    for (int c = 0; c < heads.length; c++) head.createCell(c).setCellValue(words.text(heads[c]));
    for (Map<String, ?> a : apis) {
      for (Map<String, ?> o : maps(a.get("options"))) {
        Row row = s.createRow(r++);
        row.createCell(0).setCellValue(text(a.get("workload")));
        row.createCell(1).setCellValue(text(a.get("model")));
        row.createCell(2).setCellValue(text(o.get("provider")));
        row.createCell(3).setCellValue(text(o.get("model")));
        row.createCell(4).setCellValue(number(o.get("inputPerMillion")));
        row.createCell(5).setCellValue(number(o.get("outputPerMillion")));
        row.createCell(6).setCellValue(number(a.get("inputTokensPerMonth")));
        row.createCell(7).setCellValue(number(a.get("outputTokensPerMonth")));
        Cell monthly = row.createCell(8);
        monthly.setCellValue(number(o.get("monthly")));
        monthly.setCellStyle(money);
        if (o.get("contextTokens") != null) row.createCell(9).setCellValue(number(o.get("contextTokens")));
        row.createCell(10).setCellValue(text(o.get("limit")));
        row.createCell(11).setCellValue(text(o.get("fx")));
        row.createCell(12).setCellValue(text(o.get("source")));
      }
      s.createRow(r++).createCell(0).setCellValue(text(a.get("verdict")));
      r++;
    }
    s.setColumnWidth(0, 16 * 256);
    s.setColumnWidth(3, 44 * 256);
    s.setColumnWidth(12, 28 * 256);
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : new BigDecimal(text(o)).doubleValue();
  }

  private static String text(Object o) {
    return o == null ? "" : o.toString();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, ?>> maps(Object o) {
    return o instanceof List<?> l ? (List<Map<String, ?>>) l : List.of();
  }
}
