package dev.gpurent.report;

import static dev.gpurent.text.Localizer.en;
import static dev.gpurent.text.Localizer.ens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.SkyPilotCatalogFormat;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.LineItem;
import dev.gpurent.cost.Placement;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Resold offers in a ranking of real recorded catalogs: Verda's own H100 beside Prime Intellect's
 * and Shadeform's resale of Verda (DataCrunch) machines, and Lambda's beside theirs.
 */
class ResoldOffersTest {

  static final Path SKY = Path.of("../shared/data/skypilot-catalog-format");

  static VendorQuotes sky(String vendor, String sample) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters/" + vendor + ".yaml"));
    d = VendorDefinition.from(d.config().copy().put("source", SKY.resolve(sample).toString()), d.where());
    return SkyPilotCatalogFormat.parse(Payload.of(SKY.resolve(sample)), d, Fixtures.CATALOG, Fixtures.AT).vendorQuotes();
  }

  /** One H100 SXM serving a 7B model around the clock, ranked over four recorded catalogs. */
  static Ranking ranking() {
    QuoteBook book = QuoteBook.of(List.of(sky("verda", "skypilot-org/v8/verda/vms.csv"),
        sky("primeintellect", "skypilot-org/v8/primeintellect/vms.csv"), sky("shadeform", "skypilot-org/v8/shadeform/vms.csv"),
        sky("lambda", "anycloud-sh/lambda/vms.gpu.csv")), FxRates.none("USD"), Fixtures.AT);
    Map<String, Object> scenario = Map.of("name", "one H100", "currency", "USD", "workloads", List.of(Map.of(
        "name", "inference", "kind", "inference", "gpu", "h100-sxm", "paramsBillions", 7, "peakQps", 1,
        "secondsPerRequest", 2, "concurrentPerCard", 4)));
    return new CostModel(Fixtures.CATALOG, Fixtures.RULES).rank(new ScenarioReader(Fixtures.CATALOG).read(scenario), book);
  }

  static VendorPlan plan(Ranking r, String vendor) {
    return r.plans().stream().filter(p -> p.vendor().equals(vendor)).findFirst().orElseThrow(() -> new AssertionError(vendor));
  }

  @Test
  void names_the_upstream_of_a_resold_offer_in_the_bill() {
    Ranking r = ranking();
    Placement resold = plan(r, "primeintellect").placements().get(0);
    assertEquals("datacrunch__1xH100_80GB__30__120", resold.quote().offerId());
    assertEquals("datacrunch", resold.toMap().get("upstream"));
    LineItem gpu = plan(r, "primeintellect").bill().lines().get(0);
    assertEquals("NVIDIA H100 SXM (datacrunch__1xH100_80GB__30__120, FIN-02) via primeintellect (datacrunch)", en(gpu.spec()));
    // A vendor's own machine: no upstream, no "via".
    Placement own = plan(r, "verda").placements().get(0);
    assertFalse(own.toMap().containsKey("upstream"));
    assertFalse(en(plan(r, "verda").bill().lines().get(0).spec()).contains(" via "), en(plan(r, "verda").bill().lines().get(0).spec()));
  }

  @Test
  void flags_one_upstream_machine_listed_as_two_vendors_offers() {
    Ranking r = ranking();
    List<ResoldOffers.Overlap> found = ResoldOffers.find(r);
    int pi = r.plans().indexOf(plan(r, "primeintellect")) + 1;
    int verda = r.plans().indexOf(plan(r, "verda")) + 1;
    assertTrue(found.contains(new ResoldOffers.Overlap("inference", pi, "primeintellect", "datacrunch__1xH100_80GB__30__120",
        "datacrunch", verda, "verda", "1H100.80S.30V", true)), found.toString());
    String text = RankingText.render(r, 0);
    assertTrue(text.contains("  resold: inference: datacrunch__1xH100_80GB__30__120 is resold from datacrunch; #" + verda
        + " verda sells it directly (1H100.80S.30V): the same machine may be listed twice\n"), text);
    // Every flag names a reseller's offer, and never pairs a vendor with itself.
    assertTrue(found.stream().allMatch(o -> !o.vendor().equals(o.otherVendor()) && !o.upstream().isEmpty()), found.toString());
  }

  @Test
  void tells_which_upstream_names_which_vendor() {
    assertTrue(ResoldOffers.names("lambdalabs", "lambda", "Lambda"));
    assertTrue(ResoldOffers.names("data-crunch", "verda", "Verda (formerly DataCrunch)"));
    assertTrue(ResoldOffers.names("datacrunch", "verda", "Verda (formerly DataCrunch)"));
    assertTrue(ResoldOffers.names("hyperstack", "hyperstack", "Hyperstack"));
    assertFalse(ResoldOffers.names("latitude", "lambda", "Lambda"));
    assertFalse(ResoldOffers.names("massed-compute", "verda", "Verda (formerly DataCrunch)"));
  }
}
