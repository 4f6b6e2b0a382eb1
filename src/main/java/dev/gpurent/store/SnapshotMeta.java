package dev.gpurent.store;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * What a snapshot is, without its quotes.
 *
 * @param id         store-assigned id, increasing, never reused
 * @param slot       the schedule slot it fills ("2026-03-01", "manual-...", "market-...")
 * @param kind       {@link #SCHEDULED}, {@link #MANUAL} or {@link #IMPORT}, from the slot
 * @param takenAt    when the quotes were read
 * @param quoteCount quote rows written with it
 * @param fx         the FX rates in force: base, asOf, source, rates (units per base)
 * @param vendors    each vendor's status then: name, freshness, fetch time, counts, terms; or why unavailable
 */
public record SnapshotMeta(long id, String slot, String kind, Instant takenAt, int quoteCount, JsonObject fx, JsonArray vendors) {

  public static final String SCHEDULED = "scheduled";
  public static final String MANUAL = "manual";
  public static final String IMPORT = "import";

  /** The kind a slot name implies: {@code manual-*} manual, {@code market-*} imported history, else scheduled. */
  public static String kindOf(String slot) {
    if (slot.startsWith("manual-")) return MANUAL;
    if (slot.startsWith("market-")) return IMPORT;
    return SCHEDULED;
  }

  /** Refuses a slot that is not 1 to 100 letters, digits or {@code . _ : + -} (starting with a letter or digit). */
  public static void checkSlot(String slot) {
    if (slot == null || !slot.matches("[A-Za-z0-9][A-Za-z0-9._:+-]{0,99}")) {
      throw new IllegalArgumentException("slot: 1 to 100 letters, digits or . _ : + - (e.g. 2026-03-01), got '" + slot + "'");
    }
  }

  public JsonObject toJson() {
    return brief().put("fx", fx).put("vendors", vendors);
  }

  /** For listings: {@link #toJson()} without each vendor's terms and rejected rows (their counts stay). */
  public JsonObject summary() {
    JsonArray v = new JsonArray();
    for (Object o : vendors) {
      JsonObject j = ((JsonObject) o).copy();
      j.remove("terms");
      j.remove("rejected");
      v.add(j);
    }
    return brief().put("fx", fx).put("vendors", v);
  }

  /**
   * The vendors this snapshot lacks: unavailable when it was taken (no quotes yet, as right after a
   * start or a reload, or expired) and not carried from an earlier snapshot. A snapshot that lacks
   * one is partial: its book was not the whole market, and a diff does not compare that vendor.
   */
  public java.util.List<String> missing() {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (Object o : vendors) {
      JsonObject v = (JsonObject) o;
      if ("unavailable".equals(v.getString("status"))) out.add(v.getString("vendor"));
    }
    return out;
  }

  /** id, slot, kind, takenAt, quoteCount, and whether it is partial with the vendors it lacks. */
  public JsonObject brief() {
    java.util.List<String> missing = missing();
    return new JsonObject().put("id", id).put("slot", slot).put("kind", kind).put("takenAt", takenAt.toString())
        .put("quoteCount", quoteCount).put("partial", !missing.isEmpty()).put("missing", new JsonArray(missing));
  }
}
