package dev.gpurent.service.live;
import dev.gpurent.testing.LiveDeltas;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LiveRanking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.text.Lang;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A dashboard's delta ({@link LiveRankingJson#textAfter}), applied to the last ranking it was sent the
 * way the page applies it ({@code live.js}'s applyDelta, mirrored by {@link #apply}), gives exactly
 * the whole message's ranking, byte for byte, in each language; it names every kept plan by its
 * vendor and carries only what changed.
 */
class RankingDeltaTest {

  private static final VendorQuotes INFER = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = Fixtures.sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));
  private static final VendorQuotes USD = Fixtures.sheet(Path.of("src/test/resources/sheets/usd-cloud.yaml"));
  private static final List<String> SCENARIOS = List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml",
      "team-medium.yaml", "team-large.yaml");
  private final CostModel model = new CostModel(CATALOG, Fixtures.RULES);

  /** The fixture vendors and a dearer copy of each, so that rankings hold several plans below #1. */
  private static final List<VendorQuotes> VENDORS = List.of(INFER, scaled(INFER, "infer-dear", "1.3"), TRAIN,
      scaled(TRAIN, "train-dear", "1.3"), USD, scaled(USD, "usd-dear", "1.3"), Fixtures.guideReference());

  /** One FX table for every book: a new one would price every vendor again. */
  private static final FxRates FX = FxRates.none("CNY");

  /** {@link #VENDORS}, {@code vendor}'s prices times {@code factor} (every other vendor's quotes the very same). */
  private static QuoteBook book(String vendor, String factor) {
    return QuoteBook.of(VENDORS.stream().map(v -> v.vendor().equals(vendor) ? scaled(v, vendor, factor) : v).toList(), FX, Fixtures.AT);
  }

  private static VendorQuotes scaled(VendorQuotes v, String vendor, String factor) {
    List<Quote> quotes = v.quotes().stream().map(q -> new Quote(vendor, q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(),
        q.ramGiB(), q.billing(), new Money(q.price().amount().multiply(new BigDecimal(factor)), q.price().currency()), q.unit(),
        q.observedAt(), q.source(), q.priceDate(), q.upstream(), q.country())).toList();
    return new VendorQuotes(vendor, v.displayName(), v.terms(), quotes, v.rejected(), v.fetchedAt(), v.note(), v.reference());
  }

  private static JsonObject ranking(String message) {
    return new JsonObject(message).getJsonObject("ranking");
  }

  @Test
  void a_delta_after_one_vendors_change_rebuilds_the_whole_ranking_in_each_language() {
    int withMixed = 0, named = 0;
    for (String file : SCENARIOS) {
      LiveRanking live = LiveRanking.of(model, Fixtures.scenario(file), book("", "1"));
      RankingParts m = new RankingParts();
      LiveRankingUpdate before = m.take("s", live.ranking(), false);
      // the last vendor's prices up 1%: it stays last, so the plans above it (their winsAt against #1) stay as they are
      List<VendorPlan> plans = live.ranking().plans();
      String moved = plans.isEmpty() ? INFER.vendor() : plans.get(plans.size() - 1).vendor();
      live.update(book(moved, "1.01"));
      LiveRankingUpdate after = m.take("s", live.ranking(), false);
      for (Lang lang : Lang.values()) {
        JsonObject delta = new JsonObject(after.textAfter(before, lang));
        assertEquals("ranking-delta", delta.getString("type"), file);
        assertEquals("s", delta.getString("scenario"), file);
        JsonObject whole = ranking(after.text(lang));
        JsonObject rebuilt = LiveDeltas.apply(ranking(before.text(lang)), delta.getJsonObject("ranking"));
        assertEquals(whole.encode(), rebuilt.encode(), file + " in " + lang + ": the delta applied is the whole ranking, in its order");
        // only the vendor whose prices moved comes whole; every other plan is named
        for (int i = 0; i < whole.getJsonArray("plans").size(); i++) {
          Object p = delta.getJsonObject("ranking").getJsonArray("plans").getValue(i);
          String vendor = whole.getJsonArray("plans").getJsonObject(i).getString("vendor");
          if (vendor.equals(moved)) {
            assertTrue(p instanceof JsonObject, file + ": " + vendor + " is new");
          } else {
            assertEquals(vendor, p, file + ": " + vendor + " is named");
            named++;
          }
        }
        if (whole.getValue("mixed") != null) withMixed++;
      }
      assertSame(after.textAfter(before, Lang.EN), after.textAfter(before, Lang.EN), "made once per language for the message it follows");
    }
    assertTrue(withMixed > 0, "some shipped scenario has a mixed plan");
    assertTrue(named > 0, "plans that did not change are named, not sent again");
  }

  @Test
  void the_same_ranking_again_names_every_plan_and_says_same_for_the_mixed_plan_and_the_reference() {
    for (String file : SCENARIOS) {
      LiveRankingUpdate t = new RankingParts().take("s", LiveRanking.of(model, Fixtures.scenario(file), book("", "1")).ranking(), false);
      JsonObject whole = ranking(t.text(Lang.ZH));
      JsonObject delta = ranking(t.textAfter(t, Lang.ZH));
      List<Object> vendors = whole.getJsonArray("plans").stream().map(p -> (Object) ((JsonObject) p).getString("vendor")).toList();
      assertEquals(vendors, delta.getJsonArray("plans").getList(), file);
      assertEquals(whole.getValue("mixed") == null ? null : "same", delta.getValue("mixed"), file);
      assertEquals(whole.getValue("reference") == null ? null : "same", delta.getValue("reference"), file);
      assertEquals(whole.getString("quotesAt"), delta.getString("quotesAt"), file);
      assertEquals(whole.getJsonArray("unavailable"), delta.getJsonArray("unavailable"), file);
      assertEquals(whole.encode(), LiveDeltas.apply(whole, delta).encode(), file);
    }
  }

  @Test
  void a_failure_before_or_after_a_ranking_is_never_a_delta() {
    LiveRankingUpdate ranking = new RankingParts().take("s", LiveRanking.of(model, Fixtures.scenario("team-small.yaml"), book("", "1")).ranking(), false);
    LiveRankingUpdate failure = LiveRankingUpdate.failure("s", 500, "boom");
    assertEquals("{\"type\":\"error\",\"scenario\":\"s\",\"status\":500,\"error\":\"boom\"}", failure.text(Lang.ZH));
    assertEquals(failure.text(Lang.EN), failure.ranking(Lang.EN), "a failure's REST body is its message");
    assertEquals(ranking.text(Lang.EN), ranking.textAfter(null, Lang.EN), "the first message is whole");
    assertEquals(ranking.text(Lang.EN), ranking.textAfter(failure, Lang.EN), "after a failure: whole");
    assertEquals(failure.text(Lang.EN), failure.textAfter(ranking, Lang.EN));
    assertNotNull(Json.decodeValue(failure.textAfter(ranking, Lang.EN)));
  }
}
