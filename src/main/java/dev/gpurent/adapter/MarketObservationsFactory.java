package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;

/**
 * The plug-in of kind {@code market-observations}: one provider's rows of the observations CSV, see
 * {@link MarketObservationsFormat}. Every vendor of the file is one provider of it: the vendors
 * refreshed at once fetch and read it once ({@link SharedFeeds}).
 */
public final class MarketObservationsFactory extends NamedFactory {

  private final SharedFeeds feeds = new SharedFeeds(MarketObservationsFormat::feed);

  public MarketObservationsFactory() {
    super(MarketObservationsFormat.KIND);
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    MarketObservationsFormat.check(def);
    PayloadSource source = PayloadSource.of(vertx, def);
    return () -> feeds.read(vertx, source, (feed, at) -> MarketObservationsFormat.slice(feed, source.describe(), def, catalog, at).vendorQuotes());
  }
}
