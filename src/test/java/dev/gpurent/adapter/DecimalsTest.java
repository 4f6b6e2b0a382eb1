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
    assertNull(Decimals.of("1,952"), "a comma is no decimal point");
    assertNull(Decimals.of(Double.NaN));
  }

  @Test
  void reads_the_commas_aws_writes_in_large_figures() {
    assertEquals(new BigDecimal("1952"), Decimals.grouped("1,952"));
    assertEquals(new BigDecimal("3.06"), Decimals.grouped("3.06"));
    assertNull(Decimals.grouped("NA"));
  }
}
