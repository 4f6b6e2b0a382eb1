package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;

/** The plug-in of kind {@code alibaba-ecs}: Alibaba Cloud's signed ECS price API, see {@link AlibabaEcsAdapter}. */
public final class AlibabaEcsFactory implements VendorAdapterFactory {

  @Override
  public String name() {
    return AlibabaEcsAdapter.KIND;
  }

  @Override
  public VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    SecureRandom random = new SecureRandom();
    return AlibabaEcsAdapter.adapter(vertx, def, catalog, System::getenv, Clock.systemUTC(), () -> {
      byte[] b = new byte[16];
      random.nextBytes(b);
      return HexFormat.of().formatHex(b);
    });
  }
}
