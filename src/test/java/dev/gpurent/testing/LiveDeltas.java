package dev.gpurent.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The dashboard's way of rebuilding a ranking from a delta, in Java, for the tests that check deltas. */
public final class LiveDeltas {

  private LiveDeltas() {}

  /** live.js's applyDelta: kept plans by vendor from the last ranking, "same" mixed and reference from it, the delta's key order. */
  public static JsonObject apply(JsonObject last, JsonObject delta) {
    Map<String, Object> byVendor = new LinkedHashMap<>();
    last.getJsonArray("plans").forEach(p -> byVendor.put(((JsonObject) p).getString("vendor"), p));
    JsonArray plans = new JsonArray();
    for (Object p : delta.getJsonArray("plans")) plans.add(p instanceof String vendor ? byVendor.get(vendor) : p);
    JsonObject out = delta.copy();
    out.put("plans", plans);
    for (String kept : List.of("mixed", "reference")) {
      if ("same".equals(delta.getValue(kept))) out.put(kept, last.getValue(kept));
    }
    return out;
  }
}
