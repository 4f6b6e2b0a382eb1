package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A pure parser stamps the book with the instant its caller gives (the fetch's, from the caller's
 * clock), never with its own {@code Instant.now()}: each recorded payload is parsed at its test's
 * fixed instant, years away from today, and the book says that instant.
 */
class ParsersTakeTheClockTest {

  @Test
  void the_book_is_stamped_with_the_callers_instant() throws IOException {
    RunPodFormatTest.load();
    OciPriceListFormatTest.load();
    GcpPricingYmlFormatTest.load();
    AwsPriceListFormatTest.load();
    assertEquals(RunPodFormatTest.AT, RunPodFormatTest.parseSample().fetchedAt());  // 2025-06-21T23:18:00Z
    assertEquals(OciPriceListFormatTest.AT, OciPriceListFormatTest.parseSample().vendorQuotes().fetchedAt());  // 2024-01-19
    assertEquals(GcpPricingYmlFormatTest.FETCHED, GcpPricingYmlFormatTest.parseSample().vendorQuotes().fetchedAt());  // 2026-08-01
    assertEquals(AwsPriceListFormatTest.FETCHED, AwsPriceListFormatTest.parse(AwsPriceListFormatTest.US_EAST_1).fetchedAt());
  }
}
