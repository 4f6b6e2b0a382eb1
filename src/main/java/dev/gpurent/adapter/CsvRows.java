package dev.gpurent.adapter;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The one CSV reader of the adapters: Apache Commons CSV set up once for what the recorded feeds
 * do. RFC 4180: double-quoted fields may hold commas, line breaks and doubled quotes; records end
 * at CRLF, LF or CR; a quote inside an unquoted field is a character. Where real files are
 * sloppy: a leading byte-order mark is dropped; text after a closing quote is kept ({@code "a"b}
 * reads as {@code ab}); an empty line is an empty row (the caller skips it), so that every row
 * keeps the line number it has in the file. An unterminated quoted field fails the whole payload,
 * since it would swallow every later row (a cut download).
 */
public final class CsvRows implements Closeable {

  private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder()
      .setIgnoreEmptyLines(false)
      .setTrailingData(true)
      .get();

  /**
   * One record.
   *
   * @param line  the line of the file it starts on (1-based; a quoted line break does not end a record)
   * @param cells its fields as written, unquoted
   */
  public record Row(int line, List<String> cells) {

    /** An empty or all-blank line: one blank cell. */
    public boolean blank() {
      return cells.size() == 1 && cells.get(0).isBlank();
    }
  }

  private final CSVParser parser;
  private final Iterator<CSVRecord> records;

  private CsvRows(CSVParser parser) {
    this.parser = parser;
    this.records = parser.iterator();
  }

  /** Rows of {@code in}, which the returned reader closes. */
  public static CsvRows of(Reader in) throws IOException {
    Reader r = in.markSupported() ? in : new java.io.BufferedReader(in);
    r.mark(1);
    if (r.read() != '\uFEFF') r.reset();
    return new CsvRows(CSVParser.parse(r, FORMAT));
  }

  /** The next row, or null at the end of the input. */
  public Row next() {
    int line = (int) parser.getCurrentLineNumber() + 1;  // lines read so far are the previous rows'
    try {
      if (!records.hasNext()) return null;
      return new Row(line, records.next().toList());
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof CSVException) {
        throw new IllegalArgumentException("not a readable CSV: a quoted field opened on line " + line + " never closes", e);
      }
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
