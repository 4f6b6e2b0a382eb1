package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quirks of recorded CSV feeds that the one CSV reader is set up for. */
class CsvRowsTest {

  static List<CsvRows.Row> rows(String text) throws IOException {
    List<CsvRows.Row> out = new ArrayList<>();
    try (CsvRows csv = CsvRows.of(new StringReader(text))) {
      for (CsvRows.Row r = csv.next(); r != null; r = csv.next()) out.add(r);
    }
    return out;
  }

  @Test
  void reads_quoted_commas_doubled_quotes_and_the_surplus_fields_as_written() throws IOException {
    List<CsvRows.Row> r = rows("A10,\"['Azure', 'Lambda', 'OCI']\"\r\n\"a\"\"b\"\r\nx,V1,V2\r\n");
    assertEquals(List.of("A10", "['Azure', 'Lambda', 'OCI']"), r.get(0).cells());
    assertEquals(List.of("a\"b"), r.get(1).cells());
    assertEquals(List.of("x", "V1", "V2"), r.get(2).cells(), "Azure's unquoted V1,V2 stays two fields");
  }

  @Test
  void numbers_rows_by_the_line_they_start_on() throws IOException {
    List<CsvRows.Row> r = rows("h1,h2\r\n\r\n\"two\nlines\",x\rlast");
    assertEquals(List.of(1, 2, 3, 5), r.stream().map(CsvRows.Row::line).toList());
    assertTrue(r.get(1).blank(), "an empty line is a blank row, not skipped");
    assertEquals(List.of("two\nlines", "x"), r.get(2).cells());
    assertEquals(List.of("last"), r.get(3).cells(), "a lone CR ends a record too");
  }

  @Test
  void drops_a_byte_order_mark_and_keeps_text_after_a_closing_quote() throws IOException {
    assertEquals(List.of("SKU", "b"), rows("\uFEFF\"SKU\",b\n").get(0).cells());
    assertEquals(List.of("abcdef", "g", "in\"side"), rows("\"abc\"def,g,in\"side\n").get(0).cells());
  }

  @Test
  void fails_on_a_quoted_field_that_never_closes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rows("a,b\nc,\"cut off\nd"));
    assertEquals("not a readable CSV: a quoted field opened on line 2 never closes", e.getMessage());
  }
}
