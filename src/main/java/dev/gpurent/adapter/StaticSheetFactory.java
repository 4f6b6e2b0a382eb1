package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.time.Clock;

/** The plug-in of kind {@code static}: a price sheet inside the vendor's YAML, see {@link StaticSheetAdapter}. */
public final class StaticSheetFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return StaticSheetAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return StaticSheetAdapter.create(def, catalog, Clock.systemUTC());
  }
}
