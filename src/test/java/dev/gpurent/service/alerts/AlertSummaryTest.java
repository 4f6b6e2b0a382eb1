package dev.gpurent.service.alerts;

import static dev.gpurent.Fixtures.CATALOG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.alert.RankingSummary;
import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.CostModel;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingParts;
import dev.gpurent.text.Lang;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the alert rules read of a live update's fields is what they read of the ranking's JSON
 * before the update was typed: the same plans, totals (to the same scale), flags and quotes' time.
 */
class AlertSummaryTest {

  private static final VendorQuotes INFER = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));
  private static final VendorQuotes TRAIN = Fixtures.sheet(Path.of("src/test/resources/sheets/train-cloud.yaml"));
  private static final VendorQuotes USD = Fixtures.sheet(Path.of("src/test/resources/sheets/usd-cloud.yaml"));

  @Test
  void the_fields_summarise_as_the_json_did_for_every_shipped_scenario() {
    CostModel model = new CostModel(CATALOG, Fixtures.RULES);
    QuoteBook book = Fixtures.book(INFER, TRAIN, USD, Fixtures.guideReference());
    int plans = 0;
    for (String file : List.of("guide-template.yaml", "guide-template-open.yaml", "team-small.yaml", "team-medium.yaml", "team-large.yaml")) {
      LiveRankingUpdate u = new RankingParts().take("s", model.rank(Fixtures.scenario(file), book), false);
      RankingSummary fromJson = RankingSummary.of(PlainValues.map(new JsonObject(u.ranking(Lang.EN))));
      RankingSummary fromFields = AlertVerticle.summary(u);
      plans += fromFields.plans().size();
      assertEquals(fromJson, fromFields, file);
      assertEquals(book.builtAt().toString(), fromFields.quotesAt(), file);
    }
    assertTrue(plans >= 5, "plans compared: " + plans);
  }
}
