package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.time.Clock;

/** The plug-in of kind {@code ucloud-uhost}: UCloud's signed UHost price API, see {@link UcloudUhostAdapter}. */
public final class UcloudUhostFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return UcloudUhostAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return UcloudUhostAdapter.adapter(vertx, def, catalog, System::getenv, Clock.systemUTC());
  }
}
