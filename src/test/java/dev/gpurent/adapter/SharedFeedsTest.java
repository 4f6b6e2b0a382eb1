package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The vendors of one multi-provider file refreshed at once (as a refresh of all, or start-up, runs
 * them: on the quote pipeline's event loop, before any fetch has ended) fetch and read it once, and
 * each gets the quotes it got when it read the whole file alone.
 */
@ExtendWith(VertxExtension.class)
class SharedFeedsTest {

  static final Path OBSERVATIONS = MarketObservationsFormatTest.SAMPLE;
  static final Path GETDEPLOYING = Path.of("../shared/data/opencomputeprices/2026-03-22/getdeploying.csv");
  static final List<String> GETDEPLOYING_VENDORS = List.of("beyondpl", "breezehost", "cerebrium", "cirrascale");

  static GpuCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = GpuCatalog.load(Path.of("config/gpus.yaml"));
  }

  /** A server of one file that counts the requests it answers. */
  static Future<HttpServer> serve(Vertx vertx, Path file, AtomicInteger requests) throws Exception {
    Buffer body = Buffer.buffer(Files.readAllBytes(file));
    return vertx.createHttpServer().requestHandler(req -> {
      requests.incrementAndGet();
      req.response().end(body);
    }).listen(0, "127.0.0.1");
  }

  /** Every adapter's fetch started in one turn of one event loop, as the quote pipeline starts a refresh of all. */
  static Future<List<VendorQuotes>> fetchAtOnce(Vertx vertx, List<VendorAdapter> adapters) {
    Promise<List<VendorQuotes>> all = Promise.promise();
    vertx.getOrCreateContext().runOnContext(x -> {
      List<Future<VendorQuotes>> each = new ArrayList<>();
      for (VendorAdapter a : adapters) each.add(a.fetch());
      Future.all(each).map(f -> f.<VendorQuotes>list()).onComplete(all);
    });
    return all.future();
  }

  /** What a vendor's own read of the whole file gives; its quotes' fetch times aside. */
  static void sameAsAlone(VendorQuotes alone, VendorQuotes shared) {
    assertTrue(alone.samePrices(shared), alone.vendor() + ": the shared read differs from the vendor's own");
    assertEquals(alone.quotes().stream().map(q -> q.source()).toList(), shared.quotes().stream().map(q -> q.source()).toList());
  }

  @Test
  void ten_observation_vendors_refreshed_at_once_fetch_the_file_once(Vertx vertx, VertxTestContext ctx) throws Exception {
    AtomicInteger requests = new AtomicInteger();
    MarketObservationsFactory factory = new MarketObservationsFactory();
    List<String> vendors = List.copyOf(MarketObservationsFormatTest.SHIPPED.keySet());
    serve(vertx, OBSERVATIONS, requests).compose(server -> {
      String url = "http://127.0.0.1:" + server.actualPort() + "/data/observations.csv";
      List<VendorDefinition> defs = vendors.stream().map(v -> MarketObservationsFormatTest.def(v, "source", url)).toList();
      List<VendorAdapter> adapters = defs.stream().map(d -> factory.create(vertx, d, catalog)).toList();
      return fetchAtOnce(vertx, adapters).compose(first -> {
        ctx.verify(() -> {
          assertEquals(1, requests.get(), "10 vendors of one URL refreshed at once: one download");
          for (int i = 0; i < defs.size(); i++) {
            VendorQuotes alone = MarketObservationsFormat.parse(Payload.of(OBSERVATIONS, url), defs.get(i), catalog, Instant.now()).vendorQuotes();
            assertEquals(MarketObservationsFormatTest.SHIPPED.get(vendors.get(i)), first.get(i).quotes().size(), vendors.get(i));
            sameAsAlone(alone, first.get(i));
          }
        });
        // nothing is kept: the next refresh fetches again
        return fetchAtOnce(vertx, adapters);
      });
    }).onComplete(ctx.succeeding(second -> ctx.verify(() -> {
      assertEquals(2, requests.get(), "a refresh after the last one ended downloads the file again");
      ctx.completeNow();
    })));
  }

  @Test
  void getdeploying_vendors_refreshed_at_once_fetch_the_file_once(Vertx vertx, VertxTestContext ctx) throws Exception {
    AtomicInteger requests = new AtomicInteger();
    OpenComputePricesFactory factory = new OpenComputePricesFactory();
    serve(vertx, GETDEPLOYING, requests).compose(server -> {
      String url = "http://127.0.0.1:" + server.actualPort() + "/data/getdeploying.csv";
      List<VendorDefinition> defs = GETDEPLOYING_VENDORS.stream().map(v -> OpenComputePricesFormatTest.def(v, "source", url)).toList();
      return fetchAtOnce(vertx, defs.stream().map(d -> factory.create(vertx, d, catalog)).toList()).map(got -> {
        ctx.verify(() -> {
          assertEquals(1, requests.get(), GETDEPLOYING_VENDORS.size() + " vendors of one URL refreshed at once: one download");
          for (int i = 0; i < defs.size(); i++) {
            VendorQuotes alone = OpenComputePricesFormat.parse(Payload.of(GETDEPLOYING, url), defs.get(i), catalog, Instant.now()).vendorQuotes();
            assertFalse(alone.quotes().isEmpty(), GETDEPLOYING_VENDORS.get(i) + " has offers in the recorded file");
            sameAsAlone(alone, got.get(i));
          }
        });
        return got;
      });
    }).onComplete(ctx.succeeding(x -> ctx.completeNow()));
  }

  @Test
  void vendors_of_different_files_fetch_each_their_own(Vertx vertx, VertxTestContext ctx) throws Exception {
    AtomicInteger a = new AtomicInteger();
    AtomicInteger b = new AtomicInteger();
    MarketObservationsFactory factory = new MarketObservationsFactory();
    Future.all(serve(vertx, OBSERVATIONS, a), serve(vertx, OBSERVATIONS, b)).compose(s -> {
      List<VendorAdapter> adapters = new ArrayList<>();
      int i = 0;
      for (String v : List.of("crusoe", "civo", "nebius", "koyeb")) {
        HttpServer server = s.resultAt(i++ % 2);
        adapters.add(factory.create(vertx, MarketObservationsFormatTest.def(v, "source", "http://127.0.0.1:" + server.actualPort() + "/o.csv"), catalog));
      }
      return fetchAtOnce(vertx, adapters);
    }).onComplete(ctx.succeeding(got -> ctx.verify(() -> {
      assertEquals(1, a.get());
      assertEquals(1, b.get());
      assertEquals(List.of(6, 3, 4, 5), got.stream().map(q -> q.quotes().size()).toList());
      ctx.completeNow();
    })));
  }
}
