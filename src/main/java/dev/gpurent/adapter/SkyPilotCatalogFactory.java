package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code skypilot-catalog}: a SkyPilot vms.csv, see {@link SkyPilotCatalogAdapter}. */
public final class SkyPilotCatalogFactory extends FormatFactory {

  public SkyPilotCatalogFactory() {
    super(SkyPilotCatalogAdapter.KIND, (payload, def, catalog, at) -> SkyPilotCatalogAdapter.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    SkyPilotCatalogAdapter.check(def, catalog);
  }
}
