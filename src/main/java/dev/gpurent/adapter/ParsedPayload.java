package dev.gpurent.adapter;

import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import java.util.List;

/**
 * A parser's result: the vendor's quotes, plus whatever counts its format reports beside them
 * (rows read, rows skipped, pages...). Lets tests read the quotes and rejections directly.
 */
public interface ParsedPayload {

  VendorQuotes vendorQuotes();

  default List<Quote> quotes() {
    return vendorQuotes().quotes();
  }

  default List<String> rejected() {
    return vendorQuotes().rejected();
  }
}
