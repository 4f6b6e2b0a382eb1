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
    assertTrue(LiveRanking.mayMove(before, after, Set.of(INFER.vendor(), TRAIN.vendor())::contains));
    assertTrue(LiveRanking.mayMove(before, after, Set.of(INFER.vendor())::contains));
    assertFalse(LiveRanking.mayMove(before, after, Set.of(TRAIN.vendor())::contains), "only " + INFER.vendor() + " changed");
    assertFalse(LiveRanking.mayMove(after, after, Set.of(INFER.vendor())::contains), "the same book");
    assertTrue(LiveRanking.mayMove(null, after, Set.of()::contains), "never ranked");
    assertTrue(LiveRanking.mayMove(before, Fixtures.book(INFER, TRAIN), Set.of(TRAIN.vendor())::contains), "other FX rates: every plan reads them");
  }

  @Test
  void the_same_payload_fetched_again_moves_nothing() {
    QuoteBook before = Fixtures.book(INFER, TRAIN);
    java.time.Instant later = INFER.fetchedAt().plusSeconds(600);
    // what the pipeline carries after an identical refresh: new fetch and observation times, the same prices
    VendorQuotes again = INFER.withQuotes(INFER.quotes().stream().map(q -> q.withObservedAt(later)).toList(), List.of()).withFetchedAt(later);
    QuoteBook after = QuoteBook.of(List.of(again, TRAIN), before.fx(), before.builtAt());
    assertFalse(LiveRanking.mayMove(before, after, Set.of(INFER.vendor(), TRAIN.vendor())::contains), "refetched, not changed");
    List<Quote> one = new java.util.ArrayList<>(again.quotes());
    one.set(0, one.get(0).withStock(dev.gpurent.quote.Stock.unavailable("gone")));
    QuoteBook moved = QuoteBook.of(List.of(again.withQuotes(one, List.of()), TRAIN), before.fx(), before.builtAt());
    assertTrue(LiveRanking.mayMove(before, moved, Set.of(INFER.vendor())::contains), "one quote's stock moved: a change");
  }
}
