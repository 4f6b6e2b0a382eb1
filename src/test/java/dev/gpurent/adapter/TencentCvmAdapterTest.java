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
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tencent Cloud CVM on the CVM API reference's own example answers (../shared/data/cn/tencent-cvm,
 * see PROVENANCE.md there): documentation, not recorded GPU payloads. Every example is a CPU type,
 * so the documented DescribeZoneInstanceConfigInfos item is rejected as "not a GPU instance"; the
 * one test that reaches the GPU path changes two fields of that documented item and says so.
 */
@ExtendWith(VertxExtension.class)
class TencentCvmAdapterTest {

  static final Path DOCS = Path.of("../shared/data/cn/tencent-cvm");
  static final Path ZONES = DOCS.resolve("DescribeZoneInstanceConfigInfos.example.json");
  static final Path INQUIRY_POSTPAID = DOCS.resolve("InquiryPriceRunInstances.example1-postpaid-by-hour.json");
  static final Path INQUIRY_PREPAID_S5 = DOCS.resolve("InquiryPriceRunInstances.example2-prepaid-1-month-S5.16XLARGE256.json");
  static final Path INQUIRY_POSTPAID_S5 = DOCS.resolve("InquiryPriceRunInstances.example3-postpaid-by-hour-S5.16XLARGE256.json");
  static final String ID = "AKIDfakeTestSecretId0123";
  static final String KEY = "fakeTestSecretKey-0123456789";
  static final Function<String, String> ENV = n -> switch (n) {
    case "TENCENTCLOUD_SECRET_ID" -> ID;
    case "TENCENTCLOUD_SECRET_KEY" -> KEY;
    default -> null;
  };
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);

  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    shipped = VendorDefinition.load(Path.of("adapters/tencent-cvm.yaml"));
  }

  static VendorDefinition at(String url, String... overrides) {
    JsonObject c = shipped.config().copy().put("source", url).put("imageId", "img-from-the-test").put("timeout", "10s")
        .put("regions", new JsonArray().add("ap-guangzhou")).put("billing", new JsonArray().add("on-demand"));
    for (int i = 0; i < overrides.length; i += 2) c.put(overrides[i], overrides[i + 1]);
    return VendorDefinition.from(c, shipped.where());
  }

  static JsonObject json(Path p) throws IOException {
    return new JsonObject(Files.readString(p));
  }

  @Test
  void rejects_the_documented_cpu_type_as_not_a_gpu_instance() throws IOException {
    List<String> rejected = new ArrayList<>();
    assertEquals(List.of(), TencentCvmAdapter.parseZoneConfigs(json(ZONES), Fixtures.CATALOG, rejected));
    assertEquals(List.of("ap-guangzhou-2 S2.SMALL1 (POSTPAID_BY_HOUR): not a GPU instance (Gpu 0)"), rejected);
  }

  @Test
  void reads_list_prices_from_the_documented_inquiry_answers() throws IOException {
    // example 1, the default request, POSTPAID_BY_HOUR: UnitPrice 0.2 (UnitPriceDiscount 0.08 is the account's price)
    assertEquals(new BigDecimal("0.2"), TencentCvmAdapter.parseInquiry(json(INQUIRY_POSTPAID), Billing.ON_DEMAND));
    // example 3, S5.16XLARGE256 POSTPAID_BY_HOUR: UnitPrice 16.09 (UnitPriceDiscount 3.33)
    assertEquals(new BigDecimal("16.09"), TencentCvmAdapter.parseInquiry(json(INQUIRY_POSTPAID_S5), Billing.ON_DEMAND));
    // example 2, S5.16XLARGE256 PREPAID 1 month: OriginalPrice 8884.5 (DiscountPrice 1804.9)
    assertEquals(new BigDecimal("8884.5"), TencentCvmAdapter.parseInquiry(json(INQUIRY_PREPAID_S5), Billing.MONTHLY));
    assertEquals(PriceUnit.MONTH, TencentCvmAdapter.unit(Billing.MONTHLY));
    // the prepaid answer has no hourly price: asked for one, it says why
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TencentCvmAdapter.parseInquiry(json(INQUIRY_PREPAID_S5), Billing.ON_DEMAND));
    assertEquals("ChargeUnit '', not HOUR", e.getMessage());
    assertEquals(new BigDecimal("2961.5"), TencentCvmAdapter.spread(new BigDecimal("8884.5"), 3), "a 3-year price, per year");
  }

  @Test
  void carries_the_api_error_code_and_message() {
    JsonObject err = new JsonObject().put("Response", new JsonObject().put("RequestId", "x").put("Error",
        new JsonObject().put("Code", "AuthFailure.SignatureFailure").put("Message", "The provided credentials could not be validated.")));
    IOException e = assertThrows(IOException.class, () -> TencentCvmAdapter.parseInquiry(err, Billing.ON_DEMAND));
    assertEquals("InquiryPriceRunInstances: AuthFailure.SignatureFailure: The provided credentials could not be validated.", e.getMessage());
  }

  @Test
  void maps_billing_modes_to_charge_types_and_regions_to_countries() {
    assertEquals(List.of("POSTPAID_BY_HOUR", "PREPAID", "PREPAID", "PREPAID", "SPOTPAID"),
        List.of(Billing.ON_DEMAND, Billing.MONTHLY, Billing.YEARLY, Billing.THREE_YEARS, Billing.SPOT).stream()
            .map(TencentCvmAdapter::chargeType).toList());
    assertEquals(List.of(1, 12, 36), List.of(TencentCvmAdapter.period(Billing.MONTHLY), TencentCvmAdapter.period(Billing.YEARLY),
        TencentCvmAdapter.period(Billing.THREE_YEARS)));
    assertEquals("CN", CloudApi.country(TencentCvmAdapter.COUNTRIES, "ap-guangzhou-2"));
    assertEquals("CN", CloudApi.country(TencentCvmAdapter.COUNTRIES, "ap-shanghai-fsi-1"));
    assertEquals("HK", CloudApi.country(TencentCvmAdapter.COUNTRIES, "ap-hongkong-3"));
    assertEquals("SG", CloudApi.country(TencentCvmAdapter.COUNTRIES, "ap-singapore"));
    assertEquals("", CloudApi.country(TencentCvmAdapter.COUNTRIES, "xx-nowhere-1"));
  }

  @Test
  void signs_each_request_and_reports_the_documented_cpu_type(Vertx vertx, VertxTestContext ctx) throws IOException {
    FakeVendorServer fake = new FakeVendorServer(vertx).serveAction("cvm", "DescribeZoneInstanceConfigInfos", ZONES);
    fake.start().compose(f -> TencentCvmAdapter.adapter(vertx, at(f.url("cvm")), Fixtures.CATALOG, ENV, CLOCK).fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(0, vq.quotes().size());
          assertEquals(List.of("ap-guangzhou-2 S2.SMALL1 (POSTPAID_BY_HOUR): not a GPU instance (Gpu 0)"), vq.rejected());
          assertEquals(1, fake.seen.size(), "one DescribeZoneInstanceConfigInfos; no price asked for a CPU type");
          FakeVendorServer.Seen r = fake.seen.get(0);
          assertEquals("2017-03-12", r.headers().get("X-TC-Version"));
          assertEquals("ap-guangzhou", r.headers().get("X-TC-Region"));
          assertEquals("1796112000", r.headers().get("X-TC-Timestamp"));
          assertEquals(new JsonObject().put("Filters", new JsonArray().add(new JsonObject().put("Name", "instance-charge-type")
              .put("Values", new JsonArray().add("POSTPAID_BY_HOUR")))), r.body().toJsonObject());
          String host = r.headers().get("Host");
          CloudSigning.Tc3 expected = CloudSigning.tc3(ID, KEY, "cvm", host, "application/json; charset=utf-8",
              r.body().toString(), 1796112000L);
          assertEquals(expected.authorization(), r.headers().get("Authorization"));
          assertTrue(expected.authorization().startsWith("TC3-HMAC-SHA256 Credential=" + ID + "/2026-12-01/cvm/tc3_request, "));
          assertFalse(r.headers().get("Authorization").contains(KEY));
          fake.close();
          ctx.completeNow();
        })));
  }

  /**
   * The GPU path, which no documented answer reaches: the documented S2.SMALL1 item with two fields
   * changed (Gpu 1, Externals.GPUDesc "NVIDIA T4" - NOT a real Tencent offer or description), priced
   * by the documented POSTPAID_BY_HOUR inquiry answer (UnitPrice 0.2).
   */
  @Test
  void prices_a_gpu_type_through_inquiry_price_run_instances(Vertx vertx, VertxTestContext ctx) throws IOException {
    JsonObject zones = json(ZONES);
    JsonObject item = zones.getJsonObject("Response").getJsonArray("InstanceTypeQuotaSet").getJsonObject(0);
    item.put("Gpu", 1).put("Externals", new JsonObject().put("GPUDesc", "NVIDIA T4"));
    Path changed = Files.createTempFile("zones", ".json");
    Files.writeString(changed, zones.encode());
    FakeVendorServer fake = new FakeVendorServer(vertx).serveAction("cvm", "DescribeZoneInstanceConfigInfos", changed)
        .serveAction("cvm", "InquiryPriceRunInstances", INQUIRY_POSTPAID);
    fake.start().compose(f -> TencentCvmAdapter.adapter(vertx, at(f.url("cvm")), Fixtures.CATALOG, ENV, CLOCK).fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          assertEquals(List.of(), vq.rejected());
          Quote q = vq.quotes().get(0);
          assertEquals(List.of("ap-guangzhou-2", "S2.SMALL1", "t4", 1.0, 1.0, 1.0, Billing.ON_DEMAND, PriceUnit.HOUR, "CN"),
              List.of(q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(), q.unit(), q.country()));
          assertEquals(Money.of("0.2", "CNY"), q.price());
          JsonObject inquiry = fake.seen.get(1).body().toJsonObject();
          assertEquals("InquiryPriceRunInstances", fake.seen.get(1).action());
          assertEquals(new JsonObject().put("Placement", new JsonObject().put("Zone", "ap-guangzhou-2")).put("ImageId", "img-from-the-test")
              .put("InstanceType", "S2.SMALL1").put("InstanceChargeType", "POSTPAID_BY_HOUR").put("InstanceCount", 1), inquiry);
          fake.close();
          ctx.completeNow();
        })));
  }

  @Test
  void fails_without_keys_naming_the_variable_and_refuses_keys_in_the_yaml(Vertx vertx, VertxTestContext ctx) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TencentCvmAdapter.adapter(vertx,
        VendorDefinition.from(at("http://127.0.0.1:1/").config().copy().put("secretKey", KEY), shipped.where()), Fixtures.CATALOG,
        ENV, CLOCK));
    assertFalse(e.getMessage().contains(KEY), e.getMessage());
    assertTrue(e.getMessage().contains("secretIdEnv / secretKeyEnv"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TencentCvmAdapter.adapter(vertx, shipped, Fixtures.CATALOG, ENV, CLOCK));
    assertTrue(e.getMessage().endsWith("imageId: is required: InquiryPriceRunInstances prices an instance with an image; give a "
        + "public image id (DescribeImages)"), e.getMessage());
    TencentCvmAdapter.adapter(vertx, at("http://127.0.0.1:1/"), Fixtures.CATALOG, n -> null, CLOCK).fetch()
        .onComplete(ctx.failing(x -> ctx.verify(() -> {
          assertEquals("environment variable TENCENTCLOUD_SECRET_ID is not set: the Tencent Cloud CVM API needs a key pair in "
              + "TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY", x.getMessage());
          ctx.completeNow();
        })));
  }

  @Test
  void ships_disabled_without_keys() {
    assertEquals("tencent-cvm", shipped.vendor());
    assertEquals(TencentCvmAdapter.KIND, shipped.kind());
    assertFalse(shipped.enabled());
    assertEquals("https://cvm.tencentcloudapi.com/", shipped.config().getString("source"));
    assertEquals("TENCENTCLOUD_SECRET_ID", shipped.config().getString("secretIdEnv"));
    assertEquals("TENCENTCLOUD_SECRET_KEY", shipped.config().getString("secretKeyEnv"));
    assertTrue(AdapterRegistry.load().kinds().contains(TencentCvmAdapter.KIND));
  }
}
