package dev.gpurent.adapter;

/** The plug-in of kind {@code oci-price-list}: Oracle Cloud's price list API, see {@link OciPriceListFormat}. */
public final class OciPriceListFactory extends FormatFactory {

  public OciPriceListFactory() {
    super(OciPriceListFormat.KIND, (payload, def, catalog, at) -> OciPriceListFormat.parse(payload, def, catalog, at).vendorQuotes());
  }
}
