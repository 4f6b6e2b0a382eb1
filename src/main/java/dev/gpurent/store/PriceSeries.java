package dev.gpurent.store;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * One offer's price over time: one point per snapshot that listed it, oldest first. An offer is
 * vendor, region, offer id, GPU and billing mode; a change of currency or unit starts another series.
 *
 * @param gpuCount GPUs in one instance of the offer (its latest snapshot's), so that a chart can
 *                 show a price per GPU without guessing it from the offer id
 */
public record PriceSeries(String vendor, String region, String offer, String gpu, double gpuCount, String billing,
                          String currency, String unit, List<Point> points) {

  public PriceSeries {
    points = List.copyOf(points);
  }

  /** The price (exact, per {@code unit}, whole offer) in the snapshot taken at {@code at}. */
  public record Point(Instant at, BigDecimal price) {}

  public JsonObject toJson() {
    JsonArray pts = new JsonArray();
    for (Point p : points) pts.add(new JsonObject().put("at", p.at().toString()).put("price", p.price().toPlainString()));
    return new JsonObject().put("vendor", vendor).put("region", region).put("offer", offer).put("gpu", gpu)
        .put("gpuCount", gpuCount).put("billing", billing).put("currency", currency).put("unit", unit).put("points", pts);
  }
}
