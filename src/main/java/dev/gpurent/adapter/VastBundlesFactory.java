package dev.gpurent.adapter;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * The plug-in of kind {@code vast-bundles}: Vast.ai's search-offers API, see
 * {@link VastBundlesFormat}. An http source is POSTed the YAML key {@code query}, the search body.
 */
public final class VastBundlesFactory extends FormatFactory {

  public VastBundlesFactory() {
    super(VastBundlesFormat.KIND, (payload, def, catalog, at) -> VastBundlesFormat.parse(payload, def, catalog, at).vendorQuotes());
  }

  @Override
  protected Buffer postBody(VendorDefinition def, boolean http) {
    Object query = def.config().getValue("query");
    if (query != null && !(query instanceof JsonObject)) VendorDefinition.fail(def.where(), "query", "must be a map (the JSON search body)");
    if (http && query == null) VendorDefinition.fail(def.where(), "query", "is required for an http source: the search body to POST");
    return query == null ? null : ((JsonObject) query).toBuffer();
  }
}
