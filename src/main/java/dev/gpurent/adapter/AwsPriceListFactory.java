package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code aws-price-list}: the AWS Price List offer file, see {@link AwsPriceListFormat}. */
public final class AwsPriceListFactory extends FormatFactory {

  public AwsPriceListFactory() {
    super(AwsPriceListFormat.KIND, AwsPriceListFormat::parse);
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    AwsPriceListFormat.check(def, catalog);
  }
}
