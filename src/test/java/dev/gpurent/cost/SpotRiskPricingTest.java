package dev.gpurent.cost;

import static dev.gpurent.Fixtures.CATALOG;
import static dev.gpurent.text.Localizer.en;
import static dev.gpurent.text.Localizer.ens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.AwsSpotAdvisorAdapter;
import dev.gpurent.adapter.Ec2InstancesInfoFormat;
import dev.gpurent.adapter.Payload;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.SpotRisk;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spot priced with its published risk: the recorded ec2instances.info AWS prices with the AWS Spot
 * Advisor feed of 2025-06-28. g4dn.xlarge in us-east-1 sits in the 15-20% band.
 */
class SpotRiskPricingTest {

  static final Path DATA = Path.of("../shared/data/aws");

  /** The recorded AWS prices of one offer, g4dn.xlarge in us-east-1 (on-demand 0.526, spot 0.215660). */
  static VendorQuotes aws() {
    VendorDefinition def = VendorDefinition.load(Path.of("adapters/aws-ec2info.yaml"));
    VendorQuotes all = Ec2InstancesInfoFormat.parse(Payload.of(DATA.resolve("ec2instances-info/opszero-instances.gpu.non-eu.json")), def,
        CATALOG, Fixtures.AT);
    return new VendorQuotes(all.vendor(), all.displayName(), all.terms(), all.quotes().stream()
        .filter(q -> q.offerId().equals("g4dn.xlarge") && q.region().equals("us-east-1")).toList(), List.of(), Fixtures.AT, "");
  }

  static SpotRisk advisor() throws Exception {
    return AwsSpotAdvisorAdapter.parse(Buffer.buffer(Files.readAllBytes(DATA.resolve("spot-advisor/spot-advisor-data.2025-06-28.json"))),
        "spot-advisor-data.2025-06-28.json", Fixtures.AT);
  }

  static Scenario batchOnT4() {
    return new ScenarioReader(CATALOG).read(Map.of("currency", "USD", "workloads", List.of(Map.of(
        "kind", "batch", "gpu", "t4", "referenceGpu", "t4", "memoryGB", 10, "gpuHoursPerMonth", 100, "vendor", "aws-ec2info"))));
  }

  static Placement cheapest(QuoteBook book) {
    return new CostModel(CATALOG).rank(batchOnT4(), book).plans().get(0).placements().get(0);
  }

  @Test
  void prices_interruptions_from_the_advisor_band_times_the_restart_overhead() throws Exception {
    QuoteBook book = new QuoteBook(Map.of("aws-ec2info", new QuoteBook.Entry(aws(), dev.gpurent.quote.Freshness.fresh())),
        Map.of(), FxRates.none("USD"), advisor(), Fixtures.AT);
    Placement p = cheapest(book);
    assertEquals(Billing.SPOT, p.billing());
    assertEquals("g4dn.xlarge", p.quote().offerId());
    assertEquals("us-east-1", p.quote().region());
    assertEquals(Money.of("0.215660", "USD"), p.quote().price());
    // band 15-20% -> p = 0.175 a month -> -ln(0.825) = 0.1924 reclaims per 730 running hours;
    // 100 h -> 0.03 expected interruptions x 1.5 h: 100.04 hours paid
    double rate = -Math.log(1 - 0.175);
    assertEquals(0.215660 * 100 * (1 + rate * 1.5 / 730), p.perMonth().toDouble(), 1e-9);
    assertEquals("interruption band 15-20% (AWS Spot Advisor): 0.03 expected interruptions a month x 1.5 h restart overhead",
        en(p.spotNote()));
  }

  @Test
  void charges_the_cautious_default_without_published_rates() {
    QuoteBook book = QuoteBook.of(List.of(aws()), FxRates.none("USD"), Fixtures.AT);
    Placement p = cheapest(book);
    assertEquals(Billing.SPOT, p.billing());
    assertEquals(Money.of("23.72", "USD"), p.perMonth().cents(), "0.215660 x 100 h x 1.1");
    assertTrue(en(p.spotNote()).startsWith("+ 10% for interruptions"), en(p.spotNote()));
  }
}
