package dev.gpurent.adapter;

/** The plug-in of kind {@code oci-price-list}: Oracle Cloud's price list API, see {@link OciPriceListAdapter}. */
public final class OciPriceListFactory extends FormatFactory {

  public OciPriceListFactory() {
    super(OciPriceListAdapter.KIND, (payload, def, catalog, at) -> OciPriceListAdapter.parse(payload, def, catalog, at).vendorQuotes());
  }
}
