package dev.gpurent.quotesheet;

import dev.gpurent.quotesheet.Grid.Type;
import dev.gpurent.quotesheet.Grid.Value;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.poi.openxml4j.exceptions.OpenXML4JException;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.opc.PackageAccess;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.util.NumberToTextConverter;
import org.apache.poi.util.XMLHelper;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.usermodel.XSSFCellStyle;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The sheets of an .xlsx workbook read as a stream of XML (POI's event API and SAX), never as
 * POI's object model, which lays out every row and cell of a sheet before anything can count them.
 * Every row, cell and text is counted against {@link SheetLimits} as it is read. Only the sheets
 * asked for are read; the others are named, empty.
 *
 * <p>The workbook is opened from a temporary file rather than from memory, so that POI inflates
 * each part only as it is read, under its zip-bomb guard ({@code ZipSecureFile}), instead of
 * inflating the whole package first. The XML readers are POI's hardened ones (no external
 * entities, no DTD).
 */
final class XlsxGrids {

  private XlsxGrids() {}

  /** The workbook's sheets in order; those {@code wanted} refuses come back without rows. {@code file} names it in a refusal. */
  static List<Grid> read(byte[] bytes, String file, Predicate<String> wanted, SheetLimits limits) throws IOException {
    Poi.ready();
    Path copy = Files.createTempFile("gpurent-sheet", ".xlsx");
    OPCPackage pkg = null;
    try {
      Files.write(copy, bytes);
      pkg = OPCPackage.open(copy.toFile(), PackageAccess.READ);
      XSSFReader reader = new XSSFReader(pkg);
      boolean date1904 = date1904(reader);
      StylesTable styles = reader.getStylesTable();
      List<String> shared = null;
      List<Grid> out = new ArrayList<>();
      XSSFReader.SheetIterator sheets = reader.getSheetIterator();
      while (sheets.hasNext()) {
        try (InputStream in = sheets.next()) {
          String name = sheets.getSheetName();
          if (!wanted.test(name)) {
            out.add(new Grid(name, List.of()));
            continue;
          }
          if (shared == null) shared = sharedStrings(reader, file, limits);
          SheetHandler h = new SheetHandler(name, shared, styles, date1904, limits);
          parse(in, h);
          out.add(new Grid(name, h.rows));
        }
      }
      return out;
    } catch (OpenXML4JException | RuntimeException e) {
      // POI signals a malformed package with unchecked exceptions (NotOfficeXmlFileException, POIXMLException...)
      throw new IOException(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
    } finally {
      if (pkg != null) pkg.revert();
      Files.deleteIfExists(copy);
    }
  }

  private static void parse(InputStream in, DefaultHandler handler) throws IOException {
    try {
      XMLReader xml = XMLHelper.newXMLReader();
      xml.setContentHandler(handler);
      xml.parse(new InputSource(in));
    } catch (SAXException e) {
      if (e.getException() instanceof IOException io) throw io;
      throw new IOException(e.getMessage(), e);
    } catch (ParserConfigurationException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** An element's name without its namespace prefix. */
  private static String local(String localName, String qName) {
    if (localName != null && !localName.isEmpty()) return localName;
    int colon = qName.indexOf(':');
    return colon < 0 ? qName : qName.substring(colon + 1);
  }

  /** Whether dates count from 1904 (old Mac workbooks), as the workbook says. */
  private static boolean date1904(XSSFReader reader) throws IOException, OpenXML4JException {
    boolean[] is1904 = {false};
    try (InputStream in = reader.getWorkbookData()) {
      parse(in, new DefaultHandler() {
        @Override
        public void startElement(String uri, String localName, String qName, Attributes a) {
          if (local(localName, qName).equals("workbookPr")) {
            String v = a.getValue("date1904");
            is1904[0] = "1".equals(v) || "true".equals(v);
          }
        }
      });
    }
    return is1904[0];
  }

  /** The shared-strings table (texts cells refer to by number), counted as it is read. */
  private static List<String> sharedStrings(XSSFReader reader, String file, SheetLimits limits)
      throws IOException, OpenXML4JException {
    List<String> out = new ArrayList<>();
    InputStream in;
    try {
      in = reader.getSharedStringsData();
    } catch (IOException | OpenXML4JException | RuntimeException none) {
      return out;  // a workbook without a shared-strings part: every text is inline
    }
    if (in == null) return out;
    String where = file;
    try (in) {
      parse(in, new DefaultHandler() {
        private final StringBuilder text = new StringBuilder();
        private boolean inText;
        private int phonetic;

        @Override
        public void startElement(String uri, String localName, String qName, Attributes a) throws SAXException {
          switch (local(localName, qName)) {
            case "si" -> {
              text.setLength(0);
              try {
                limits.sharedString(where, out.size() + 1);
              } catch (SheetLimits.Exceeded e) {
                throw new SAXException(e);
              }
            }
            case "rPh" -> phonetic++;  // the reading of East Asian text, not the text
            case "t" -> inText = phonetic == 0;
            default -> { }
          }
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
          if (inText) append(text, ch, start, length, limits, where);
        }

        @Override
        public void endElement(String uri, String localName, String qName) throws SAXException {
          switch (local(localName, qName)) {
            case "t" -> inText = false;
            case "rPh" -> phonetic--;
            case "si" -> {
              try {
                limits.textRead(where, text.length());
              } catch (SheetLimits.Exceeded e) {
                throw new SAXException(e);
              }
              out.add(text.toString());
            }
            default -> { }
          }
        }
      });
    }
    return out;
  }

  /** One sheet's rows: {@code <row r>} of {@code <c r t s>} holding {@code <v>}, {@code <f>} or {@code <is><t>}. */
  private static final class SheetHandler extends DefaultHandler {
    final List<List<Value>> rows = new ArrayList<>();
    private final String sheet;
    private final List<String> shared;
    private final StylesTable styles;
    private final boolean date1904;
    private final SheetLimits limits;

    private List<Value> row;
    private int row0 = -1;
    private int col0;
    private String type;
    private int style;
    private boolean formula;
    private boolean inValue;
    private boolean inFormula;
    private boolean inText;
    private int phonetic;
    private final StringBuilder value = new StringBuilder();
    private final StringBuilder formulaText = new StringBuilder();

    SheetHandler(String sheet, List<String> shared, StylesTable styles, boolean date1904, SheetLimits limits) {
      this.sheet = sheet;
      this.shared = shared;
      this.styles = styles;
      this.date1904 = date1904;
      this.limits = limits;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes a) throws SAXException {
      try {
        switch (local(localName, qName)) {
          case "row" -> {
            String r = a.getValue("r");
            row0 = r == null ? row0 + 1 : Integer.parseInt(r) - 1;
            if (row0 < rows.size()) throw new IOException("row " + (row0 + 1) + " of sheet " + sheet + " comes twice or out of order");
            limits.row(sheet, row0);
            row = new ArrayList<>();
            col0 = -1;
          }
          case "c" -> {
            String ref = a.getValue("r");
            col0 = ref == null ? col0 + 1 : column(ref);
            limits.cell(sheet, Math.max(row0, 0), col0);
            type = a.getValue("t");
            String s = a.getValue("s");
            style = s == null ? 0 : Integer.parseInt(s);
            formula = false;
            value.setLength(0);
            formulaText.setLength(0);
          }
          case "v" -> inValue = true;
          case "f" -> {
            inFormula = true;
            formula = true;
          }
          case "rPh" -> phonetic++;
          case "t" -> inText = phonetic == 0;
          default -> { }
        }
      } catch (IOException e) {
        throw new SAXException(e);
      } catch (NumberFormatException e) {
        throw new SAXException(new IOException("a row or style number that is not a number in sheet " + sheet));
      }
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
      StringBuilder into = inFormula ? formulaText : inValue || inText ? value : null;
      if (into != null) append(into, ch, start, length, limits, sheet);
    }

    @Override
    public void endElement(String uri, String localName, String qName) throws SAXException {
      try {
        switch (local(localName, qName)) {
          case "v" -> inValue = false;
          case "f" -> inFormula = false;
          case "t" -> inText = false;
          case "rPh" -> phonetic--;
          case "c" -> {
            Value v = cell();
            if (v.type() == Type.TEXT) limits.textRead(sheet, v.text().length());
            while (row.size() < col0) row.add(Value.BLANK);
            if (col0 < row.size()) throw new IOException("cell " + Grid.column(col0) + (row0 + 1) + " of sheet " + sheet
                + " comes twice or out of order");
            row.add(v);
          }
          case "row" -> {
            while (rows.size() < row0) rows.add(List.of());
            rows.add(row);
          }
          default -> { }
        }
      } catch (IOException e) {
        throw new SAXException(e);
      }
    }

    /** The cell just read, typed as POI's object model types it. */
    private Value cell() throws IOException {
      if (formula) {
        String f = formulaText.toString().strip();
        return new Value(Type.FORMULA, "=" + (f.isEmpty() ? "(a shared formula)" : f), null, null);
      }
      String v = value.toString();
      String t = type == null ? "n" : type;
      switch (t) {
        case "s" -> {
          int i;
          try {
            i = Integer.parseInt(v.strip());
          } catch (NumberFormatException e) {
            throw new IOException("a text cell without its text's number in sheet " + sheet);
          }
          if (i < 0 || i >= shared.size()) throw new IOException("a text cell names text " + i + ", which the workbook lacks");
          return Value.text(shared.get(i));
        }
        case "inlineStr", "str" -> {
          return Value.text(v);
        }
        case "b" -> {
          return new Value(Type.BOOLEAN, Boolean.toString(v.strip().equals("1")), null, null);
        }
        case "e" -> {
          String e = v.strip();
          try {
            e = FormulaError.forString(e).getString();
          } catch (IllegalArgumentException unknown) {
            // kept as written
          }
          return new Value(Type.ERROR, e, null, null);
        }
        case "d" -> {
          if (v.isBlank()) return Value.BLANK;
          LocalDate d = LocalDate.parse(v.strip().substring(0, Math.min(10, v.strip().length())));
          return new Value(Type.DATE, d.toString(), null, d);
        }
        default -> {
          if (v.isBlank()) return Value.BLANK;
          double d;
          try {
            d = Double.parseDouble(v.strip());
          } catch (NumberFormatException e) {
            throw new IOException("a number cell holding text in sheet " + sheet);
          }
          if (isDate(d)) {
            LocalDate date = DateUtil.getLocalDateTime(d, date1904).toLocalDate();
            return new Value(Type.DATE, date.toString(), null, date);
          }
          String n = NumberToTextConverter.toText(d);
          return new Value(Type.NUMBER, n, new BigDecimal(n), null);
        }
      }
    }

    /** As POI's {@code DateUtil.isCellDateFormatted}: a valid Excel date in a date format. */
    private boolean isDate(double d) {
      if (styles == null || style < 0 || style >= styles.getNumCellStyles() || !DateUtil.isValidExcelDate(d)) return false;
      XSSFCellStyle s = styles.getStyleAt(style);
      return s != null && DateUtil.isADateFormat(s.getDataFormat(), s.getDataFormatString());
    }

    /** The 0-based column of a reference such as {@code XFD20000}. */
    private int column(String ref) throws IOException {
      int c = 0;
      int i = 0;
      while (i < ref.length() && Character.isLetter(ref.charAt(i))) {
        char ch = Character.toUpperCase(ref.charAt(i++));
        if (ch < 'A' || ch > 'Z' || i > 3) throw new IOException("a cell reference that is not one in sheet " + sheet);
        c = c * 26 + (ch - 'A' + 1);
      }
      if (i == 0) throw new IOException("a cell reference that is not one in sheet " + sheet);
      return c - 1;
    }
  }

  /** Appends a run of a cell's text, refused once the cell passes the limit of characters a cell may hold. */
  private static void append(StringBuilder into, char[] ch, int start, int length, SheetLimits limits, String where)
      throws SAXException {
    into.append(ch, start, length);
    try {
      limits.text(where, into.length());
    } catch (SheetLimits.Exceeded e) {
      throw new SAXException(e);
    }
  }
}
