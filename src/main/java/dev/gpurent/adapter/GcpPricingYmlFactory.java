package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code gcp-pricing-yml}: Cyclenerd's pricing.yml, see {@link GcpPricingYmlFormat}. */
public final class GcpPricingYmlFactory extends FormatFactory {

  public GcpPricingYmlFactory() {
    super(GcpPricingYmlFormat.KIND, (payload, def, catalog, at) -> GcpPricingYmlFormat.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    GcpPricingYmlFormat.check(def);
  }
}
