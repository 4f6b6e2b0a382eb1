package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;

/** The plug-in of kind {@code azure-retail}: the paged Azure Retail Prices API, see {@link AzureRetailAdapter}. */
public final class AzureRetailFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return AzureRetailAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return new AzureRetailAdapter(vertx, def, catalog);
  }
}
