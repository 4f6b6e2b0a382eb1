package dev.gpurent.adapter;
import dev.gpurent.testing.FakeVendorServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.service.Addresses;
import dev.gpurent.testing.FakeVendorServer;
import dev.gpurent.testing.FakeVendorServer.Fault;
import dev.gpurent.service.QuoteSettings;
import dev.gpurent.service.quotes.QuoteVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fault suite on the three Chinese clouds' adapters, as on the other adapters: a fake API on
 * loopback serving the documented example answers (../shared/data/cn, documentation, not recorded
 * GPU payloads) hangs, answers 503, garbage, resets or truncates; every fetch fails with a reason
 * that names the call and carries no key, and in the pipeline the failing vendor is reported while
 * the others refresh.
 */
@ExtendWith(VertxExtension.class)
class CnCloudFaultsTest {

  static final Path CN = Path.of("../shared/data/cn");
  static final Clock CLOCK = Clock.systemUTC();
  static final Function<String, String> ENV = n -> switch (n) {
    case "TENCENTCLOUD_SECRET_ID" -> TencentCvmAdapterTest.ID;
    case "TENCENTCLOUD_SECRET_KEY" -> TencentCvmAdapterTest.KEY;
    case "ALIBABA_CLOUD_ACCESS_KEY_ID" -> AlibabaEcsAdapterTest.ID;
    case "ALIBABA_CLOUD_ACCESS_KEY_SECRET" -> AlibabaEcsAdapterTest.SECRET;
    case "UCLOUD_PUBLIC_KEY" -> UcloudUhostAdapterTest.PUBLIC;
    case "UCLOUD_PRIVATE_KEY" -> UcloudUhostAdapterTest.PRIVATE;
    default -> null;
  };
  static final List<String> SECRETS = List.of(TencentCvmAdapterTest.KEY, AlibabaEcsAdapterTest.SECRET, UcloudUhostAdapterTest.PRIVATE,
      TencentCvmAdapterTest.ID, AlibabaEcsAdapterTest.ID, UcloudUhostAdapterTest.PUBLIC);

  @org.junit.jupiter.api.BeforeAll
  static void load() {
    TencentCvmAdapterTest.load();
    AlibabaEcsAdapterTest.load();
    UcloudUhostAdapterTest.load();
  }

  static Future<FakeVendorServer> fake(Vertx vertx) throws Exception {
    Path availability = Files.createTempFile("ecs", ".json");
    Files.writeString(availability, AlibabaEcsAdapterTest.documentedAvailability().encode());
    return new FakeVendorServer(vertx)
        .serveAction("cvm", "DescribeZoneInstanceConfigInfos", CN.resolve("tencent-cvm/DescribeZoneInstanceConfigInfos.example.json"))
        .serveAction("ecs", "DescribeAvailableResource", availability)
        .serveAction("ucloud", "GetUHostInstancePrice", CN.resolve("ucloud/GetUHostInstancePrice.example-dynamic.json"))
        .start();
  }

  static VendorDefinition with(VendorDefinition d, String url) {
    return VendorDefinition.from(d.config().copy().put("source", url).put("timeout", "5s"), d.where());
  }

  static List<VendorAdapter> adapters(Vertx vertx, FakeVendorServer f) {
    JsonObject t4 = UcloudUhostAdapterTest.documentedHost().put("machineType", "G").put("gpuType", "T4").put("gpu", 1);
    return List.of(
        TencentCvmAdapter.adapter(vertx, with(TencentCvmAdapterTest.at(f.url("cvm")), f.url("cvm")), Fixtures.CATALOG, ENV, CLOCK),
        AlibabaEcsAdapter.adapter(vertx, with(AlibabaEcsAdapterTest.at(f.url("ecs"), "on-demand"), f.url("ecs")), Fixtures.CATALOG, ENV,
            CLOCK, () -> "nonce"),
        UcloudUhostAdapter.adapter(vertx, with(UcloudUhostAdapterTest.at(f.url("ucloud"), t4, "on-demand"), f.url("ucloud")),
            Fixtures.CATALOG, ENV, CLOCK));
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"HANG", "HTTP_503", "GARBAGE", "RESET", "TRUNCATED"})
  void fails_every_fetch_with_a_reason_and_no_key(Fault fault, Vertx vertx, VertxTestContext ctx) throws Exception {
    fake(vertx).compose(f -> {
      for (String name : List.of("cvm", "ecs", "ucloud")) f.fault(name, fault);
      List<Future<?>> fetches = adapters(vertx, f).stream().<Future<?>>map(a -> a.fetch().transform(ar -> Future.succeededFuture(ar)))
          .toList();
      return Future.all(fetches).map(all -> all.list());
    }).onComplete(ctx.succeeding(results -> ctx.verify(() -> {
      List<String> actions = List.of("DescribeZoneInstanceConfigInfos ap-guangzhou", "DescribeAvailableResource cn-hangzhou",
          "GetUHostInstancePrice cn-bj2-04");
      for (int i = 0; i < 3; i++) {
        io.vertx.core.AsyncResult<?> ar = (io.vertx.core.AsyncResult<?>) results.get(i);
        assertTrue(ar.failed(), fault + " #" + i + " must fail, never give quotes");
        String m = ar.cause().getMessage();
        assertTrue(m.startsWith(actions.get(i)), m);
        switch (fault) {
          case HANG -> assertTrue(m.contains("The timeout period of 5000ms has been exceeded"), m);
          case HTTP_503 -> assertTrue(m.contains(": HTTP 503"), m);
          case GARBAGE -> assertTrue(m.contains(": not JSON ("), m);
          default -> assertFalse(m.isBlank());
        }
        for (String s : SECRETS) {
          assertFalse(m.contains(s), m);
          assertFalse(m.contains(java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8)), m);
        }
        assertEquals(null, ar.cause().getCause(), "no cause that could carry a key");
      }
      ctx.completeNow();
    })));
  }

  /** Kinds that build the adapters with the test's keys, as the pipeline would from the environment. */
  static AdapterRegistry registry() {
    return new AdapterRegistry(List.of(new StaticSheetFactory(), factory(TencentCvmAdapter.KIND,
            (v, d, c) -> TencentCvmAdapter.adapter(v, d, c, ENV, CLOCK)),
        factory(UcloudUhostAdapter.KIND, (v, d, c) -> UcloudUhostAdapter.adapter(v, d, c, ENV, CLOCK))));
  }

  interface Create {
    VendorAdapter create(Vertx v, VendorDefinition d, GpuCatalog c);
  }

  static VendorAdapterFactory factory(String kind, Create create) {
    return new VendorAdapterFactory() {
      @Override
      public String name() {
        return kind;
      }

      @Override
      public VendorAdapter create(Vertx vertx, VendorDefinition definition, GpuCatalog catalog) {
        return create.create(vertx, definition, catalog);
      }
    };
  }

  @Test
  void reports_a_hanging_api_while_the_other_vendors_refresh(Vertx vertx, VertxTestContext ctx) throws Exception {
    QuoteSettings settings = new QuoteSettings(Duration.ofHours(2), 5, Duration.ofSeconds(1), Duration.ofHours(1), "", false,
        Duration.ofHours(12), "");
    fake(vertx).compose(f -> {
      f.fault("ucloud", Fault.HANG);
      JsonObject t4 = UcloudUhostAdapterTest.documentedHost().put("machineType", "G").put("gpuType", "T4").put("gpu", 1);
      List<VendorDefinition> defs = List.of(VendorDefinition.load(Path.of("adapters/guide-reference.yaml")),
          TencentCvmAdapterTest.at(f.url("cvm")),
          with(UcloudUhostAdapterTest.at(f.url("ucloud"), t4, "on-demand"), f.url("ucloud")));
      return vertx.deployVerticle(new QuoteVerticle(defs, Fixtures.CATALOG, Fixtures.REGIONS, registry(), settings, new JsonObject(), CLOCK))
          .compose(id -> vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject()))
          .compose(m -> vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null).map(s -> List.of(m.body(), s.body())));
    }).onComplete(ctx.succeeding(r -> ctx.verify(() -> {
      JsonObject outcome = (JsonObject) r.get(0);
      assertEquals(new JsonArray().add("guide-reference"), outcome.getJsonArray("refreshed"));
      // the documented Tencent answer holds only a CPU type: refused, with the reason
      assertEquals("payload refused: the payload holds no usable quote (1 rows rejected; first rejected row: ap-guangzhou-2 "
          + "S2.SMALL1 (POSTPAID_BY_HOUR): not a GPU instance (Gpu 0))", outcome.getJsonObject("failed").getString("tencent-cvm"));
      assertTrue(outcome.getJsonObject("failed").getString("ucloud-uhost").startsWith("GetUHostInstancePrice cn-bj2-04 G-1xT4-2C4G "
          + "on-demand: The timeout period of 5000ms has been exceeded while executing GET /ucloud?... for server"), outcome.encode());
      JsonArray status = (JsonArray) r.get(1);
      assertEquals("fresh", status.getJsonObject(0).getString("freshness"));
      assertEquals("unavailable", status.getJsonObject(2).getString("freshness"));
      for (String s : SECRETS) assertFalse(status.encode().contains(s));
      ctx.completeNow();
    })));
  }
}
