package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;

/** The plug-in of kind {@code aws-price-list}: the AWS Price List offer file, see {@link AwsPriceListAdapter}. */
public final class AwsPriceListFactory extends FormatFactory {

  public AwsPriceListFactory() {
    super(AwsPriceListAdapter.KIND, AwsPriceListAdapter::parse);
  }

  @Override
  protected void check(VendorDefinition def, GpuCatalog catalog) {
    AwsPriceListAdapter.check(def, catalog);
  }
}
