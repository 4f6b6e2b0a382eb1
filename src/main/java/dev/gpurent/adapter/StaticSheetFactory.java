package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.time.Clock;

/** The plug-in of kind {@code static}: a price sheet inside the vendor's YAML, see {@link StaticSheetFormat}. */
public final class StaticSheetFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return StaticSheetFormat.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return StaticSheetFormat.create(def, catalog, Clock.systemUTC());
  }
}
