package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class AwsSpotJsFormatTest {

  static final Path DIR = Path.of("../shared/data/aws/spot-js");
  static final Path LIGOJ = DIR.resolve("ligoj-mock-spot.js");
  static final Path NETFLIX_2012 = DIR.resolve("netflix-asgard-mock-spot.2012-12-11.js");
  static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");

  static GpuCatalog catalog;
  static VendorDefinition def;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
    def = VendorDefinition.load(Path.of("adapters/aws-spot.yaml"));
  }

  @Test
  void maps_legacy_region_names_to_region_codes() {
    assertEquals(Optional.of("us-east-1"), AwsSpotJsFormat.region("us-east"));
    assertEquals(Optional.of("us-west-1"), AwsSpotJsFormat.region("us-west"));
    assertEquals(Optional.of("us-west-2"), AwsSpotJsFormat.region("us-west-2"));
    assertEquals(Optional.of("eu-west-1"), AwsSpotJsFormat.region("eu-ireland"));
    assertEquals(Optional.of("ap-southeast-1"), AwsSpotJsFormat.region("apac-sin"));
    assertEquals(Optional.of("ap-southeast-2"), AwsSpotJsFormat.region("apac-syd"));
    assertEquals(Optional.of("ap-northeast-1"), AwsSpotJsFormat.region("apac-tokyo"));
    assertEquals(Optional.of("sa-east-1"), AwsSpotJsFormat.region("sa-east-1"));
    assertEquals(Optional.of("eu-central-1"), AwsSpotJsFormat.region("eu-central-1"));
    assertEquals(Optional.empty(), AwsSpotJsFormat.region("apac-mars"));
  }

  @Test
  void reads_its_gpu_table_from_the_resource_with_catalog_cards() {
    assertEquals(21, AwsSpotJsFormat.GPU_TYPES.size());
    assertEquals(new AwsSpotJsFormat.GpuType("m2050", 2, 16, 22.5), AwsSpotJsFormat.GPU_TYPES.get("cg1.4xlarge"));
    AwsSpotJsFormat.GPU_TYPES.forEach((type, g) ->
        assertTrue(catalog.find(g.gpuId()).isPresent(), type + " -> " + g.gpuId() + " is not in config/gpus.yaml"));
    assertEquals("cg1.4xlarge", AwsSpotJsFormat.LEGACY_SIZES.get("clusterGPUI/xxxxl"));
  }

  @Test
  void reads_the_2012_cluster_gpu_spot_prices() {
    VendorQuotes q = AwsSpotJsFormat.parse(Payload.of(NETFLIX_2012), def, catalog, FETCHED);
    assertEquals("aws-spot", q.vendor());
    // 8 regions x 15 sizes: 112 non-GPU rows skipped; clusterGPUI xxxxl priced in 2 regions, N/A* in 6
    assertEquals(2, q.quotes().size());
    assertEquals(List.of(
        "skipped 112 rows: not GPU instance types (first: us-east stdSpot sm (m1.small))",
        "skipped 6 rows: GPU rows with linux price N/A, N/A* or -1 (not offered in that region)"
            + " (first: us-west-2 clusterGPUI xxxxl (cg1.4xlarge) 'N/A*')"), q.rejected());

    Quote cg1 = q.quotes().get(0);
    assertEquals("us-east-1", cg1.region());
    assertEquals("cg1.4xlarge", cg1.offerId());
    assertEquals("m2050", cg1.gpuId());
    assertEquals(2, cg1.gpuCount());
    assertEquals(16, cg1.vcpus());
    assertEquals(22.5, cg1.ramGiB());
    assertEquals(Billing.SPOT, cg1.billing());
    assertEquals(Money.of("0.346", "USD"), cg1.price());
    assertEquals(PriceUnit.HOUR, cg1.unit());
    assertEquals(FETCHED, cg1.observedAt());
    assertEquals("aws-spot-js:" + NETFLIX_2012, cg1.source());

    Quote ireland = q.quotes().get(1);
    assertEquals("eu-west-1", ireland.region());
    assertEquals("cg1.4xlarge", ireland.offerId());
    assertEquals(Money.of("0.54", "USD"), ireland.price());
  }

  @Test
  void finds_no_gpu_types_in_the_ligoj_mock() {
    VendorQuotes q = AwsSpotJsFormat.parse(Payload.of(LIGOJ), def, catalog, FETCHED);
    // m3.medium (us-east), c1.medium, x1.16xlarge, r4.large (eu-ireland); eu-central-1 is empty
    assertEquals(0, q.quotes().size());
    assertEquals(List.of("skipped 4 rows: not GPU instance types (first: us-east generalCurrentGen m3.medium)"), q.rejected());
  }

  @Test
  void handles_unavailable_prices_full_type_names_and_bad_rows() {
    String js = """
        // a copy with unquoted keys
        callback({vers: 0.01, config: {rate: "perhr", valueColumns: ["linux", "mswin"], currencies: ["USD"], regions: [
          {region: "us-east", instanceTypes: [
            {type: "gpuCurrentGen", sizes: [
              {size: "g2.2xlarge", valueColumns: [{name: "linux", prices: {USD: "0.065"}}, {name: "mswin", prices: {USD: "0.2"}}]},
              {size: "g2.8xlarge", valueColumns: [{name: "linux", prices: {USD: "-1"}}]},
              {size: "p2.xlarge", valueColumns: [{name: "linux", prices: {USD: "N/A"}}]},
              {size: "p3.2xlarge", valueColumns: [{name: "linux", prices: {USD: "cheap"}}]},
              {size: "g5.xlarge", valueColumns: [{name: "linux", prices: {USD: "0.5"}}]},
            ]},
            {type: "stdSpot", sizes: [{size: "xxxl", valueColumns: []}]}
          ]},
          {region: "apac-mars", instanceTypes: []}
        ]}});
        """;
    VendorQuotes q = AwsSpotJsFormat.parse(Payload.of(Buffer.buffer(js), "test"), def, catalog, FETCHED);
    assertEquals(1, q.quotes().size());
    Quote g2 = q.quotes().get(0);
    assertEquals("g2.2xlarge", g2.offerId());
    assertEquals("grid-k520", g2.gpuId());
    assertEquals(Money.of("0.065", "USD"), g2.price());
    assertEquals("us-east-1", g2.region());
    assertEquals(List.of(
        "us-east gpuCurrentGen p3.2xlarge: linux price 'cheap' is not a number",
        "us-east gpuCurrentGen g5.xlarge: GPU instance type not in the spot.js GPU table (count unknown)",
        "us-east stdSpot xxxl: unknown legacy size code (type 'stdSpot', size 'xxxl')",
        "regions[1] (apac-mars): unknown region name; all its rows ignored",
        "skipped 2 rows: GPU rows with linux price N/A, N/A* or -1 (not offered in that region)"
            + " (first: us-east gpuCurrentGen g2.8xlarge '-1')"), q.rejected());
  }

  @Test
  void refuses_a_payload_that_is_not_spot_js() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AwsSpotJsFormat.parse(Payload.of(Buffer.buffer("<html>"), "x"), def, catalog, FETCHED));
    assertEquals("not a spot.js feed: expected callback({...}) or a JSON object", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> AwsSpotJsFormat.parse(Payload.of(Buffer.buffer("callback({\"vers\": 1});"), "x"), def, catalog, FETCHED));
  }

  @Test
  void ships_the_feed_disabled() {
    assertFalse(def.enabled());
    assertEquals("https://spot-price.s3.amazonaws.com/spot.js", def.config().getString("source"));
  }

  @Test
  void fetches_the_2012_file_through_the_adapter(Vertx vertx, VertxTestContext ctx) {
    VendorDefinition d = VendorDefinition.from(def.config().copy().put("source", NETFLIX_2012.toString()), def.where());
    VendorAdapter adapter = AdapterRegistry.load().factory("aws-spot-js").create(vertx, d, catalog);
    adapter.fetch().onComplete(ctx.succeeding(q -> ctx.verify(() -> {
      assertEquals(2, q.quotes().size());
      assertEquals(Money.of("0.346", "USD"), q.quotes().get(0).price());
      assertEquals("aws-spot-js:" + NETFLIX_2012, q.quotes().get(0).source());
      ctx.completeNow();
    })));
  }
}
