package dev.gpurent.adapter;

import dev.gpurent.catalog.GpuCatalog;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

/**
 * The factory of a kind that reads one payload per fetch: its adapter downloads the vendor's
 * {@code source} and parses it with the kind's {@link PayloadFormat} on a worker
 * ({@link FetchAndParse}). A kind's factory gives its name and format and, where it has them,
 * checks its own YAML keys and says what to POST.
 */
public abstract class FormatFactory extends NamedFactory {

  private final PayloadFormat format;

  protected FormatFactory(String name, PayloadFormat format) {
    super(name);
    this.format = format;
  }

  @Override
  public final VendorAdapter create(Vertx vertx, VendorDefinition def, GpuCatalog catalog) {
    check(def, catalog);
    PayloadSource source = PayloadSource.of(vertx, def);
    return new FetchAndParse(vertx, source, postBody(def, source.isHttp()), format, def, catalog);
  }

  /** Fails fast (IllegalArgumentException naming the key) on this kind's own YAML keys; none by default. */
  protected void check(VendorDefinition def, GpuCatalog catalog) {}

  /**
   * What to POST to an http source, or null to GET it (the default); fails fast when the YAML
   * lacks it. A file source is read as it is.
   */
  protected Buffer postBody(VendorDefinition def, boolean http) {
    return null;
  }
}
