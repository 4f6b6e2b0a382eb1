package dev.gpurent.report;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** CSV exports of snapshots, a snapshot's quotes, a diff and price history, from their JSON forms. */
public final class HistoryCsv {

  private HistoryCsv() {}

  public static String snapshots(JsonArray list) {
    Csv csv = new Csv().row("id", "slot", "kind", "taken_at", "quote_count");
    for (Object o : list) {
      JsonObject m = (JsonObject) o;
      csv.row(m.getValue("id"), m.getString("slot"), m.getString("kind"), m.getString("takenAt"), m.getValue("quoteCount"));
    }
    return csv.toString();
  }

  public static String snapshot(JsonObject s) {
    Csv csv = new Csv().row("snapshot", "taken_at", "vendor", "region", "offer", "gpu", "gpu_count", "billing", "price", "currency",
        "unit", "observed_at", "source");
    for (Object o : s.getJsonArray("quotes", new JsonArray())) {
      JsonObject q = (JsonObject) o;
      csv.row(s.getValue("id"), s.getString("takenAt"), q.getString("vendor"), q.getString("region"), q.getString("offer"),
          q.getString("gpu"), q.getValue("gpuCount"), q.getString("billing"), q.getString("price"), q.getString("currency"),
          q.getString("unit"), q.getString("observedAt"), q.getString("source"));
    }
    return csv.toString();
  }

  public static String diff(JsonObject d) {
    Csv csv = new Csv().row("change", "vendor", "region", "offer", "gpu", "billing", "before", "after", "currency", "unit",
        "percent");
    for (Object o : d.getJsonArray("changed", new JsonArray())) {
      JsonObject c = (JsonObject) o;
      csv.row("changed", c.getString("vendor"), c.getString("region"), c.getString("offer"), c.getString("gpu"),
          c.getString("billing"), c.getString("before"), c.getString("after"), c.getString("currency"), c.getString("unit"),
          c.getValue("percent"));
    }
    for (String kind : new String[] {"added", "removed"}) {
      for (Object o : d.getJsonArray(kind, new JsonArray())) {
        JsonObject q = (JsonObject) o;
        boolean added = kind.equals("added");
        csv.row(kind, q.getString("vendor"), q.getString("region"), q.getString("offer"), q.getString("gpu"),
            q.getString("billing"), added ? "" : q.getString("price"), added ? q.getString("price") : "", q.getString("currency"),
            q.getString("unit"), "");
      }
    }
    return csv.toString();
  }

  public static String history(JsonArray series) {
    Csv csv = new Csv().row("vendor", "region", "offer", "gpu", "billing", "currency", "unit", "at", "price");
    for (Object o : series) {
      JsonObject s = (JsonObject) o;
      for (Object p : s.getJsonArray("points", new JsonArray())) {
        JsonObject pt = (JsonObject) p;
        csv.row(s.getString("vendor"), s.getString("region"), s.getString("offer"), s.getString("gpu"), s.getString("billing"),
            s.getString("currency"), s.getString("unit"), pt.getString("at"), pt.getString("price"));
      }
    }
    return csv.toString();
  }
}
