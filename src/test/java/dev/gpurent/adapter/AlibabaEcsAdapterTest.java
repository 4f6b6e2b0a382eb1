package dev.gpurent.adapter;
import dev.gpurent.testing.FakeVendorServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.testing.FakeVendorServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Alibaba Cloud ECS on the ECS API reference's example answers: DescribePrice from
 * ../shared/data/cn/alibaba-ecs (see PROVENANCE.md there) and DescribeAvailableResource as its
 * reference shows it. Documentation, not recorded GPU payloads: both examples are CPU types
 * (ecs.g6.large, ecs.d1ne.*), rejected as "not a GPU instance"; the test that reaches the GPU path
 * changes one documented value and says so.
 */
@ExtendWith(VertxExtension.class)
class AlibabaEcsAdapterTest {

  static final Path PRICE = Path.of("../shared/data/cn/alibaba-ecs/DescribePrice.example-g6.large-1-year.json");
  static final String ID = "LTAIfakeTestAccessKeyId";
  static final String SECRET = "fakeTestAccessKeySecret0123456789";
  static final Function<String, String> ENV = n -> switch (n) {
    case "ALIBABA_CLOUD_ACCESS_KEY_ID" -> ID;
    case "ALIBABA_CLOUD_ACCESS_KEY_SECRET" -> SECRET;
    default -> null;
  };
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);

  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    shipped = VendorDefinition.load(Path.of("adapters/alibaba-ecs.yaml"));
  }

  /**
   * The response example of the DescribeAvailableResource reference (SkyeYXL/ecs mirror of the ECS
   * API docs, intl.en-US DescribeAvailableResource), its XML form as JSON, values unchanged
   * ("ecs.d1ne. 2xlarge" is written so there). Its JSON form is not valid JSON (a trailing comma).
   */
  static JsonObject documentedAvailability() {
    JsonArray zones = new JsonArray();
    for (String zone : List.of("cn-hangzhou-d", "cn-hangzhou-e")) {
      zones.add(new JsonObject().put("ZoneId", zone).put("RegionId", "cn-hangzhou").put("Status", "Available")
          .put("AvailableResources", new JsonObject().put("AvailableResource", new JsonArray().add(new JsonObject()
              .put("Type", "instanceType").put("SupportedResources", new JsonObject().put("SupportedResource", new JsonArray()
                  .add(new JsonObject().put("Value", "ecs.d1ne.xlarge").put("Status", "Available"))
                  .add(new JsonObject().put("Value", "ecs.d1ne. 2xlarge").put("Status", "Available"))))))));
    }
    return new JsonObject().put("AvailableZones", new JsonObject().put("AvailableZone", zones))
        .put("RequestId", "6DB97BCC-92BA-424D-A7C8-3F6486612BAE");
  }

  static VendorDefinition at(String url, String... billing) {
    JsonObject c = shipped.config().copy().put("source", url).put("timeout", "10s")
        .put("regions", new JsonArray().add("cn-hangzhou")).put("billing", new JsonArray(List.of(billing)));
    return VendorDefinition.from(c, shipped.where());
  }

  static Path file(JsonObject j) throws IOException {
    Path f = Files.createTempFile("ecs", ".json");
    Files.writeString(f, j.encode());
    return f;
  }

  @Test
  void reads_the_documented_price_as_its_list_price_and_rejects_g6_as_not_a_gpu_instance() throws IOException {
    JsonObject body = new JsonObject(Files.readString(PRICE));
    // OriginalPrice 4368 CNY, not DiscountPrice 655.2 nor TradePrice 3712.8 (the 1-year rule ONE_YEAR_85_PERCENT)
    assertEquals(Money.of("4368", "CNY"), AlibabaEcsAdapter.parsePrice(body, Billing.YEARLY));
    assertEquals(Money.of("1456", "CNY"), AlibabaEcsAdapter.parsePrice(body, Billing.THREE_YEARS), "a 3-year total, per year");
    assertEquals(Money.of("3712.8", "CNY"), AlibabaEcsAdapter.parsePrice(body, Billing.SPOT), "TradePrice under SpotAsPriceGo");
    assertEquals("not a GPU instance (family g6)", AlibabaEcsAdapter.gpuType("ecs.g6.large"));
  }

  @Test
  void reads_the_documented_availability_and_finds_no_gpu_type_in_it() throws IOException {
    List<String> types = AlibabaEcsAdapter.parseAvailable(documentedAvailability());
    assertEquals(List.of("ecs.d1ne.xlarge", "ecs.d1ne. 2xlarge"), types);
    for (String t : types) assertEquals("not a GPU instance (family d1ne)", AlibabaEcsAdapter.gpuType(t));
  }

  @Test
  void maps_the_documented_gpu_families_and_counts() {
    // rows of GPU计算型实例概述: instance type, GPU column
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn6i-c4g1.xlarge", "t4", 1, 4), AlibabaEcsAdapter.gpuType("ecs.gn6i-c4g1.xlarge"));
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn6i-c24g1.24xlarge", "t4", 4, 96), AlibabaEcsAdapter.gpuType("ecs.gn6i-c24g1.24xlarge"));
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn6v-c10g1.20xlarge", "v100-16g", 8, 80), AlibabaEcsAdapter.gpuType("ecs.gn6v-c10g1.20xlarge"));
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn6e-c12g1.12xlarge", "v100-32g", 4, 48), AlibabaEcsAdapter.gpuType("ecs.gn6e-c12g1.12xlarge"));
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn5-c4g1.2xlarge", "p100", 2, 8), AlibabaEcsAdapter.gpuType("ecs.gn5-c4g1.2xlarge"));
    assertEquals(8, ((AlibabaEcsAdapter.GpuType) AlibabaEcsAdapter.gpuType("ecs.gn5-c8g1.14xlarge")).gpus(), "the listed exception");
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn5i-c2g1.large", "p4", 1, 2), AlibabaEcsAdapter.gpuType("ecs.gn5i-c2g1.large"));
    // 实例规格命名及分类: 7i is A10 24 GB; its c8g1 example
    assertEquals(new AlibabaEcsAdapter.GpuType("ecs.gn7i-c8g1.2xlarge", "a10", 1, 8), AlibabaEcsAdapter.gpuType("ecs.gn7i-c8g1.2xlarge"));
    assertEquals("a vGPU share (vgn6i), not a whole GPU: not priced", AlibabaEcsAdapter.gpuType("ecs.vgn6i-m4.xlarge"));
    for (String id : AlibabaEcsAdapter.FAMILIES.values()) assertTrue(Fixtures.CATALOG.byId(id).isPresent(), id);
    assertEquals("CN", CloudApi.country(AlibabaEcsAdapter.COUNTRIES, "cn-hangzhou"));
    assertEquals("HK", CloudApi.country(AlibabaEcsAdapter.COUNTRIES, "cn-hongkong"));
    assertEquals("SG", CloudApi.country(AlibabaEcsAdapter.COUNTRIES, "ap-southeast-1"));
  }

  @Test
  void maps_billing_modes_to_price_units_and_periods() {
    assertEquals(Map.of("PriceUnit", "Hour"), AlibabaEcsAdapter.priceParams(Billing.ON_DEMAND));
    assertEquals(Map.of("PriceUnit", "Hour", "SpotStrategy", "SpotAsPriceGo"), AlibabaEcsAdapter.priceParams(Billing.SPOT));
    assertEquals(Map.of("PriceUnit", "Month", "Period", "1"), AlibabaEcsAdapter.priceParams(Billing.MONTHLY));
    assertEquals(Map.of("PriceUnit", "Year", "Period", "1"), AlibabaEcsAdapter.priceParams(Billing.YEARLY));
    assertEquals(Map.of("PriceUnit", "Year", "Period", "3"), AlibabaEcsAdapter.priceParams(Billing.THREE_YEARS));
  }

  @Test
  void signs_each_request_and_reports_the_documented_cpu_types(Vertx vertx, VertxTestContext ctx) throws IOException {
    FakeVendorServer fake = new FakeVendorServer(vertx).serveAction("ecs", "DescribeAvailableResource", file(documentedAvailability()));
    fake.start().compose(f -> AlibabaEcsAdapter.adapter(vertx, at(f.url("ecs"), "on-demand"), Fixtures.CATALOG, ENV, CLOCK,
            () -> "3156853299f313e23d1673dc12e1703d").fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(0, vq.quotes().size());
          assertEquals(List.of("cn-hangzhou (PostPaid): 2 instance types are not a GPU instance, not priced: ecs.d1ne.xlarge, "
              + "ecs.d1ne. 2xlarge"), vq.rejected());
          assertEquals(1, fake.seen.size(), "no DescribePrice for CPU types");
          FakeVendorServer.Seen r = fake.seen.get(0);
          assertEquals(List.of("cn-hangzhou", "InstanceType", "optimized", "PostPaid"), List.of(r.params().get("RegionId"),
              r.params().get("DestinationResource"), r.params().get("IoOptimized"), r.params().get("InstanceChargeType")));
          assertEquals("2014-05-26", r.headers().get("x-acs-version"));
          assertEquals("2026-12-01T08:00:00Z", r.headers().get("x-acs-date"));
          Map<String, String> headers = new LinkedHashMap<>();
          for (String h : List.of("host", "x-acs-action", "x-acs-version", "x-acs-date", "x-acs-signature-nonce", "x-acs-content-sha256")) {
            headers.put(h, r.headers().get(h));
          }
          Map<String, String> query = new LinkedHashMap<>();
          r.params().forEach(e -> query.put(e.getKey(), e.getValue()));
          assertEquals(CloudSigning.acs3(ID, SECRET, "POST", query, headers, "").authorization(), r.headers().get("Authorization"));
          assertFalse(r.headers().get("Authorization").contains(SECRET));
          fake.close();
          ctx.completeNow();
        })));
  }

  /**
   * The GPU path, which no documented answer reaches: the documented availability with
   * ecs.d1ne.xlarge replaced by ecs.gn7i-c8g1.2xlarge (a documented instance type name), priced by
   * the documented g6.large DescribePrice answer (4368 CNY) - NOT a real gn7i price.
   */
  @Test
  void prices_a_gpu_type_through_describe_price(Vertx vertx, VertxTestContext ctx) throws IOException {
    JsonObject changed = new JsonObject(documentedAvailability().encode().replace("ecs.d1ne.xlarge", "ecs.gn7i-c8g1.2xlarge"));
    FakeVendorServer fake = new FakeVendorServer(vertx).serveAction("ecs", "DescribeAvailableResource", file(changed))
        .serveAction("ecs", "DescribePrice", PRICE);
    fake.start().compose(f -> AlibabaEcsAdapter.adapter(vertx, at(f.url("ecs"), "yearly"), Fixtures.CATALOG, ENV, CLOCK,
            () -> "nonce").fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          Quote q = vq.quotes().get(0);
          assertEquals(List.of("cn-hangzhou", "ecs.gn7i-c8g1.2xlarge", "a10", 1.0, 8.0, Billing.YEARLY, PriceUnit.YEAR, "CN"),
              List.of(q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.billing(), q.unit(), q.country()));
          assertEquals(Money.of("4368", "CNY"), q.price());
          FakeVendorServer.Seen price = fake.seen.get(1);
          assertEquals("DescribePrice", price.action());
          assertEquals(List.of("cn-hangzhou", "instance", "ecs.gn7i-c8g1.2xlarge", "Year", "1"), List.of(price.params().get("RegionId"),
              price.params().get("ResourceType"), price.params().get("InstanceType"), price.params().get("PriceUnit"),
              price.params().get("Period")));
          assertEquals("PrePaid", fake.seen.get(0).params().get("InstanceChargeType"));
          fake.close();
          ctx.completeNow();
        })));
  }

  @Test
  void carries_the_api_error_and_refuses_keys_in_the_yaml(Vertx vertx) {
    JsonObject err = new JsonObject().put("RequestId", "x").put("Code", "InvalidAccessKeyId.NotFound")
        .put("Message", "Specified access key is not found.");
    IOException e = assertThrows(IOException.class, () -> AlibabaEcsAdapter.parsePrice(err, Billing.ON_DEMAND));
    assertEquals("DescribePrice: InvalidAccessKeyId.NotFound: Specified access key is not found.", e.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> AlibabaEcsAdapter.adapter(vertx,
        VendorDefinition.from(shipped.config().copy().put("accessKeySecret", SECRET), shipped.where()), Fixtures.CATALOG, ENV, CLOCK,
        () -> "n"));
    assertFalse(bad.getMessage().contains(SECRET));
  }

  @Test
  void ships_disabled_without_keys() {
    assertEquals(AlibabaEcsAdapter.KIND, shipped.kind());
    assertFalse(shipped.enabled());
    assertEquals("ALIBABA_CLOUD_ACCESS_KEY_ID", shipped.config().getString("accessKeyIdEnv"));
    assertEquals("ALIBABA_CLOUD_ACCESS_KEY_SECRET", shipped.config().getString("accessKeySecretEnv"));
    assertTrue(AdapterRegistry.load().kinds().contains(AlibabaEcsAdapter.KIND));
  }
}
