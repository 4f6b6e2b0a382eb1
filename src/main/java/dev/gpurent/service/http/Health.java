package dev.gpurent.service.http;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.HealthSettings;
import dev.gpurent.service.LoopDelay;

import dev.gpurent.cluster.ClusterView;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code /health} answers: named checks, each {@code {"status": "ok" | "degraded" | "down",
 * "detail"}}, and the service's status, the worst of them ({@code up}, {@code degraded},
 * {@code down}). {@code down} (HTTP 503) means the service cannot answer rankings: no vendor has
 * quotes, the quote pipeline does not answer, or an OutOfMemoryError was seen. {@code degraded}
 * (HTTP 200) means it ranks but something is wrong, named in {@code failing}:
 * <ul>
 *   <li>{@code vendors}: some vendor is stale, expired or has no quotes;
 *   <li>{@code store}: the snapshot store could not be opened, failed its integrity check at start,
 *       or its last operation failed (history routes answer 503 meanwhile);
 *   <li>{@code memory}: the heap after the last collection is past {@code health.heapAfterGc};
 *   <li>{@code eventLoop}: an event loop runs its timer later than {@code health.loopDelay};
 *   <li>{@code cluster} (cluster mode only): a vendor's lease is held by no node; the check lists the
 *       members and each vendor's lease holder.
 * </ul>
 * The fields clients already read stay: {@code vendors} (each vendor's freshness) and {@code history}.
 */
final class Health {

  private final Vertx vertx;
  private final HealthSettings settings;
  private final MemoryWatch memory;
  private final ClusterView cluster;

  /** @param cluster this node's view of its cluster, or null on a single node */
  Health(Vertx vertx, HealthSettings settings, ClusterView cluster) {
    this.vertx = vertx;
    this.settings = settings;
    this.memory = new MemoryWatch(settings.heapAfterGc()).watch(vertx);
    this.cluster = cluster;
  }

  /** The answer: its HTTP status and body. */
  record Report(int status, JsonObject body) {}

  private record Check(String name, String status, String detail, JsonObject more) {
    JsonObject toJson() {
      JsonObject j = new JsonObject().put("status", status).put("detail", detail);
      if (more != null) j.mergeIn(more);
      return j;
    }
  }

  private static final String OK = "ok", DEGRADED = "degraded", DOWN = "down";

  /** Runs every check; never fails. */
  Future<Report> check() {
    Future<JsonObject> history = vertx.eventBus().<JsonObject>request(Addresses.SNAPSHOTS_STATUS, null).map(m -> m.body())
        .otherwise(new JsonObject().put("available", false).put("error", "snapshots are not running"));
    Future<JsonArray> quotes = vertx.eventBus().<JsonArray>request(Addresses.QUOTES_STATUS, null).map(m -> m.body());
    return Future.join(history, quotes).transform(x -> {
      JsonObject vendorStates = new JsonObject();
      List<Check> checks = new ArrayList<>();
      checks.add(vendors(quotes, vendorStates));
      String historyText = store(history.result(), checks);
      checks.add(memory());
      checks.add(loops());
      if (cluster == null || quotes.failed()) return Future.succeededFuture(report(checks, vendorStates, historyText));
      return cluster.read(List.copyOf(vendorStates.fieldNames())).map(this::leases).otherwise(e -> new Check("cluster", DEGRADED,
              "the cluster's lease map cannot be read: " + e.getMessage(), null))
          .map(c -> {
            checks.add(c);
            return report(checks, vendorStates, historyText);
          });
    });
  }

  private static Report report(List<Check> checks, JsonObject vendorStates, String history) {
    JsonObject all = new JsonObject();
    JsonArray failing = new JsonArray();
    boolean down = false;
    for (Check c : checks) {
      all.put(c.name(), c.toJson());
      if (!c.status().equals(OK)) failing.add(c.name());
      down |= c.status().equals(DOWN);
    }
    String status = down ? DOWN : failing.isEmpty() ? "up" : DEGRADED;
    JsonObject body = new JsonObject().put("status", status).put("vendors", vendorStates).put("history", history)
        .put("failing", failing).put("checks", all);
    return new Report(down ? 503 : 200, body);
  }

  private static Check vendors(Future<JsonArray> status, JsonObject states) {
    if (status.failed()) return new Check("vendors", DOWN, "the quote pipeline is not answering", null);
    int fresh = 0, withData = 0;
    List<String> notFresh = new ArrayList<>();
    for (Object o : status.result()) {
      JsonObject v = (JsonObject) o;
      String f = v.getString("freshness");
      states.put(v.getString("vendor"), f);
      if (f.equals("fresh")) fresh++;
      else notFresh.add(v.getString("vendor") + " " + f);
      if (f.equals("fresh") || f.equals("stale")) withData++;
    }
    int total = status.result().size();
    if (withData == 0) return new Check("vendors", DOWN, "no vendor has quotes: nothing can be ranked", null);
    if (fresh < total) return new Check("vendors", DEGRADED, fresh + " of " + total + " vendors fresh; " + String.join(", ", notFresh), null);
    return new Check("vendors", OK, "every vendor fresh (" + total + ")", null);
  }

  /** Adds the store's check; returns the {@code history} field as clients have read it. */
  private static String store(JsonObject s, List<Check> checks) {
    String why = !s.getBoolean("available", false) ? s.getString("error", "") : s.getString("failing");
    checks.add(why == null ? new Check("store", OK, "snapshots and history available", null) : new Check("store", DEGRADED, why, null));
    return why == null ? "available" : "history unavailable: " + why;
  }

  private Check memory() {
    return memory.pressure().map(p -> new Check("memory", p.critical() ? DOWN : DEGRADED, p.detail(), null))
        .orElseGet(() -> new Check("memory", OK, memory.state(), null));
  }

  private Check loops() {
    Map.Entry<String, Long> worst = LoopDelay.worst(vertx);
    if (worst == null) return new Check("eventLoop", OK, "no event loop watched", null);
    long ms = worst.getValue() / 1_000_000;
    String detail = "the " + worst.getKey() + " loop is " + ms + " ms late";
    return ms > settings.loopDelay().toMillis()
        ? new Check("eventLoop", DEGRADED, detail + ", over health.loopDelay (" + settings.loopDelay().toMillis() + " ms)", null)
        : new Check("eventLoop", OK, detail + " at worst", null);
  }

  private Check leases(JsonObject view) {
    JsonObject leases = view.getJsonObject("leases");
    List<String> unheld = new ArrayList<>();
    for (String v : leases.fieldNames()) if (leases.getValue(v) == null) unheld.add(v);
    int members = view.getJsonArray("members").size();
    if (!unheld.isEmpty()) {
      return new Check("cluster", DEGRADED, members + " members; no node holds the lease of " + String.join(", ", unheld)
          + " (nobody fetches it until one takes it)", view);
    }
    return new Check("cluster", OK, members + " members; every vendor's lease held", view);
  }
}
