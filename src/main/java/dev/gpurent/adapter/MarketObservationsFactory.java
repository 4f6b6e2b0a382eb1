package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code market-observations}: one provider's rows of the observations CSV, see {@link MarketObservationsAdapter}. */
public final class MarketObservationsFactory extends FormatFactory {

  public MarketObservationsFactory() {
    super(MarketObservationsAdapter.KIND,
        (payload, def, catalog, at) -> MarketObservationsAdapter.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    MarketObservationsAdapter.check(def);
  }
}
