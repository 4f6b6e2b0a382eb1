package dev.gpurent.adapter;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * The plug-in of kind {@code runpod}: RunPod's GraphQL gpuTypes, see {@link RunPodFormat}. An
 * http source is POSTed the YAML key {@code query} as {@code {"query": ...}}.
 */
public final class RunPodFactory extends FormatFactory {

  public RunPodFactory() {
    super(RunPodFormat.KIND, RunPodFormat::parse);
  }

  @Override
  protected Buffer postBody(VendorDefinition def, boolean http) {
    if (!http) return null;
    String query = def.config().getString("query");
    if (query == null || query.isBlank()) {
      VendorDefinition.fail(def.where(), "query", "is required for an http source: the GraphQL gpuTypes query to POST");
    }
    return new JsonObject().put("query", query).toBuffer();
  }
}
