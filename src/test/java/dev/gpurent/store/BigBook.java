package dev.gpurent.store;

import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A quote book of any size made of the real RunPod and Lambda quotes, repeated with a numbered
 * region ("europe-central-1#7") so that every row is distinct, and prices nudged by {@code variant}
 * thousandths so that two variants differ.
 */
public final class BigBook {

  private BigBook() {}

  public static QuoteBook of(int rows, int variant, Instant at) {
    List<VendorQuotes> sources = List.of(RealBooks.RUNPOD_QUOTES, RealBooks.LAMBDA_QUOTES);
    int real = sources.stream().mapToInt(v -> v.quotes().size()).sum();
    List<List<Quote>> out = List.of(new ArrayList<>(), new ArrayList<>());
    BigDecimal nudge = BigDecimal.valueOf(variant, 3);
    for (int k = 0; k < rows; k++) {
      int i = k % real;
      int v = i < sources.get(0).quotes().size() ? 0 : 1;
      Quote q = sources.get(v).quotes().get(v == 0 ? i : i - sources.get(0).quotes().size());
      out.get(v).add(new Quote(q.vendor(), q.region() + "#" + k / real, q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(),
          q.billing(), new Money(q.price().amount().add(nudge), q.price().currency()), q.unit(), q.observedAt(), q.source()));
    }
    List<VendorQuotes> vendors = new ArrayList<>();
    for (int v = 0; v < 2; v++) {
      VendorQuotes s = sources.get(v);
      vendors.add(new VendorQuotes(s.vendor(), s.displayName(), s.terms(), out.get(v), s.rejected(), at, s.note()));
    }
    return QuoteBook.of(vendors, RealBooks.FX, at);
  }
}
