package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;

/**
 * The plug-in of kind {@code gcp-billing-catalog}: the paged, keyed Cloud Billing Catalog API, see
 * {@link GcpBillingCatalogAdapter}; the API key is read from the process environment.
 */
public final class GcpBillingCatalogFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return GcpBillingCatalogAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return GcpBillingCatalogAdapter.adapter(vertx, def, catalog, System::getenv);
  }
}
