package dev.gpurent.service.quotes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.Fixtures;
import dev.gpurent.adapter.VendorDefinition;
import dev.gpurent.cluster.Leases;
import dev.gpurent.quote.QuoteJson;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.service.Addresses;
import dev.gpurent.service.QuoteSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Quotes another node fetched under its lease are installed here unless this node holds the lease,
 * as the cluster says, not as this node last believed: a node whose lease was taken while it
 * thought it still held it (a pause past its time, a hand-over as members join) must take the new
 * holder's quotes, or it ranks on its old ones until its next fetch.
 */
class QuoteSharingTest {

  private static final VendorQuotes QUOTES = Fixtures.sheet(Path.of("src/test/resources/sheets/infer-cloud.yaml"));

  /** This node's belief and the cluster's answer about one vendor's lease. */
  private record FakeLeases(boolean believed, boolean confirmed) implements Leases {
    @Override
    public Future<Void> start(Context context, Collection<String> vendors, Consumer<String> gained) {
      return Future.succeededFuture();
    }

    @Override
    public boolean held(String vendor) {
      return believed;
    }

    @Override
    public Future<Boolean> confirm(String vendor) {
      return Future.succeededFuture(believed && confirmed);
    }

    @Override
    public boolean clustered() {
      return true;
    }

    @Override
    public String node() {
      return "here";
    }

    @Override
    public Future<Void> release() {
      return Future.succeededFuture();
    }
  }

  @Test
  void the_new_holders_quotes_are_installed_where_the_lease_was_only_believed_held() throws Exception {
    assertEquals(1, installed(new FakeLeases(true, false), "there", true), "believed held, taken by another node: installed");
    assertEquals(1, installed(new FakeLeases(false, false), "there", true), "not held: installed");
    assertEquals(0, installed(new FakeLeases(true, true), "there", false), "held, as the cluster says: this node's own fetch counts");
    assertEquals(0, installed(new FakeLeases(false, false), "here", false), "its own publication: not installed again");
  }

  /**
   * How many times quotes published by node {@code from} are installed on a node with {@code leases}:
   * waited for up to a minute when {@code expected} (a busy machine decodes slowly), else given a second.
   */
  private static int installed(Leases leases, String from, boolean expected) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      VendorDefinition def = VendorDefinition.load(Path.of("adapters/lambda.yaml"));
      VendorState v = new VendorState(vertx, def, null, QuoteSettings.from(new JsonObject()));
      List<VendorQuotes> got = new CopyOnWriteArrayList<>();
      QuoteSharing sharing = new QuoteSharing(vertx, leases, Map.of(def.vendor(), v), id -> null, (s, q) -> q, (s, q) -> got.add(q));
      sharing.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.eventBus().publish(Addresses.QUOTES_FETCHED, QuoteJson.toJson(QUOTES).encode(),
          new DeliveryOptions().addHeader(Addresses.VENDOR_HEADER, def.vendor()).addHeader(Addresses.NODE_HEADER, from));
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(expected ? 60 : 1);
      while ((got.isEmpty() || !expected) && System.nanoTime() < until) Thread.sleep(20);
      Thread.sleep(100);  // a second installation would show by now
      if (!got.isEmpty()) assertEquals(QUOTES.quotes().size(), got.get(0).quotes().size(), "the published quotes");
      return got.size();
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
