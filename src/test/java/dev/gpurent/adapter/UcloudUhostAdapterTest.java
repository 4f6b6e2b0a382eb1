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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * UCloud UHost on the GetUHostInstancePrice reference's own example answer
 * (../shared/data/cn/ucloud, see PROVENANCE.md there): documentation, not a recorded GPU payload.
 * The documented request prices a 2-core 4 GB N-type host, which is refused as "not a GPU
 * instance"; the test that reaches the GPU path serves that documented answer to a GPU
 * configuration and says so.
 */
@ExtendWith(VertxExtension.class)
class UcloudUhostAdapterTest {

  static final Path PRICE = Path.of("../shared/data/cn/ucloud/GetUHostInstancePrice.example-dynamic.json");
  static final String PUBLIC = "ucloudfake-test@example.com0123456789";
  static final String PRIVATE = "fakeTestPrivateKey0123456789abcdef";
  static final Function<String, String> ENV = n -> switch (n) {
    case "UCLOUD_PUBLIC_KEY" -> PUBLIC;
    case "UCLOUD_PRIVATE_KEY" -> PRIVATE;
    default -> null;
  };
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T08:00:00Z"), ZoneOffset.UTC);

  static VendorDefinition shipped;

  @BeforeAll
  static void load() {
    shipped = VendorDefinition.load(Path.of("adapters/ucloud-uhost.yaml"));
  }

  static VendorDefinition at(String url, JsonObject host, String billing) {
    return VendorDefinition.from(shipped.config().copy().put("source", url).put("timeout", "10s")
        .put("configurations", new JsonArray().add(host)).put("billing", new JsonArray().add(billing)), shipped.where());
  }

  /** The document's request example: cn-bj2-04, MachineType N, CPU 2, Memory 4096, a 40 GB CLOUD_SSD boot disk, Dynamic. */
  static JsonObject documentedHost() {
    return new JsonObject().put("region", "cn-bj2").put("zone", "cn-bj2-04").put("machineType", "N").put("cpu", 2)
        .put("memoryMb", 4096).put("bootDiskType", "CLOUD_SSD").put("bootDiskGb", 40);
  }

  @Test
  void reads_the_documented_dynamic_price() throws IOException {
    JsonObject body = new JsonObject(Files.readString(PRICE));
    assertEquals(new BigDecimal("0.42"), UcloudUhostAdapter.parsePrice(body, Billing.ON_DEMAND));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UcloudUhostAdapter.parsePrice(body, Billing.MONTHLY));
    assertEquals("no Month price in PriceSet", e.getMessage());
  }

  @Test
  void refuses_the_documented_cpu_host_as_not_a_gpu_instance(Vertx vertx) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UcloudUhostAdapter.adapter(vertx,
        at("http://127.0.0.1:1/", documentedHost(), "on-demand"), Fixtures.CATALOG, ENV, CLOCK));
    assertTrue(e.getMessage().endsWith("configurations[0]: not a GPU instance (MachineType N, no GPU): list GPU hosts only"),
        e.getMessage());
  }

  @Test
  void prefers_the_list_price_and_carries_api_errors() throws IOException {
    JsonObject withList = new JsonObject(Files.readString(PRICE));
    withList.getJsonArray("PriceSet").getJsonObject(0).put("OriginalPrice", 0.5).put("ListPrice", 0.6);
    assertEquals(new BigDecimal("0.6"), UcloudUhostAdapter.parsePrice(withList, Billing.ON_DEMAND));
    JsonObject err = new JsonObject().put("Action", "GetUHostInstancePriceResponse").put("RetCode", 171).put("Message", "Signature VerifyAC Error");
    IOException e = assertThrows(IOException.class, () -> UcloudUhostAdapter.parsePrice(err, Billing.ON_DEMAND));
    assertEquals("GetUHostInstancePrice: RetCode 171: Signature VerifyAC Error", e.getMessage());
    assertEquals(Map.of("ChargeType", "Year", "Quantity", "3"), UcloudUhostAdapter.chargeParams(Billing.THREE_YEARS));
    assertEquals(Map.of("ChargeType", "Preemptive"), UcloudUhostAdapter.chargeParams(Billing.SPOT));
    assertEquals("CN", CloudApi.country(UcloudUhostAdapter.COUNTRIES, "cn-bj2"));
    assertEquals("HK", CloudApi.country(UcloudUhostAdapter.COUNTRIES, "hk"));
  }

  /**
   * The GPU path: the document's host made a G host with one T4 (a configuration of ours), answered
   * with the document's example (0.42 CNY an hour for the N host) - NOT a real price of a T4 host.
   */
  @Test
  void signs_a_price_request_for_a_gpu_host(Vertx vertx, VertxTestContext ctx) throws IOException {
    JsonObject t4 = documentedHost().put("machineType", "G").put("gpuType", "T4").put("gpu", 1).put("cpu", 8).put("memoryMb", 32768);
    FakeVendorServer fake = new FakeVendorServer(vertx).serveAction("ucloud", "GetUHostInstancePrice", PRICE);
    fake.start().compose(f -> UcloudUhostAdapter.adapter(vertx, at(f.url("ucloud"), t4, "on-demand"), Fixtures.CATALOG, ENV, CLOCK).fetch())
        .onComplete(ctx.succeeding(vq -> ctx.verify(() -> {
          Quote q = vq.quotes().get(0);
          assertEquals(List.of("cn-bj2-04", "G-1xT4-8C32G", "t4", 1.0, 8.0, 32.0, Billing.ON_DEMAND, PriceUnit.HOUR, "CN"),
              List.of(q.region(), q.offerId(), q.gpuId(), q.gpuCount(), q.vcpus(), q.ramGiB(), q.billing(), q.unit(), q.country()));
          assertEquals(Money.of("0.42", "CNY"), q.price());
          FakeVendorServer.Seen r = fake.seen.get(0);
          Map<String, String> signed = new LinkedHashMap<>();
          r.params().forEach(e -> { if (!e.getKey().equals("Signature")) signed.put(e.getKey(), e.getValue()); });
          assertEquals(List.of("cn-bj2", "cn-bj2-04", "G", "T4", "1", "8", "32768", "Dynamic", PUBLIC), List.of(signed.get("Region"),
              signed.get("Zone"), signed.get("MachineType"), signed.get("GpuType"), signed.get("GPU"), signed.get("CPU"),
              signed.get("Memory"), signed.get("ChargeType"), signed.get("PublicKey")));
          assertEquals(CloudSigning.ucloud(signed, PRIVATE), r.params().get("Signature"));
          assertFalse(r.params().toString().contains(PRIVATE), "the private key is never sent");
          fake.close();
          ctx.completeNow();
        })));
  }

  @Test
  void ships_disabled_without_keys() {
    assertEquals(UcloudUhostAdapter.KIND, shipped.kind());
    assertFalse(shipped.enabled());
    assertEquals("UCLOUD_PUBLIC_KEY", shipped.config().getString("publicKeyEnv"));
    assertEquals("UCLOUD_PRIVATE_KEY", shipped.config().getString("privateKeyEnv"));
    assertTrue(AdapterRegistry.load().kinds().contains(UcloudUhostAdapter.KIND));
  }
}
