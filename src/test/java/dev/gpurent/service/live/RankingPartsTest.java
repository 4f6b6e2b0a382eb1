package dev.gpurent.service.live;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live ranking's message put together from its pieces is exactly the ranking encoded whole
 * (quotesAt last) and rendered whole in each language, its REST body exactly that ranking, and it
 * counts as changed exactly when that text does (but for quotesAt).
 */
class RankingPartsTest {

  private static final VendorQuotes INFER = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = Fixtures.sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));
  private static final VendorQuotes USD = Fixtures.sheet(Path.of("src/test/resources/sheets/usd-cloud.yaml"));
  private final CostModel model = new CostModel(CATALOG, Fixtures.RULES);

  /** The message as the verticle sent it before plans were kept encoded: the whole map, quotesAt moved last. */
  private static String whole(String id, Ranking r) {
    Map<String, Object> m = r.toMap();
    Object at = m.remove("quotesAt");
    m.put("quotesAt", at);
    return "{\"type\":\"ranking\",\"scenario\":" + Json.encode(id) + ",\"ranking\":" + Json.encode(m) + "}";
  }

  /** A whole message as a client in {@code lang} read it when the edge decoded, rendered and encoded it whole: "lang" first in the ranking. */
  @SuppressWarnings("unchecked")
  static String render(String whole, Lang lang) {
    Map<String, Object> m = (Map<String, Object>) PlainValues.of(Json.decodeValue(whole));
    Map<String, Object> out = new LinkedHashMap<>(m);
    out.put("ranking", Localizer.page((Map<String, Object>) m.get("ranking"), lang));
    return Json.encode(out);
  }

  @Test
  void the_message_is_the_whole_ranking_encoded_for_every_shipped_scenario() {
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      Ranking r = model.rank(Fixtures.scenario(file), book);
      LiveRankingUpdate u = new RankingParts().take("id-" + file, r, false);
      for (Lang lang : Lang.values()) {
        String rendered = render(whole("id-" + file, r), lang);
        assertEquals(rendered, u.text(lang), file + " in " + lang);
        assertEquals(new JsonObject(rendered).getJsonObject("ranking").encode(), u.ranking(lang), file + ": the REST body in " + lang);
      }
    }
  }

  @Test
  void a_price_change_is_a_change_and_the_same_ranking_again_is_not() {
    Scenario s = Fixtures.scenario("guide-template-open.yaml");
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    LiveRanking live = LiveRanking.of(model, s, book);
    RankingParts m = new RankingParts();
    LiveRankingUpdate first = m.take("s", live.ranking(), false);
    assertTrue(m.changed(), "the first ranking is news");
    for (Lang lang : Lang.values()) first.text(lang);  // every plan rendered once, and kept with its piece
    m.take("s", live.ranking(), false);
    assertFalse(m.changed(), "the same ranking again");
    m.take("s", model.rank(s, book), true);
    assertFalse(m.changed(), "ranked again in full: new plans that read the same");
    List<Quote> cheaper = INFER.quotes().stream().map(q -> new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
        q.vcpus(), q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(new BigDecimal("0.5")), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    QuoteBook next = Fixtures.book(INFER.withQuotes(cheaper, List.of()), TRAIN, USD, Fixtures.guideReference());
    live.update(next);
    LiveRankingUpdate second = m.take("s", live.ranking(), false);
    assertTrue(m.changed(), "half price at " + INFER.vendor() + " shows");
    for (Lang lang : Lang.values()) {
      assertEquals(render(whole("s", model.rank(s, next)), lang), second.text(lang), "rendered from pieces kept since the first ranking, in " + lang);
    }
  }

  @Test
  void an_update_shares_with_the_last_one_what_reads_the_same() {
    int tried = 0;
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      if (sharesWhatReadsTheSame(Fixtures.scenario(file))) tried++;
    }
    assertTrue(tried > 0, "a shipped scenario with two plans or more");
  }

  /** False when {@code s} has fewer than two plans on the fixtures' book (nothing to tell apart). */
  private boolean sharesWhatReadsTheSame(Scenario s) {
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    LiveRanking live = LiveRanking.of(model, s, book);
    RankingParts m = new RankingParts();
    LiveRankingUpdate first = m.take("s", live.ranking(), false, null);
    if (first.plans().size() < 2) return false;
    // the same prices again on a new book: every standing, the vendors left out and the APIs are the last update's
    live.update(Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference()));
    LiveRankingUpdate again = m.take("s", live.ranking(), false, first);
    assertSame(first.plans(), again.plans(), "the same plans list");
    assertSame(first.unavailable(), again.unavailable());
    assertSame(first.apis(), again.apis());
    // one vendor at half price: its standing is new (its total), any other that kept its place and total is the last one
    List<Quote> cheaper = INFER.quotes().stream().map(q -> new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
        q.vcpus(), q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(new BigDecimal("0.5")), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    QuoteBook next = Fixtures.book(INFER.withQuotes(cheaper, List.of()), TRAIN, USD, Fixtures.guideReference());
    live.update(next);
    LiveRankingUpdate second = m.take("s", live.ranking(), false, again);
    Ranking fresh = model.rank(s, next);
    assertEquals(fresh.plans().size(), second.plans().size(), s.name());
    int kept = 0;
    for (int i = 0; i < second.plans().size(); i++) {
      LiveRankingUpdate.Standing now = second.plans().get(i);
      assertEquals(fresh.plans().get(i).vendor(), now.vendor(), "rank " + (i + 1));
      assertEquals(0, fresh.plans().get(i).monthlyTotal().amount().compareTo(now.monthlyTotal()), now.vendor() + "'s total");
      assertEquals(i + 1, now.rank());
      LiveRankingUpdate.Standing before = again.plans().stream().filter(p -> p.vendor().equals(now.vendor())).findFirst().orElseThrow();
      boolean reads = before.rank() == now.rank() && before.monthlyTotal().equals(now.monthlyTotal());
      if (reads) kept++;
      if (reads) assertSame(before, now, now.vendor() + " reads as before: the same standing");
      else if (now.vendor().equals(INFER.vendor())) assertTrue(before != now, "the vendor whose prices moved has a new standing");
    }
    assertTrue(kept < second.plans().size(), s.name() + ": half price moved some plan: " + second.plans());
    for (Lang lang : Lang.values()) {
      assertEquals(render(whole("s", fresh), lang), second.text(lang), "rendered from what the updates share, in " + lang);
    }
    return true;
  }
}
