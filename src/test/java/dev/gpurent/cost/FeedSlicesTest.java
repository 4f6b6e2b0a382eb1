package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.Fixtures.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.adapter.OpenComputePricesFormat;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Vultr's GPU slices in the OpenComputePrices feed (PROVENANCE.md 10a, trap 1) ranked: a plan of 2 GB
 * of a 16 GB A16 is 0.125 of a card at 0.059/h, 0.472 a card-hour, far under a whole A100's 2.397;
 * read as a whole A16 it would carry the guide's 7B model (16.8 GB) for a fifth of the price. The
 * engine places whole cards only, so no slice is ever placed.
 */
class FeedSlicesTest {

  @Test
  void aSliceNeverCarriesAModelNorCountsAsACard() {
    VendorDefinition def = VendorDefinition.load(Path.of("adapters/vultr.yaml"));
    VendorQuotes vultr = OpenComputePricesFormat.parse(Payload.of(Path.of("../shared/data/opencomputeprices/2026-03-22/vultr.csv")),
        def, CATALOG, Instant.parse("2026-03-24T08:00:00Z")).vendorQuotes();
    assertTrue(vultr.quotes().stream().anyMatch(q -> q.offerId().equals("vcg-a16-2c-8g-2vram") && q.gpuCount() == 0.125));
    QuoteBook book = QuoteBook.of(List.of(vultr), dev.gpurent.store.RealBooks.FX, Instant.parse("2026-03-24T08:00:00Z"));
    Ranking r = new CostModel(CATALOG, dev.gpurent.Fixtures.RULES).rank(scenario("guide-template-open.yaml"), book);
    VendorPlan plan = r.plans().get(0);
    assertEquals("vultr", plan.vendor());
    for (Placement p : plan.placements()) {
      assertTrue(p.quote().gpuCount() >= 1, p.quote().offerId() + " x" + p.quote().gpuCount());
    }
    // the 7B model's 16.8 GB sit on a whole 80 GB A100 (vcg-a100-12c-120g-80vram, 2.397/h), not on any A16 slice
    Placement inference = plan.placements().get(0);
    assertEquals("vcg-a100-12c-120g-80vram", inference.quote().offerId());
    assertEquals(1.0, inference.quote().gpuCount());
  }
}
