package dev.gpurent.service.live;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gpurent.Fixtures;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.text.Lang;
import io.vertx.core.json.Json;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live ranking's message put together from its plans' texts is exactly the ranking encoded
 * whole (quotesAt last), in each language exactly that text rendered whole, and its digest moves
 * exactly when that text does.
 */
class RankingMessageTest {

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

  @Test
  void the_message_is_the_whole_ranking_encoded_for_every_shipped_scenario() {
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      Ranking r = model.rank(Fixtures.scenario(file), book);
      RankingMessage m = new RankingMessage();
      m.take("id-" + file, r);
      assertEquals(whole("id-" + file, r), m.text().neutral(), file);
      for (Lang lang : Lang.values()) {
        assertEquals(RankingText.render(whole("id-" + file, r), lang), m.text().text(lang), file + " in " + lang);
      }
    }
  }

  @Test
  void a_price_change_moves_the_digest_and_the_same_ranking_again_does_not() {
    Scenario s = Fixtures.scenario("guide-template-open.yaml");
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    LiveRanking live = LiveRanking.of(model, s, book);
    RankingMessage m = new RankingMessage();
    byte[] first = m.take("s", live.ranking());
    for (Lang lang : Lang.values()) m.text().text(lang);  // every plan rendered once, and kept with its part
    assertArrayEquals(first, m.take("s", live.ranking()), "the same ranking, the same digest");
    List<Quote> cheaper = INFER.quotes().stream().map(q -> new Quote(q.vendor(), q.region(), q.offerId(), q.gpuId(), q.gpuCount(),
        q.vcpus(), q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(new BigDecimal("0.5")), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    QuoteBook next = Fixtures.book(INFER.withQuotes(cheaper, List.of()), TRAIN, USD, Fixtures.guideReference());
    live.update(next);
    byte[] second = m.take("s", live.ranking());
    assertFalse(Arrays.equals(first, second), "half price at " + INFER.vendor() + " shows");
    assertEquals(whole("s", model.rank(s, next)), m.text().neutral());
    for (Lang lang : Lang.values()) {
      assertEquals(RankingText.render(whole("s", model.rank(s, next)), lang), m.text().text(lang), "rendered from parts kept since the first ranking, in " + lang);
    }
  }
}
