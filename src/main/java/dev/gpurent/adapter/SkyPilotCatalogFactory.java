package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code skypilot-catalog}: a SkyPilot vms.csv, see {@link SkyPilotCatalogFormat}. */
public final class SkyPilotCatalogFactory extends FormatFactory {

  public SkyPilotCatalogFactory() {
    super(SkyPilotCatalogFormat.KIND, (payload, def, catalog, at) -> SkyPilotCatalogFormat.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    SkyPilotCatalogFormat.check(def, catalog);
  }
}
