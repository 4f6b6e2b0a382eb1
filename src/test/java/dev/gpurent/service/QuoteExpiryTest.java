package dev.gpurent.service;

import dev.gpurent.service.quotes.QuoteVerticle;

import static dev.gpurent.text.Localizer.en;
import static dev.gpurent.text.Localizer.ens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.MutableClock;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.adapter.StaticSheetAdapter;
import dev.gpurent.adapter.VendorAdapter;
import dev.gpurent.adapter.VendorAdapterFactory;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.config.YamlFiles;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quote sheet's valid-until dates in the pipeline: offers past theirs are withdrawn (not counted
 * as a broken payload), and a sheet past all of them leaves the ranking with that reason, even
 * though its last good quotes are still in the cache. Time moves with an injected clock.
 */
@ExtendWith(VertxExtension.class)
class QuoteExpiryTest {

  static final Instant START = Instant.parse("2026-03-01T08:00:00Z");
  static final QuoteSettings SETTINGS = new QuoteSettings(Duration.ofDays(30), 5, Duration.ofSeconds(1), Duration.ofHours(1), "",
      false, Duration.ofHours(12), "");

  /** Kind static, telling expired offers by the test's clock. */
  static AdapterRegistry registry(MutableClock clock) {
    return new AdapterRegistry(List.of(new VendorAdapterFactory() {
      @Override
      public String name() {
        return "static";
      }

      @Override
      public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
        return StaticSheetAdapter.create(def, catalog, clock);
      }
    }));
  }

  /** The guide's 5.1 quote with its own valid-until per offer. */
  static VendorDefinition sheet(Path dir, String... validUntil) throws Exception {
    StringBuilder y = new StringBuilder("""
        vendor: acme
        name: Acme Cloud
        kind: static
        currency: CNY
        terms: {storagePerGbMonth: 0.1, egressPerGb: 0.8, ingressPerGb: unknown, loadBalancerPerMonth: 200,
                migrationInPerGb: 0.3, migrationOutPerGb: none, bandwidthMbps: 1000}
        offers:
        """);
    String[][] offers = {{"rtx-4090", "monthly: 1500/month"}, {"a100-40g-sxm", "on-demand: 12/hour"},
        {"l40s", "on-demand: 8/hour"}, {"a10", "on-demand: 4.5/hour"}};
    for (int i = 0; i < validUntil.length; i++) {
      y.append("  - {gpu: ").append(offers[i][0]).append(", region: cn, country: CN, prices: {").append(offers[i][1])
          .append("}, validUntil: \"").append(validUntil[i]).append("\"}\n");
    }
    Path f = dir.resolve("acme.yaml");
    Files.writeString(f, y);
    return VendorDefinition.load(f);
  }

  static Future<JsonObject> refresh(Vertx vertx) {
    return vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject()).map(m -> m.body());
  }

  static Future<QuoteBook> book(Vertx vertx) {
    return vertx.eventBus().<QuoteBook>request(Addresses.QUOTES_BOOK, null).map(m -> m.body());
  }

  static Future<JsonObject> status(Vertx vertx) {
    return vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null).map(m -> m.body().getJsonObject(0));
  }

  @SuppressWarnings("unchecked")
  static Scenario guideTemplate() {
    return new ScenarioReader(Fixtures.CATALOG).read((Map<String, Object>) YamlFiles.load(Path.of("config/scenarios/guide-template.yaml")));
  }

  @Test
  void ranks_a_sheet_until_it_expires_then_lists_it_unranked_with_the_reason(Vertx vertx, VertxTestContext ctx, @TempDir Path dir)
      throws Exception {
    MutableClock clock = new MutableClock(START);
    VendorDefinition acme = sheet(dir, "2026-03-10", "2026-03-10");
    vertx.deployVerticle(new QuoteVerticle(List.of(acme), Fixtures.CATALOG, Fixtures.REGIONS, registry(clock), SETTINGS, new JsonObject(), clock))
        .compose(id -> refresh(vertx)).compose(r -> book(vertx))
        .compose(b -> {
          ctx.verify(() -> {
            Ranking before = new CostModel(Fixtures.CATALOG, Fixtures.RULES).rank(guideTemplate(), b);
            assertEquals("acme", before.plans().get(0).vendor());
            assertEquals("5000.00", before.plans().get(0).monthlyTotal().amount().toPlainString());
          });
          clock.advance(Duration.ofDays(10));  // 2026-03-11: the day after valid-until
          return refresh(vertx);
        })
        .compose(r -> {
          ctx.verify(() -> assertEquals("quote expired on 2026-03-11 (valid until 2026-03-10)",
              r.getJsonObject("failed").getString("acme")));
          return book(vertx);
        })
        .compose(b -> {
          ctx.verify(() -> {
            assertTrue(b.vendor("acme").isEmpty(), "its last good quotes are dropped, not ranked stale");
            Ranking after = new CostModel(Fixtures.CATALOG, Fixtures.RULES).rank(guideTemplate(), b);
            assertTrue(after.plans().isEmpty());
            assertEquals("acme", after.unavailable().get(0).vendor());
            assertEquals("quote expired on 2026-03-11 (valid until 2026-03-10)", en(after.unavailable().get(0).reason()));
          });
          return status(vertx);
        })
        .onComplete(ctx.succeeding(s -> ctx.verify(() -> {
          assertEquals("expired", s.getString("freshness"));
          assertEquals(0, s.getInteger("quotes"));
          ctx.completeNow();
        })));
  }

  @Test
  void withdraws_expired_offers_without_refusing_the_rest_as_half_gone(Vertx vertx, VertxTestContext ctx, @TempDir Path dir)
      throws Exception {
    MutableClock clock = new MutableClock(START);
    VendorDefinition acme = sheet(dir, "2026-03-05", "2026-03-05", "2026-03-05", "2026-04-30");
    vertx.deployVerticle(new QuoteVerticle(List.of(acme), Fixtures.CATALOG, Fixtures.REGIONS, registry(clock), SETTINGS, new JsonObject(), clock))
        .compose(id -> refresh(vertx)).compose(r -> book(vertx))
        .compose(b -> {
          ctx.verify(() -> assertEquals(4, b.vendor("acme").orElseThrow().quotes().quotes().size()));
          clock.advance(Duration.ofDays(5));  // 2026-03-06: three of four offers past their date
          return refresh(vertx);
        })
        .compose(r -> {
          ctx.verify(() -> assertEquals(new JsonArray().add("acme"), r.getJsonArray("refreshed"), r.encode()));
          return book(vertx);
        })
        .onComplete(ctx.succeeding(b -> ctx.verify(() -> {
          var q = b.vendor("acme").orElseThrow().quotes();
          assertEquals(List.of("a10"), q.quotes().stream().map(x -> x.gpuId()).toList());
          assertEquals("CN", q.quotes().get(0).country());
          assertEquals(List.of("offers[0] rtx-4090 monthly: quote expired on 2026-03-06 (valid until 2026-03-05)",
              "offers[1] a100-40g-sxm on-demand: quote expired on 2026-03-06 (valid until 2026-03-05)",
              "offers[2] l40s on-demand: quote expired on 2026-03-06 (valid until 2026-03-05)"), q.rejected());
          ctx.completeNow();
        })));
  }
}
