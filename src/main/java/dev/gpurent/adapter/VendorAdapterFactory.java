package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;

/**
 * The adapter plug-in SPI, after vertx-config's ConfigStoreFactory: one factory per price
 * format, found by {@link java.util.ServiceLoader} through
 * {@code META-INF/services/dev.gpurent.adapter.VendorAdapterFactory}. A format read from one
 * payload per fetch is a pure {@link PayloadFormat} and a {@link FormatFactory} of a few lines;
 * only paged or signed live APIs write their own {@link VendorAdapter}.
 */
public interface VendorAdapterFactory {

  /** The {@code kind:} a vendor YAML names to use this format: short and lowercase. */
  String name();

  /**
   * Builds the adapter for one vendor. Fails fast (IllegalArgumentException naming the field)
   * when the vendor's YAML lacks something this format needs; performs no I/O.
   */
  VendorAdapter create(Vertx vertx, VendorDefinition definition, GpuCatalog catalog);
}
