package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class DecimalsTest {

  @Test
  void reads_numbers_and_their_text_exactly() {
    assertEquals(new BigDecimal("32.7726000000"), Decimals.of(" 32.7726000000 "), "the text's scale is kept");
    assertEquals(new BigDecimal("16.09"), Decimals.of(16.09), "a Double by its shortest text");
    assertEquals(new BigDecimal("8"), Decimals.of(8));
    BigDecimal d = new BigDecimal("0.649");
    assertEquals(d, Decimals.of(d));
  }

  @Test
  void gives_null_where_there_is_no_number() {
    assertNull(Decimals.of(null));
    assertNull(Decimals.of(""));
    assertNull(Decimals.of("NA"));
    assertNull(Decimals.of(true));
    assertNull(Decimals.of(Double.NaN));
  }

  @Test
  void reads_thousands_separators_and_refuses_every_other_comma_and_currency_signs() {
    assertEquals(new BigDecimal("1952"), Decimals.of("1,952"), "AWS's large figures");
    assertEquals(new BigDecimal("1123.00"), Decimals.of("1,123.00"));
    assertEquals(new BigDecimal("1234567.5"), Decimals.of("1,234,567.5"));
    assertNull(Decimals.of("1,5"), "a decimal comma is refused, not guessed");
    assertNull(Decimals.of("12,34"));
    assertNull(Decimals.of("1,2345"));
    assertNull(Decimals.of("1.123,00"));
    assertNull(Decimals.of("$1.00"));
    assertNull(Decimals.of("1.00 USD"));
    assertNull(Decimals.of("¥1,123.00"));
    assertEquals("a currency sign or code in a number cell (the currency is the vendor's)", Decimals.why("$1.00"));
    assertEquals("a comma that is no thousands separator", Decimals.why("1,5"));
    assertEquals("price '€2' is not a number (a currency sign or code in a number cell (the currency is the vendor's))",
        Decimals.notANumber("price", "€2"));
    assertEquals("", Decimals.why("1,123.00"));
  }
}
