package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which rankings a new book may move: those showing a plan of a vendor that changed. */
class LiveRankingMayMoveTest {

  private static final VendorQuotes INFER = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = Fixtures.sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));

  @Test
  void a_price_change_moves_the_rankings_showing_that_vendor_only() {
    QuoteBook before = Fixtures.book(INFER, TRAIN);
    List<Quote> cheaper = INFER.quotes().stream().map(q -> new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
        q.vcpus(), q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(new BigDecimal("0.5")), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    // the next book as the quote pipeline makes it: the same FX rates, one vendor's quotes new
    QuoteBook after = QuoteBook.of(List.of(INFER.withQuotes(cheaper, List.of()), TRAIN), before.fx(), before.builtAt());
    assertTrue(LiveRanking.mayMove(before, after, Set.of(INFER.vendor(), TRAIN.vendor())));
    assertTrue(LiveRanking.mayMove(before, after, Set.of(INFER.vendor())));
    assertFalse(LiveRanking.mayMove(before, after, Set.of(TRAIN.vendor())), "only " + INFER.vendor() + " changed");
    assertFalse(LiveRanking.mayMove(after, after, Set.of(INFER.vendor())), "the same book");
    assertTrue(LiveRanking.mayMove(null, after, Set.of()), "never ranked");
    assertTrue(LiveRanking.mayMove(before, Fixtures.book(INFER, TRAIN), Set.of(TRAIN.vendor())), "other FX rates: every plan reads them");
  }
}
