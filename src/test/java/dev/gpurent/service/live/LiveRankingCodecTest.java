package dev.gpurent.service.live;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.text.Lang;
import io.vertx.core.buffer.Buffer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A live update sent to another node arrives with the same typed fields and renders the same
 * text, byte for byte, in each language, for every shipped scenario; a failure arrives as itself.
 */
class LiveRankingCodecTest {

  private static final VendorQuotes INFER = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = Fixtures.sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));
  private static final VendorQuotes USD = Fixtures.sheet(Path.of("src/test/resources/sheets/usd-cloud.yaml"));
  private final CostModel model = new CostModel(CATALOG, Fixtures.RULES);
  private final LiveRankingCodec codec = new LiveRankingCodec();

  /** Encoded after 3 bytes of something else, as the event bus frames it, and decoded from there. */
  private LiveRankingUpdate roundTrip(LiveRankingUpdate u) {
    Buffer b = Buffer.buffer().appendBytes(new byte[] {1, 2, 3});
    codec.encodeToWire(b, u);
    return codec.decodeFromWire(3, b);
  }

  @Test
  void a_ranking_crosses_the_wire_with_its_fields_and_its_text() {
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    int plans = 0;
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      Ranking r = model.rank(Fixtures.scenario(file), book);
      LiveRankingUpdate sent = new RankingParts().take("id-" + file, r, false);
      LiveRankingUpdate got = roundTrip(sent);
      assertNotSame(sent.json(), got.json());
      assertEquals("id-" + file, got.scenario());
      assertEquals(200, got.status());
      assertEquals(r.quotesAt(), got.quotesAt(), file);
      assertEquals(r.currency(), got.currency(), file);
      // each plan as the engine made it: vendor, place, total to the cent (scale kept: "1800.00", not "1800"), dated, complete
      assertEquals(r.plans().size(), got.plans().size(), file);
      for (int i = 0; i < r.plans().size(); i++) {
        VendorPlan p = r.plans().get(i);
        LiveRankingUpdate.Standing s = got.plans().get(i);
        assertEquals(p.vendor(), s.vendor(), file);
        assertEquals(i + 1, s.rank(), file);
        assertEquals(p.monthlyTotal().plain(), s.monthlyTotal().toPlainString(), file);
        assertEquals(p.monthlyTotal().currency(), s.currency(), file);
        assertEquals(p.dated(), s.dated(), file);
        assertEquals(p.complete(), s.complete(), file);
        plans++;
      }
      assertEquals(r.mixed().map(m -> new BigDecimal(m.bill().monthlyTotal().plain())), got.mixedTotal(), file);
      assertEquals(r.reference().map(VendorPlan::vendor), got.reference().map(LiveRankingUpdate.Standing::vendor), file);
      assertEquals(r.unavailable().stream().map(Ranking.Unavailable::vendor).toList(), got.unavailable(), file);
      assertEquals(sent.plans(), got.plans(), file);
      assertEquals(sent.reference(), got.reference(), file);
      assertEquals(sent.apis(), got.apis(), file);
      for (Lang lang : Lang.values()) {
        assertEquals(sent.text(lang), got.text(lang), file + " in " + lang);
        assertEquals(sent.ranking(lang), got.ranking(lang), file + " in " + lang);
      }
    }
    assertTrue(plans >= 5, "the shipped scenarios rank several plans on the three sheets: " + plans);
  }

  @Test
  void the_guide_references_total_survives_the_wire() {
    Ranking r = model.rank(Fixtures.scenario("guide-template.yaml"), Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference()));
    LiveRankingUpdate got = roundTrip(new RankingParts().take("g", r, false));
    assertTrue(got.reference().isPresent(), "the guide's reference sheet is in the book");
    assertEquals(0, got.reference().get().rank());
    assertEquals(r.reference().get().monthlyTotal().plain(), got.reference().get().monthlyTotal().toPlainString());
  }

  @Test
  void a_failure_crosses_the_wire_as_itself() {
    LiveRankingUpdate failure = LiveRankingUpdate.failure("s-1", 503, "no quotes yet: the first fetch is under way");
    LiveRankingUpdate got = roundTrip(failure);
    assertTrue(got.failed());
    assertEquals(503, got.status());
    assertEquals("no quotes yet: the first fetch is under way", got.error());
    assertTrue(got.sameAs(failure));
    assertEquals("{\"type\":\"error\",\"scenario\":\"s-1\",\"status\":503,\"error\":\"no quotes yet: the first fetch is under way\"}",
        got.text(Lang.EN));
  }
}
