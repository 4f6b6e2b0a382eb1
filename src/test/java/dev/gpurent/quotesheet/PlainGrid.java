package dev.gpurent.quotesheet;

import dev.gpurent.quotesheet.Grid.Type;
import dev.gpurent.quotesheet.Grid.Value;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.ss.util.NumberToTextConverter;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * The plain twin of {@link XlsxGrids}: a workbook read through POI's object model, every row and
 * cell laid out (as gpurent read quote sheets before they were streamed), for small workbooks only.
 */
final class PlainGrid {

  private PlainGrid() {}

  static List<Grid> fromXlsx(byte[] bytes) throws IOException {
    List<Grid> out = new ArrayList<>();
    try (Workbook wb = new XSSFWorkbook(new ByteArrayInputStream(bytes))) {
      for (Sheet sheet : wb) {
        List<List<Value>> rows = new ArrayList<>();
        for (int r = 0; r <= sheet.getLastRowNum(); r++) {
          Row row = sheet.getRow(r);
          List<Value> cells = new ArrayList<>();
          if (row != null) {
            for (int c = 0; c < Math.max(0, row.getLastCellNum()); c++) cells.add(value(row.getCell(c)));
          }
          rows.add(cells);
        }
        out.add(new Grid(sheet.getSheetName(), rows));
      }
    }
    return out;
  }

  private static Value value(Cell cell) {
    if (cell == null) return Value.BLANK;
    switch (cell.getCellType()) {
      case STRING:
        return Value.text(cell.getStringCellValue());
      case NUMERIC:
        if (DateUtil.isCellDateFormatted(cell)) {
          LocalDate d = cell.getLocalDateTimeCellValue().toLocalDate();
          return new Value(Type.DATE, d.toString(), null, d);
        }
        String n = NumberToTextConverter.toText(cell.getNumericCellValue());
        return new Value(Type.NUMBER, n, new BigDecimal(n), null);
      case BOOLEAN:
        return new Value(Type.BOOLEAN, Boolean.toString(cell.getBooleanCellValue()), null, null);
      case FORMULA:
        return new Value(Type.FORMULA, "=" + cell.getCellFormula(), null, null);
      case ERROR:
        return new Value(Type.ERROR, FormulaError.forInt(cell.getErrorCellValue()).getString(), null, null);
      default:
        return Value.BLANK;
    }
  }
}
