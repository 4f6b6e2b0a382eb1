package dev.gpurent.adapter;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One row of an OpenComputePrices file, its cells read by column name (the 31 columns of the
 * feed's schema.py; see {@code ../shared/data/opencomputeprices/SCHEMA.md}), and its
 * {@code raw_extra} JSON decoded once.
 *
 * @param line  the row's line in its file (header = 1)
 * @param cells the cells as written
 * @param col   column name -> index, from the header
 */
record FeedRow(int line, List<String> cells, Map<String, Integer> col, JsonObject extra) {

  /** The columns a row is read by; a header without one of them is no OpenComputePrices file. */
  static final List<String> COLUMNS = List.of("snapshot_date", "snapshot_ts", "source", "provider", "instance_type",
      "gpu_name", "gpu_variant", "gpu_memory_gb", "gpu_count", "vcpus", "ram_gb", "region", "os", "pricing_type",
      "commitment_period", "price_per_hour", "price_unit", "available", "raw_extra");

  static FeedRow of(int line, List<String> cells, Map<String, Integer> col) {
    Integer i = col.get("raw_extra");
    String raw = i == null || i >= cells.size() ? "" : cells.get(i).trim();
    JsonObject extra;
    try {
      extra = raw.startsWith("{") ? new JsonObject(raw) : new JsonObject();
    } catch (DecodeException e) {
      extra = new JsonObject();
    }
    return new FeedRow(line, cells, col, extra);
  }

  /** A cell, trimmed; "" for a column the header lacks or a short row. */
  String get(String column) {
    Integer i = col.get(column);
    return i == null || i >= cells.size() ? "" : cells.get(i).trim();
  }

  /** The provider, lower case, a getdeploying "sponsored" listing read as its provider's own. */
  String provider() {
    String p = get("provider").toLowerCase(Locale.ROOT);
    return p.endsWith(SPONSORED) ? p.substring(0, p.length() - SPONSORED.length()) : p;
  }

  static final String SPONSORED = "_sponsored";

  /** How a refused row is named: its line, provider and offer. */
  String where() {
    return "line " + line + " (" + get("provider") + " " + get("instance_type") + (get("region").isEmpty() ? "" : " " + get("region")) + ")";
  }

  /** A raw_extra value as text, "" when absent. */
  String extra(String key) {
    Object v = extra.getValue(key);
    return v == null ? "" : v.toString();
  }
}
