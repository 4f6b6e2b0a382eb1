package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code gcp-pricing-yml}: Cyclenerd's pricing.yml, see {@link GcpPricingYmlAdapter}. */
public final class GcpPricingYmlFactory extends FormatFactory {

  public GcpPricingYmlFactory() {
    super(GcpPricingYmlAdapter.KIND, (payload, def, catalog, at) -> GcpPricingYmlAdapter.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    GcpPricingYmlAdapter.check(def);
  }
}
