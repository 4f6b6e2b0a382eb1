package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code market-observations}: one provider's rows of the observations CSV, see {@link MarketObservationsFormat}. */
public final class MarketObservationsFactory extends FormatFactory {

  public MarketObservationsFactory() {
    super(MarketObservationsFormat.KIND,
        (payload, def, catalog, at) -> MarketObservationsFormat.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    MarketObservationsFormat.check(def);
  }
}
