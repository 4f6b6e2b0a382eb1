package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.function.Function;

/**
 * The plug-in of a signed price API: its kind, and its adapter made with the process environment
 * (where the key pair is) and the system clock (which signs the requests). Tests make the adapters
 * with their own of each.
 */
abstract class SignedCloudFactory extends NamedFactory {

  /** Makes one vendor's adapter. */
  @FunctionalInterface
  interface Maker {
    VendorAdapter make(Vertx vertx, VendorDefinition def, GpuCatalog catalog, Function<String, String> env, Clock clock);
  }

  private final Maker maker;

  SignedCloudFactory(String name, Maker maker) {
    super(name);
    this.maker = maker;
  }

  @Override
  public final VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    return maker.make(vertx, def, catalog, System::getenv, Clock.systemUTC());
  }
}
