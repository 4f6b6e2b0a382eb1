package dev.gpurent.adapter;

import dev.gpurent.quote.SpotRisk;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kind {@code aws-spot-advisor}: AWS's Spot Instance Advisor feed
 * ({@value #URL}), the data behind https://aws.amazon.com/ec2/spot/instance-advisor/. Not a price
 * source and not a vendor adapter: it gives, per region and instance type, the saving over
 * on-demand and the interruption frequency band, read into a {@link SpotRisk}.
 *
 * <p>Shape (about 900 KB; read whole with {@link JsonObject}, on a worker thread):
 * <pre>
 * {"ranges": [{"index": 0, "label": "&lt;5%", "dots": 0, "max": 5}, ...],
 *  "instance_types": {"g4dn.xlarge": {"cores": 4, "ram_gb": 16.0, "emr": true}, ...},
 *  "spot_advisor": {"us-east-1": {"Linux": {"g4dn.xlarge": {"s": 64, "r": 3}, ...}, "Windows": {...}}, ...}}
 * </pre>
 * {@code s} is the saving in percent, {@code r} the index into {@code ranges} (matched on the
 * range's {@code index} field, else its position). Only {@code Linux} is read. A band's
 * probability is its label's mid-point ({@link SpotRisk#midpoint(String)}); the ranges' {@code max}
 * figures (5, 11, 16, 22, 100 in the 2025 file) do not match their labels and are not used.
 */
public final class AwsSpotAdvisorAdapter {

  public static final String URL = "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json";

  private AwsSpotAdvisorAdapter() {}

  /**
   * Fetches {@code source} (URL or file) and parses it on a worker thread. A bad source, an
   * unreachable URL or an unreadable payload fail the future.
   */
  public static Future<SpotRisk> fetch(Vertx vertx, String source, Duration timeout) {
    PayloadSource src;
    try {
      src = PayloadSource.of(vertx, source, timeout, new JsonObject());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return FetchAndParse.fetch(vertx, src, null, p -> parse(Buffer.buffer(p.text()), p.origin(), Instant.now()));
  }

  /** Parses a payload held in memory; pure (no Vert.x I/O). */
  public static SpotRisk parse(Buffer payload, String source, Instant fetchedAt) {
    JsonObject root;
    try {
      root = payload.toJsonObject();
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException(source + ": not a Spot Instance Advisor feed: " + e.getMessage(), e);
    }
    return parse(root, source, fetchedAt);
  }

  /** Parses the decoded feed; pure. */
  public static SpotRisk parse(JsonObject root, String source, Instant fetchedAt) {
    Object advisorValue = root.getValue("spot_advisor");
    Object rangesValue = root.getValue("ranges");
    if (!(advisorValue instanceof JsonObject advisor) || !(rangesValue instanceof JsonArray rangeList)) {
      throw new IllegalArgumentException(source + ": not a Spot Instance Advisor feed: expected 'spot_advisor' (object) and 'ranges' (array)");
    }
    List<String> rejected = new ArrayList<>();
    Map<Integer, String> labels = new HashMap<>();
    Map<Integer, Double> probabilities = new HashMap<>();
    for (int i = 0; i < rangeList.size(); i++) {
      Object o = rangeList.getValue(i);
      if (!(o instanceof JsonObject range) || range.getString("label") == null) {
        rejected.add("ranges[" + i + "]: no label");
        continue;
      }
      int index = range.getValue("index") instanceof Number n ? n.intValue() : i;
      try {
        probabilities.put(index, SpotRisk.midpoint(range.getString("label")));
        labels.put(index, range.getString("label"));
      } catch (IllegalArgumentException e) {
        rejected.add("ranges[" + i + "]: " + e.getMessage());
      }
    }
    Map<String, Map<String, SpotRisk.Band>> bands = new LinkedHashMap<>();
    for (Map.Entry<String, Object> region : advisor) {
      if (!(region.getValue() instanceof JsonObject oses) || !(oses.getValue("Linux") instanceof JsonObject linux)) {
        rejected.add("spot_advisor." + region.getKey() + ": no Linux figures");
        continue;
      }
      Map<String, SpotRisk.Band> types = new LinkedHashMap<>();
      for (Map.Entry<String, Object> t : linux) {
        String at = "spot_advisor." + region.getKey() + ".Linux." + t.getKey();
        if (!(t.getValue() instanceof JsonObject fig)
            || !(fig.getValue("s") instanceof Number s) || !(fig.getValue("r") instanceof Number r)) {
          rejected.add(at + ": expected {s: saving %, r: range index}, got " + t.getValue());
          continue;
        }
        String label = labels.get(r.intValue());
        if (label == null) {
          rejected.add(at + ": range index " + r + " is not in 'ranges'");
          continue;
        }
        types.put(t.getKey(), new SpotRisk.Band(region.getKey(), t.getKey(), s.intValue(), r.intValue(), label,
            probabilities.get(r.intValue())));
      }
      if (!types.isEmpty()) bands.put(region.getKey(), types);
    }
    return new SpotRisk(bands, rejected, fetchedAt, source);
  }
}
