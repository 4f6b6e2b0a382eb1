package dev.gpurent.service;
import dev.gpurent.testing.FakeVendorServer;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.quotes.QuoteVerticle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Fixtures;
import dev.gpurent.MutableClock;
import dev.gpurent.adapter.AdapterRegistry;
import dev.gpurent.cluster.Leases;
import dev.gpurent.quote.QuoteBook;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The quote pipeline as one node of a cluster, with the leases stood in for: it fetches only the
 * vendors whose lease it holds and publishes what it fetched (unless the lease turned out lost),
 * and installs the quotes other nodes publish for the vendors it does not hold.
 */
class QuoteLeasesTest {

  /** Leases as a test sets them: held vendors, and what the cluster answers when asked. */
  static final class StandIn implements Leases {
    final Set<String> held = ConcurrentHashMap.newKeySet();
    volatile boolean confirmed = true;

    @Override
    public Future<Void> start(Context context, Collection<String> vendors, Consumer<String> gained) {
      return Future.succeededFuture();
    }

    @Override
    public boolean held(String vendor) {
      return held.contains(vendor);
    }

    @Override
    public Future<Boolean> confirm(String vendor) {
      return Future.succeededFuture(confirmed && held.contains(vendor));
    }

    @Override
    public boolean clustered() {
      return true;
    }

    @Override
    public String node() {
      return "node-b";
    }

    @Override
    public Future<Void> release() {
      return Future.succeededFuture();
    }
  }

  Vertx vertx = Vertx.vertx();
  FakeVendorServer fake;

  @AfterEach
  void close() throws Exception {
    ServiceFixtures.await(vertx.close());
  }

  @Test
  void fetches_what_it_holds_shares_it_and_installs_what_others_fetched() throws Exception {
    fake = new FakeVendorServer(vertx)
        .serve("runpod", QuoteVerticleTest.DATA.resolve("runpod/gpuTypes/jumbo2020-gpu_prices.2025-06-21T23-18Z.json"))
        .serve("vast", QuoteVerticleTest.DATA.resolve("skypilot-catalog-format/anycloud-sh/vast/vms.gpu.csv"));
    ServiceFixtures.await(fake.start());
    List<Message<String>> published = new CopyOnWriteArrayList<>();
    vertx.eventBus().<String>consumer(Addresses.QUOTES_FETCHED, published::add);
    StandIn leases = new StandIn();
    leases.held.add("vast");
    QuoteVerticle quotes = new QuoteVerticle(List.of(patient("runpod.yaml", fake.url("runpod")), patient("vast.yaml", fake.url("vast"))), Fixtures.CATALOG, Fixtures.REGIONS, AdapterRegistry.load(),
        QuoteVerticleTest.SETTINGS, new JsonObject().put("source", QuoteVerticleTest.DATA.resolve("ecb/eurofxref-daily.2025-05-09.xml")
            .toString()), new MutableClock(QuoteVerticleTest.START)).clustered(leases);
    ServiceFixtures.await(vertx.deployVerticle(quotes));
    JsonObject outcome = ServiceFixtures.await(QuoteVerticleTest.refresh(vertx));
    assertEquals(new JsonArray().add("vast"), outcome.getJsonArray("refreshed"), outcome.encode());
    assertEquals("fetched by another node of the cluster (it holds the lease)", outcome.getJsonObject("failed").getString("runpod"));
    assertEquals(0, fake.hits("runpod"), "a vendor another node holds is never fetched here");
    assertTrue(fake.hits("vast") >= 1);

    // what it fetched went out, named by vendor and node
    until(() -> !published.isEmpty());
    Message<String> shared = published.get(0);
    assertEquals("vast", shared.headers().get(Addresses.VENDOR_HEADER));
    assertEquals("node-b", shared.headers().get(Addresses.NODE_HEADER));
    JsonObject vast = new JsonObject(shared.body());
    int fetched = vast.getJsonArray("quotes").size();
    assertEquals(fetched, book().vendor("vast").orElseThrow().quotes().quotes().size());

    // a lease found lost at publishing time: nothing goes out
    leases.confirmed = false;
    int before = published.size();
    ServiceFixtures.await(vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject().put("vendor", "vast")));
    // the lease judged lost was decided before that refresh answered; one confirmed refresh after it publishes once
    leases.confirmed = true;
    ServiceFixtures.await(vertx.eventBus().<JsonObject>request(Addresses.QUOTES_REFRESH, new JsonObject().put("vendor", "vast")));
    until(() -> published.size() > before);
    assertEquals(before + 1, published.size(), "a holder that lost its lease published over its successor");

    // another node now holds vast and publishes fewer quotes: installed here as if fetched
    leases.held.remove("vast");
    JsonObject fewer = vast.copy().put("quotes", new JsonArray(vast.getJsonArray("quotes").getList().subList(0, 5)));
    vertx.eventBus().publish(Addresses.QUOTES_FETCHED, fewer.encode(), new DeliveryOptions()
        .addHeader(Addresses.VENDOR_HEADER, "vast").addHeader(Addresses.NODE_HEADER, "node-a"));
    until(() -> book().vendor("vast").map(e -> e.quotes().quotes().size() == 5).orElse(false));
    assertEquals("fresh", book().vendor("vast").orElseThrow().freshness().state().name().toLowerCase());
    assertFalse(book().vendor("runpod").isPresent(), "runpod: nobody published it yet");
  }

  /** A vendor as QuoteVerticleTest reads it, with time enough to parse on a busy machine. */
  static dev.gpurent.adapter.VendorDefinition patient(String yaml, String url) {
    dev.gpurent.adapter.VendorDefinition d = QuoteVerticleTest.vendor(yaml, url);
    return dev.gpurent.adapter.VendorDefinition.from(d.config().copy().put("timeout", "20s"), d.where());
  }

  private QuoteBook book() {
    try {
      return ServiceFixtures.await(QuoteVerticleTest.book(vertx));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void until(java.util.function.BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("not within 10 s");
      Thread.sleep(50);
    }
  }

}
