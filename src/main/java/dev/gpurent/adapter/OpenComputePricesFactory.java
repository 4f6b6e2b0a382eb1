package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.VendorQuotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * The plug-in of kind {@code opencomputeprices} ({@link OpenComputePricesFormat}). With a
 * {@code crossCheck: {source, provider, tolerance}} key it also reads the provider's rows in a
 * second file of the feed (getdeploying's listing of a provider that has its own file) and reports
 * the offers on which the two disagree ({@link FeedCrossCheck}); without one it reads one file. A
 * file the vendors refreshed at once read is fetched and read once ({@link SharedFeeds}).
 */
public final class OpenComputePricesFactory implements VendorAdapterFactory {

  /** The feed's files are each read by several vendors (getdeploying.csv by eighteen): one fetch for those refreshed at once. */
  private final SharedFeeds feeds = new SharedFeeds(OpenComputePricesFormat::feed);

  @Override
  public String name() {
    return OpenComputePricesFormat.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    OpenComputePricesFormat.check(def);
    PayloadSource own = PayloadSource.of(vertx, def);
    JsonObject cc = def.config().getJsonObject("crossCheck");
    if (cc == null) {
      return () -> feeds.read(vertx, own, (feed, at) -> OpenComputePricesFormat.slice(feed, own.describe(), def, catalog, at).vendorQuotes());
    }
    VendorDefinition other = crossCheck(def, cc);
    PayloadSource second = PayloadSource.of(vertx, other);
    double tolerance = cc.getDouble("tolerance", FeedCrossCheck.TOLERANCE);
    return () -> {
      Instant at = Instant.now();
      Future<VendorQuotes> mine = feeds.read(vertx, own, (feed, x) -> OpenComputePricesFormat.slice(feed, own.describe(), def, catalog, at).vendorQuotes());
      return mine.compose(vq -> feeds.read(vertx, second,
          (feed, x) -> FeedCrossCheck.judge(vq, OpenComputePricesFormat.slice(feed, second.describe(), other, catalog, at).quotes(), second.describe(), tolerance)));
    };
  }

  /** The second file as a definition of its own: this vendor's, with the cross-check's source, provider and memory. */
  static VendorDefinition crossCheck(VendorDefinition def, JsonObject cc) {
    JsonObject c = def.config().copy();
    c.remove("crossCheck");
    c.remove("cards");
    for (String k : new String[] {"source", "provider", "memory"}) {
      Object v = cc.getValue(k);
      if (v != null) c.put(k, v);
      else if (!k.equals("memory")) VendorDefinition.fail(def.where(), "crossCheck." + k, "is required");
      else c.remove(k);
    }
    double t = cc.getDouble("tolerance", FeedCrossCheck.TOLERANCE);
    if (!(t >= 0 && t < 10)) VendorDefinition.fail(def.where(), "crossCheck.tolerance", "must be a share between 0 and 10, got " + t);
    VendorDefinition other = VendorDefinition.from(c, def.where());
    OpenComputePricesFormat.check(other);
    return other;
  }
}
