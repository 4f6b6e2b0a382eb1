package dev.gpurent.service;
import dev.gpurent.testing.FakeVendorServer;

import dev.gpurent.service.quotes.QuoteVerticle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.MutableClock;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.testing.FakeVendorServer.Fault;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The quote pipeline against fake vendors on loopback serving the real recorded payloads: every
 * fault mode of one vendor leaves the others refreshing, keeps its last good quotes (stale), trips
 * and resets its breaker, and recovers. Time moves with an injected clock.
 */
@ExtendWith(VertxExtension.class)
class QuoteVerticleTest {

  static final Path DATA = Path.of("../shared/data");
  static final Instant START = Instant.parse("2026-03-01T08:00:00Z");
  static final QuoteSettings SETTINGS = new QuoteSettings(Duration.ofHours(2), 2, Duration.ofSeconds(1), Duration.ofHours(1), "",
      false, Duration.ofHours(12), DATA.resolve("aws/spot-advisor/spot-advisor-data.2025-06-28.json").toString());

  MutableClock clock;
  FakeVendorServer fake;
  QuoteVerticle verticle;

  /**
   * RunPod, the vendor the hang is injected into, times out after 5 s; the others get 30 s, so a
   * busy machine never turns a healthy fetch into a failure (issue 32).
   */
  static VendorDefinition vendor(String yaml, String url) {
    VendorDefinition d = VendorDefinition.load(Path.of("adapters", yaml));
    String timeout = yaml.equals("runpod.yaml") ? "5s" : "30s";
    return VendorDefinition.from(d.config().copy().put("source", url).put("timeout", timeout).put("refresh", "6h"), d.where());
  }

  @BeforeEach
  void setUp(Vertx vertx, VertxTestContext ctx) throws Exception {
    clock = new MutableClock(START);
    fake = new FakeVendorServer(vertx)
        .serve("runpod", DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"))
        .serve("lambda", DATA.resolve("skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv"))
        .serve("vast", DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"));
    fake.start().compose(f -> {
      List<VendorDefinition> defs = List.of(vendor("runpod.yaml", f.url("runpod")), vendor("lambda.yaml", f.url("lambda")),
          vendor("vast.yaml", f.url("vast")));
      JsonObject fx = new JsonObject().put("source", DATA.resolve("ecb/eurofxref-daily.2025-05-09.xml").toString());
      verticle = new QuoteVerticle(defs, Fixtures.CATALOG, Fixtures.REGIONS, AdapterRegistry.load(), SETTINGS, fx, clock);
      return vertx.deployVerticle(verticle);
    }).compose(id -> refresh(vertx)).onComplete(ctx.succeedingThenComplete());
  }

  Vertx other;

  @AfterEach
  void tearDown(VertxTestContext ctx) {
    Future<Void> closeOther = other == null ? Future.succeededFuture() : other.close();
    fake.close().compose(v -> closeOther).onComplete(ctx.succeedingThenComplete());
  }

  static Future<JsonObject> refresh(Vertx vertx) {
    return vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject()).map(m -> m.body());
  }

  static Future<QuoteBook> book(Vertx vertx) {
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body());
  }

  /** The countries the book gives one vendor's quotes in one region. */
  static Set<String> countries(QuoteBook b, String vendor, String region) {
    return b.vendor(vendor).orElseThrow().quotes().quotes().stream().filter(q -> q.region().equals(region))
        .map(dev.gpurent.quote.Quote::country).collect(Collectors.toSet());
  }

  static Future<JsonObject> status(Vertx vertx, String vendor) {
    return vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null).map(m -> m.body().stream()
        .map(JsonObject.class::cast).filter(s -> s.getString("vendor").equals(vendor)).findFirst().orElseThrow());
  }

  /** Waits, on timers rather than sleeps, until the vendor's breaker reaches a state. */
  static Future<JsonObject> breakerState(Vertx vertx, String vendor, String state) {
    Promise<JsonObject> p = Promise.promise();
    long[] timer = new long[1];
    timer[0] = vertx.setPeriodic(20, t -> status(vertx, vendor).onSuccess(s -> {
      if (s.getString("breaker").equals(state)) {
        vertx.cancelTimer(timer[0]);
        p.tryComplete(s);
      }
    }));
    return p.future().timeout(30, TimeUnit.SECONDS);
  }

  @Test
  void loads_every_vendor_from_the_recorded_payloads(Vertx vertx, VertxTestContext ctx) {
    book(vertx).onComplete(ctx.succeeding(b -> ctx.verify(() -> {
      assertEquals(List.of("lambda", "runpod", "vast"), List.copyOf(b.vendors().keySet()));
      assertEquals(147, b.vendor("runpod").orElseThrow().quotes().quotes().size());
      assertEquals(391, b.vendor("lambda").orElseThrow().quotes().quotes().size());
      assertEquals(64, b.vendor("vast").orElseThrow().quotes().quotes().size());
      b.vendors().values().forEach(e -> assertEquals(Freshness.State.FRESH, e.freshness().state()));
      // each accepted quote carries its region's country from config/regions.yaml
      assertEquals(Set.of("RU"), countries(b, "vast", "Sverdlovsk Oblast, RU, EU"));
      assertEquals(Set.of("IT"), countries(b, "lambda", "europe-south-1"));
      assertEquals(Set.of(""), countries(b, "runpod", ""), "RunPod's gpuTypes prices name no region");
      assertEquals("ECB euro reference rates", b.fx().source().substring(0, 24));
      ctx.completeNow();
    })));
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"HANG", "HTTP_503", "RESET", "TRUNCATED", "GARBAGE", "ZERO_PRICES", "NEGATIVE_PRICES"})
  void keeps_the_last_good_quotes_of_a_failing_vendor_while_the_others_refresh(Fault fault, Vertx vertx, VertxTestContext ctx) {
    VendorQuotes[] good = new VendorQuotes[1];
    book(vertx).compose(b -> {
      good[0] = b.vendor("runpod").orElseThrow().quotes();
      fake.fault("runpod", fault);
      clock.advance(Duration.ofMinutes(30));
      return refresh(vertx);
    }).compose(r -> {
      ctx.verify(() -> {
        assertEquals(new JsonArray().add("lambda").add("vast"), r.getJsonArray("refreshed"));
        assertTrue(r.getJsonObject("failed").containsKey("runpod"), r.encode());
      });
      return book(vertx);
    }).compose(b -> {
      ctx.verify(() -> {
        QuoteBook.Entry runpod = b.vendor("runpod").orElseThrow();
        assertSame(good[0], runpod.quotes(), "the last good payload stays");
        assertEquals(new Freshness(Freshness.State.STALE, Duration.ofMinutes(30)), runpod.freshness());
        assertEquals(Freshness.State.FRESH, b.vendor("lambda").orElseThrow().freshness().state());
        assertEquals(Freshness.State.FRESH, b.vendor("vast").orElseThrow().freshness().state());
      });
      return status(vertx, "runpod");
    }).onComplete(ctx.succeeding(s -> ctx.verify(() -> {
      assertEquals("stale", s.getString("freshness"));
      assertEquals(1800, s.getLong("ageSeconds"));
      assertEquals(START.toString(), s.getString("lastSuccess"));
      String error = s.getString("lastError");
      switch (fault) {
        case HANG -> assertTrue(error.startsWith("The timeout period of 5000ms has been exceeded"), error);
        case HTTP_503 -> assertTrue(error.contains("503"), error);
        case ZERO_PRICES, NEGATIVE_PRICES -> assertTrue(error.startsWith("payload refused: the payload holds no usable quote (176 rows rejected"), error);
        default -> assertTrue(!error.isEmpty());
      }
      ctx.completeNow();
    })));
  }

  @Test
  void opens_the_breaker_then_recovers_with_fresh_quotes(Vertx vertx, VertxTestContext ctx) {
    fake.fault("runpod", Fault.HTTP_503);
    refresh(vertx).compose(r -> refresh(vertx))
        .compose(r -> status(vertx, "runpod"))
        .compose(s -> {
          ctx.verify(() -> assertEquals("open", s.getString("breaker")));
          int before = fake.hits("runpod");
          return refresh(vertx).compose(r -> {
            ctx.verify(() -> {
              assertEquals(before, fake.hits("runpod"), "an open breaker does not call the vendor");
              assertTrue(r.getJsonObject("failed").getString("runpod").contains("open circuit"), r.encode());
            });
            return breakerState(vertx, "runpod", "half_open");
          });
        })
        .compose(s -> {
          fake.fault("runpod", Fault.NONE);
          clock.advance(Duration.ofMinutes(5));
          return refresh(vertx);
        })
        .compose(r -> status(vertx, "runpod"))
        .onComplete(ctx.succeeding(s -> ctx.verify(() -> {
          assertEquals("closed", s.getString("breaker"));
          assertEquals("fresh", s.getString("freshness"));
          assertNull(s.getString("lastError"));
          assertEquals(START.plus(Duration.ofMinutes(5)).toString(), s.getString("lastSuccess"));
          ctx.completeNow();
        })));
  }

  @Test
  void expires_quotes_past_the_hard_limit_and_never_prices_them(Vertx vertx, VertxTestContext ctx) {
    Scenario scenario = new ScenarioReader(Fixtures.CATALOG).read(Map.of("currency", "USD", "workloads", List.of(Map.of(
        "kind", "inference", "paramsBillions", 7, "peakQps", 3, "secondsPerRequest", 2, "concurrentPerCard", 4))));
    fake.fault("runpod", Fault.HTTP_503);
    clock.advance(Duration.ofHours(3));
    refresh(vertx).compose(r -> book(vertx)).onComplete(ctx.succeeding(b -> ctx.verify(() -> {
      assertEquals(Freshness.State.EXPIRED, b.vendor("runpod").orElseThrow().freshness().state());
      Ranking r = new CostModel(Fixtures.CATALOG).rank(scenario, b);
      assertTrue(r.plans().stream().noneMatch(p -> p.vendor().equals("runpod")));
      assertEquals("runpod", r.unavailable().get(0).vendor());
      assertEquals("prices expired (180 min old): past the hard age limit, not ranked", dev.gpurent.text.Localizer.en(r.unavailable().get(0).reason()));
      assertTrue(r.plans().stream().allMatch(p -> p.monthlyTotal().isPositive()));
      ctx.completeNow();
    })));
  }

  @Test
  void ranks_from_the_last_good_data_when_every_vendor_is_down(Vertx vertx, VertxTestContext ctx) {
    Scenario scenario = new ScenarioReader(Fixtures.CATALOG).read(Map.of("currency", "USD", "workloads", List.of(Map.of(
        "kind", "inference", "paramsBillions", 7, "peakQps", 3, "secondsPerRequest", 2, "concurrentPerCard", 4))));
    for (String v : List.of("runpod", "lambda", "vast")) fake.fault(v, Fault.RESET);
    clock.advance(Duration.ofMinutes(40));
    refresh(vertx).compose(r -> {
      ctx.verify(() -> assertEquals(3, r.getJsonObject("failed").size()));
      return book(vertx);
    }).onComplete(ctx.succeeding(b -> ctx.verify(() -> {
      Ranking r = new CostModel(Fixtures.CATALOG).rank(scenario, b);
      assertEquals(3, r.plans().size());
      r.plans().forEach(p -> {
        assertEquals("stale (40 min old)", dev.gpurent.text.Localizer.en(p.freshness()));
        assertTrue(dev.gpurent.text.Localizer.ens(p.warnings()).contains("prices are stale (40 min old): the last refresh failed"));
      });
      ctx.completeNow();
    })));
  }

  @Test
  void shares_one_fetch_between_concurrent_refreshes(Vertx vertx, VertxTestContext ctx) {
    fake.fault("vast", Fault.SLOW);
    int before = fake.hits("vast");
    Future.all(refresh(vertx), refresh(vertx), refresh(vertx)).onComplete(ctx.succeeding(all -> ctx.verify(() -> {
      assertEquals(before + 1, fake.hits("vast"));
      ctx.completeNow();
    })));
  }

  @Test
  void publishes_a_new_book_when_a_vendor_turns_stale(Vertx vertx, VertxTestContext ctx) {
    vertx.eventBus().<QuoteBook>consumer(Addresses.QUOTES_CHANGED, msg -> ctx.verify(() -> {
      assertEquals(Freshness.State.STALE, msg.body().vendor("lambda").orElseThrow().freshness().state());
      ctx.completeNow();
    })).completion().onSuccess(v -> {
      fake.fault("lambda", Fault.GARBAGE);
      clock.advance(Duration.ofMinutes(10));
      vertx.eventBus().request(Addresses.QUOTES_REFRESH, new JsonObject().put("vendor", "lambda"));
    });
  }

  @Test
  void answers_offline_from_the_last_good_quotes_saved_on_disk(VertxTestContext ctx, @TempDir Path dir) {
    QuoteSettings online = new QuoteSettings(Duration.ofHours(48), 2, Duration.ofSeconds(1), Duration.ofHours(1), dir.toString(),
        false, Duration.ofHours(12), "");
    List<VendorDefinition> defs = List.of(vendor("lambda.yaml", fake.url("lambda")));
    JsonObject fx = new JsonObject().put("source", DATA.resolve("ecb/eurofxref-daily.2025-05-09.xml").toString());
    // A Vert.x of its own, so that only these verticles answer on the quote addresses.
    other = Vertx.vertx();
    other.deployVerticle(new QuoteVerticle(defs, Fixtures.CATALOG, Fixtures.REGIONS, AdapterRegistry.load(), online, fx, clock))
        .compose(id -> refresh(other).compose(r -> other.undeploy(id)))
        .compose(v -> {
          clock.advance(Duration.ofHours(5));
          return other.deployVerticle(new QuoteVerticle(defs, Fixtures.CATALOG, Fixtures.REGIONS, AdapterRegistry.load(), online.withOffline(true),
              fx, clock));
        })
        .compose(id -> refresh(other))
        .compose(r -> {
          ctx.verify(() -> assertEquals("offline: lambda is read from " + fake.url("lambda") + ", not fetched",
              r.getJsonObject("failed").getString("lambda")));
          return book(other);
        })
        .onComplete(ctx.succeeding(b -> ctx.verify(() -> {
          QuoteBook.Entry lambda = b.vendor("lambda").orElseThrow();
          assertEquals(391, lambda.quotes().quotes().size());
          assertEquals(new Freshness(Freshness.State.STALE, Duration.ofHours(5)), lambda.freshness());
          assertEquals(Set.of("DE"), countries(b, "lambda", "europe-central-1"));
          ctx.completeNow();
        })));
  }

  @Test
  void starts_from_the_latest_snapshot_when_no_vendor_answers(VertxTestContext ctx) {
    VendorDefinition lambda = vendor("lambda.yaml", fake.url("lambda"));
    VendorQuotes snapshot = dev.gpurent.adapter.SkyPilotCatalogAdapter.parse(dev.gpurent.adapter.Payload.of(
        DATA.resolve("skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv"), lambda.config().getString("source")), lambda, Fixtures.CATALOG, START.minus(Duration.ofHours(1)))
        .vendorQuotes().withFetchedAt(START.minus(Duration.ofHours(1)));
    QuoteSettings offline = SETTINGS.withOffline(true);
    other = Vertx.vertx();
    other.deployVerticle(new QuoteVerticle(List.of(lambda), Fixtures.CATALOG, Fixtures.REGIONS, AdapterRegistry.load(), offline, new JsonObject(), clock)
            .seed(Map.of("lambda", snapshot)))
        .compose(id -> book(other))
        .onComplete(ctx.succeeding(b -> ctx.verify(() -> {
          QuoteBook.Entry e = b.vendor("lambda").orElseThrow();
          // a snapshot keeps no countries: the quotes are the snapshot's, each placed again
          assertEquals(snapshot.quotes(), e.quotes().quotes().stream().map(q -> q.withCountry("")).toList());
          assertEquals(Set.of("US"), countries(b, "lambda", "us-east-1"));
          assertEquals(Set.of("JP"), countries(b, "lambda", "asia-northeast-1"));
          assertEquals(new Freshness(Freshness.State.STALE, Duration.ofHours(1)), e.freshness());
          ctx.completeNow();
        })));
  }

  @Test
  void refuses_to_refresh_an_unknown_vendor(Vertx vertx, VertxTestContext ctx) {
    vertx.eventBus().request(Addresses.QUOTES_REFRESH, new JsonObject().put("vendor", "nope"))
        .onComplete(ctx.failing(e -> ctx.verify(() -> {
          assertEquals("{\"error\":\"unknown vendor 'nope'; known: runpod, lambda, vast\"}", e.getMessage());
          ctx.completeNow();
        })));
  }
}
