package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.time.Clock;

/** The plug-in of kind {@code tencent-cvm}: Tencent Cloud's signed CVM price API, see {@link TencentCvmAdapter}. */
public final class TencentCvmFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return TencentCvmAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return TencentCvmAdapter.adapter(vertx, def, catalog, System::getenv, Clock.systemUTC());
  }
}
