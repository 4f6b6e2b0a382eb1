package dev.gpurent.quote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A refresh that finds the same offers at the same prices says nothing new, whenever it was fetched (issue 32). */
class SamePricesTest {

  private static final VendorQuotes SHEET = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final Instant LATER = Instant.parse("2026-12-02T11:00:00Z");

  /** The sheet as a later fetch reads it: every quote observed, and the payload fetched, at another time. */
  private static VendorQuotes fetchedLater(List<Quote> quotes) {
    return SHEET.withQuotes(quotes.stream().map(q -> q.withObservedAt(LATER)).toList(), SHEET.rejected()).withFetchedAt(LATER);
  }

  @Test
  void the_same_offers_fetched_later_are_the_same_prices() {
    VendorQuotes later = fetchedLater(SHEET.quotes());
    assertFalse(later.equals(SHEET), "the fetch times differ");
    assertTrue(SHEET.samePrices(later));
    assertTrue(later.samePrices(SHEET));
  }

  @Test
  void one_price_a_cent_higher_or_one_offer_less_is_news() {
    List<Quote> quotes = new ArrayList<>(SHEET.quotes());
    Quote first = quotes.get(0);
    // infer-cloud's first offer: an RTX 4090 on demand at 2.5 CNY an hour
    assertEquals(Money.of("2.5", "CNY"), first.price());
    quotes.set(0, new Quote(first.vendor(), first.region(), first.offerId(), first.gpuId(), first.gpuCount(), first.vcpus(),
        first.ramGiB(), first.billing(), Money.of("2.51", "CNY"), first.unit(), first.observedAt(), first.source(), first.priceDate(),
        first.upstream(), first.country(), first.upfront()));
    assertFalse(SHEET.samePrices(fetchedLater(quotes)));
    assertFalse(SHEET.samePrices(fetchedLater(SHEET.quotes().subList(1, SHEET.quotes().size()))));
  }
}
