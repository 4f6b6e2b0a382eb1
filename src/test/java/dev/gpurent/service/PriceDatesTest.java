package dev.gpurent.service;

import dev.gpurent.service.quotes.QuoteVerticle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.SampleRoot;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The date each price carries (Quote.priceDate): the one its source states, else the vendor's
 * {@code asOf:}, else the fetch. Checked on the sample root ({@code bench/sample-root.sh}, every
 * vendor on its recorded payload) through the quote pipeline, offline.
 */
@ExtendWith(VertxExtension.class)
// every sample vendor is read and parsed (the refresh may take 120 s): 30 s, the extension's default, is too short on busy cores
@io.vertx.junit5.Timeout(value = 3, timeUnit = java.util.concurrent.TimeUnit.MINUTES)
class PriceDatesTest {

  /**
   * The skypilot-org recordings: PROVENANCE.md 1a (the older clouds) and 1c (the nine newer ones) give them
   * no date, the index they came from stating none, so the fetch dates them.
   */
  static final Set<String> UNDATED = Set.of("cudo", "digitalocean", "fluidstack", "hyperbolic", "ibm", "oci", "paperspace", "scp",
      "daytona", "hyperstack", "jarvislabs", "mithril", "primeintellect", "seeweb", "shadeform", "spheron", "verda");

  static Instant day(String date) {
    return java.time.LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** Every sample vendor's quotes as the pipeline accepted them. */
  static io.vertx.core.Future<QuoteBook> sampleBook(Vertx vertx) {
    Path root = SampleRoot.build();
    List<VendorDefinition> defs = SampleRoot.vendors();
    QuoteSettings offline = QuoteSettings.from(new JsonObject().put("cacheDir", "").put("spotRisk", "")).withOffline(true);
    JsonObject fx = new JsonObject().put("source", Path.of("../shared/data/ecb/eurofxref-daily.2025-05-09.xml").toString());
    QuoteVerticle quotes = new QuoteVerticle(defs, Fixtures.CATALOG, dev.gpurent.catalog.Regions.load(root.resolve("config/regions.yaml")),
        AdapterRegistry.load(), offline, fx, Clock.systemUTC());
    return vertx.deployVerticle(quotes)
        .compose(id -> vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject(),
            new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(120_000)))
        .compose(m -> vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null)).map(m -> m.body());
  }

  /** The vendors of the OpenComputePrices feed with quotes in the sample (aethir's one quote is refused as implausibly dear). */
  static final Set<String> FEED = Set.of("alibaba-cloud", "azure-feed", "beyondpl", "breezehost", "cerebrium", "cirrascale", "coreweave-feed",
      "databasemart", "denvr", "e2e", "exoscale", "flyio", "gmicloud", "hexabyte", "lyceum", "massedcompute", "oblivus", "packetai",
      "replicate", "salad", "scaleway", "tensordock", "thundercompute", "upcloud", "voltagepark", "zenlayer");

  static Set<Instant> dates(QuoteBook b, String vendor) {
    return b.vendor(vendor).orElseThrow().quotes().quotes().stream().map(Quote::priceDate).collect(Collectors.toSet());
  }

  @Test
  void dates_each_sample_price_by_its_source_or_its_recording(Vertx vertx, VertxTestContext ctx) {
    sampleBook(vertx).onComplete(ctx.succeeding(b -> ctx.verify(() -> {
      // stated by the payload itself
      assertEquals(Set.of(Instant.parse("2024-05-28T20:35:22Z")), dates(b, "aws"), "the offer file's publicationDate");
      assertEquals(Set.of(Instant.parse("2026-07-30T06:13:17Z")), dates(b, "gcp-machines"), "pricing.yml about.timestamp");
      assertEquals(Set.of(day("2026-05-31")), dates(b, "crusoe"), "crusoe's latest observation day");
      assertEquals(Set.of(day("2026-05-31")), dates(b, "nebius"));
      assertEquals(Set.of(day("2026-05-08")), dates(b, "civo"));
      for (String v : List.of("coreweave", "ovh", "hotaisle", "together")) assertEquals(Set.of(day("2026-05-08")), dates(b, v), v);
      assertEquals(Set.of(day("2025-01-01")), dates(b, "guide-reference"), "the sheet's asOf");
      // stated by sample-root.sh from PROVENANCE.md, the payload saying nothing
      assertEquals(Set.of(Instant.parse("2025-06-21T23:18:00Z")), dates(b, "runpod"));
      assertEquals(Set.of(day("2026-05-20")), dates(b, "azure"));
      assertEquals(Set.of(day("2026-05-07")), dates(b, "lambda"));
      assertEquals(Set.of(day("2026-04-29")), dates(b, "vast"));
      assertEquals(Set.of(day("2024-04-04")), dates(b, "aws-ec2info"));
      assertEquals(Set.of(day("2026-01-21")), dates(b, "aws-china"));
      assertEquals(Set.of(day("2012-12-11")), dates(b, "aws-spot"));
      assertEquals(Set.of(day("2024-01-19")), dates(b, "oci-list"));
      // the OpenComputePrices rows' own snapshot_ts
      assertEquals(Set.of(Instant.parse("2026-03-22T23:57:08Z")), dates(b, "e2e"), "e2e.csv snapshot_ts");
      assertEquals(Set.of(Instant.parse("2026-03-22T23:41:06Z")), dates(b, "vultr"), "vultr.csv snapshot_ts");

      Instant cutoff = Instant.parse("2026-12-01T00:00:00Z").minus(Duration.ofDays(30));
      Map<String, Instant> newest = new TreeMap<>();
      Set<String> fetchDated = new TreeSet<>();
      b.vendors().forEach((id, e) -> {
        List<Quote> qs = e.quotes().quotes();
        if (!qs.isEmpty() && qs.stream().allMatch(Quote::undated)) fetchDated.add(id);
        else qs.forEach(q -> newest.merge(id, q.priceDate(), (x, y) -> x.isAfter(y) ? x : y));
      });
      assertEquals(UNDATED, fetchDated, "only the recordings PROVENANCE.md cannot date are undated (the SkyPilot-catalog vendors)");
      newest.forEach((id, at) -> assertTrue(at.isBefore(cutoff), id + " is dated " + at + ", within 30 days of 2026-12-01"));
      assertEquals(Set.of("aws", "aws-china", "aws-ec2info", "aws-spot", "azure", "civo", "coreweave", "crusoe", "gcp-machines",
          "guide-reference", "hotaisle", "koyeb", "lambda", "nebius", "novita", "oci-list", "ovh", "runpod", "sesterce", "together",
          "vast", "vultr"),
          newest.keySet().stream().filter(v -> !FEED.contains(v)).collect(Collectors.toSet()));
      assertEquals(FEED, newest.keySet().stream().filter(FEED::contains).collect(Collectors.toSet()), "every feed vendor with quotes is dated");
      // the two GCP vendors whose recordings price GPUs without their host VM have no quotes at all
      assertEquals(Set.of("gcp", "gcp-catalog"), b.unavailable().keySet());
      ctx.completeNow();
    })));
  }

  static Quote quote(String region, Instant observed) {
    return new Quote("lambda", region, "gpu_1x_h100_pcie", "h100-pcie", 1, 26, 200, Billing.ON_DEMAND, Money.of("2.49", "USD"),
        PriceUnit.HOUR, observed, "test");
  }

  @Test
  void gives_undated_prices_the_vendors_as_of_and_every_quote_its_country() {
    VendorDefinition lambda = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
    VendorDefinition dated = VendorDefinition.from(lambda.config().copy().put("asOf", "2026-05-07"), lambda.where());
    Instant fetched = Instant.parse("2026-12-01T08:00:00Z");
    Quote undated = quote("us-east-1", fetched);
    Quote stated = quote("europe-south-1", fetched).withPriceDate(Instant.parse("2026-04-01T00:00:00Z"));
    Quote nowhere = quote("mars-north-1", fetched).withCountry("US");
    VendorQuotes in = new VendorQuotes("lambda", "Lambda", lambda.terms(), List.of(undated, stated, nowhere), List.of(), fetched, "");

    List<Quote> out = QuoteVerticle.stamped(dated, Fixtures.REGIONS, in).quotes();
    assertEquals(day("2026-05-07"), out.get(0).priceDate(), "no date of its own: the vendor's asOf");
    assertEquals(fetched, out.get(0).observedAt());
    assertEquals(Instant.parse("2026-04-01T00:00:00Z"), out.get(1).priceDate(), "a date the source states is kept");
    assertEquals(List.of("US", "IT", "US"), out.stream().map(Quote::country).toList(),
        "a region the table does not place keeps the country it had");
    assertTrue(QuoteVerticle.stamped(lambda, Fixtures.REGIONS, in).quotes().get(0).undated(),
        "without asOf it stays undated: the fetch is no price's date");
  }
}
