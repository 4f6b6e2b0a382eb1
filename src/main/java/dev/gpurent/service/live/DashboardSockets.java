package dev.gpurent.service.live;

import dev.gpurent.service.Addresses;
import dev.gpurent.service.ClientLog;
import dev.gpurent.service.Failures;
import dev.gpurent.service.HttpSettings;

import dev.gpurent.text.Lang;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The dashboards connected over {@code /ws}. A dashboard subscribes to scenario ids and gets each
 * one's current ranking at once, then every change: whole, or, for one connected with
 * {@code ?deltas=true} (the dashboard page), as a delta against the last message it was sent of
 * that scenario ({@link LiveRankingUpdate#textAfter}). Messages are encoded once per scenario by the
 * RankingVerticle, rendered once per language (and delta) and written as-is to every socket. A
 * slow dashboard never holds memory without bound: while its write queue is full it keeps only the
 * latest ranking per scenario (rendered when it is written, against the last one written) and at most
 * {@value #MAX_PENDING_REPLIES} other replies (errors), is not read from (so it cannot ask for
 * more), and one that stays full past the stall limit is reset; so is one holding more than
 * {@code http.wsMaxHeldBytes} queued and not written that took none of it for a whole sweep (a
 * second). Pings and pongs are under the same limits ({@link ControlFrameLimit}): a ping is
 * answered only while the queue has room, and a client over {@code http.wsControlFrameRate} is
 * cut off. A dashboard that sends nothing, not even a pong to the server's pings, for
 * {@code http.idleTimeout} is closed. A message asks for at most {@value DashboardRequests#MAX_IDS} ids; a malformed
 * one gets one error reply and one rate-limited log line. Each dashboard's end, however it comes,
 * is its TCP connection's ({@link DashboardChannel}). Used on one event loop only.
 */
public final class DashboardSockets {

  /** Scenarios one dashboard may follow. */
  static final int MAX_SUBSCRIPTIONS = 1000;
  /** Replies other than rankings kept for a dashboard whose queue is full; past it the oldest is dropped. */
  static final int MAX_PENDING_REPLIES = 100;
  /** Unknown ids one dashboard may ask for; past it the dashboard is closed (1008): it is guessing, not following. */
  static final int MAX_UNKNOWN = 1000;

  private final Vertx vertx;
  private final HttpSettings settings;
  private final LiveRankings rankings;
  private final Map<String, Set<DashboardSocket>> byScenario = new HashMap<>();
  private final WatchedScenarios watched;
  private final Set<DashboardSocket> all = new HashSet<>();
  private final ControlFrameLimit.Totals controlFrames = new ControlFrameLimit.Totals();
  /** Dashboards cut off by the sweep or the control-frame limit, per reason. */
  private long stalled, overHeld, idle, flooded;
  /** Bytes queued for every dashboard and not yet written, at the last sweep. */
  private long held;
  private final long pingEveryMs;

  public DashboardSockets(Vertx vertx, HttpSettings settings, LiveRankings rankings) {
    this.vertx = vertx;
    this.settings = settings;
    this.rankings = rankings;
    this.watched = new WatchedScenarios(vertx);
    vertx.setPeriodic(1000, t -> sweep());
    // The connection's idle timeout must not close a dashboard that only waits for prices; its pongs show it is there.
    pingEveryMs = Math.max(1000, settings.idleTimeout().toMillis() / 2);
    vertx.setPeriodic(pingEveryMs, t -> all.forEach(d -> {
      if (!d.ws.isClosed() && !d.ws.writeQueueFull()) d.ws.writePing(io.vertx.core.buffer.Buffer.buffer());
    }));
  }

  public int connected() {
    return all.size();
  }

  /** Counts and bytes for /metrics. */
  public void register(io.micrometer.core.instrument.MeterRegistry registry) {
    String closed = "gpurent.ws.closed";
    String why = "dashboards cut off by the server: stalled (queue full past http.wsStallLimit), held (over http.wsMaxHeldBytes "
        + "and not reading), idle (silent past http.idleTimeout), control-frames (over http.wsControlFrameRate)";
    FunctionCounter.builder(closed, this, s -> s.stalled).tag("reason", "stalled").description(why).register(registry);
    FunctionCounter.builder(closed, this, s -> s.overHeld).tag("reason", "held").description(why).register(registry);
    FunctionCounter.builder(closed, this, s -> s.idle).tag("reason", "idle").description(why).register(registry);
    FunctionCounter.builder(closed, this, s -> s.flooded).tag("reason", "control-frames").description(why).register(registry);
    String pings = "gpurent.ws.pings";
    String what = "pings from dashboards: answered, or dropped unanswered while their write queue was full";
    FunctionCounter.builder(pings, controlFrames, ControlFrameLimit.Totals::answered).tag("outcome", "answered").description(what)
        .register(registry);
    FunctionCounter.builder(pings, controlFrames, ControlFrameLimit.Totals::dropped).tag("outcome", "dropped").description(what)
        .register(registry);
    Gauge.builder("gpurent.ws.held.bytes", this, s -> s.held).baseUnit("bytes")
        .description("bytes queued for every dashboard and not yet written, at the last sweep (each second)").register(registry);
  }

  public void accept(ServerWebSocket ws, DashboardChannel channel) {
    Lang lang;
    boolean deltas;
    try {
      lang = DashboardRequests.language(ws);
    } catch (IllegalArgumentException unknown) {
      refuseUpgrade(ws, "lang: " + unknown.getMessage(), "unknown language");
      return;
    }
    try {
      deltas = DashboardRequests.deltas(ws);
    } catch (IllegalArgumentException unknown) {
      refuseUpgrade(ws, unknown.getMessage(), "deltas is neither true nor false");
      return;
    }
    DashboardSocket d = new DashboardSocket(ws, channel, lang, deltas, settings.wsControlFrameRate(), controlFrames, this::flooded);
    channel.limitControlFrames(d.control);
    all.add(d);
    ws.setWriteQueueMaxSize(settings.wsQueueBytes());
    ws.drainHandler(v -> d.drain());
    ws.textMessageHandler(text -> onText(d, text));
    ws.closeHandler(v -> forget(d));
    ws.exceptionHandler(e -> forget(d));
  }

  private static void refuseUpgrade(ServerWebSocket ws, String error, String reason) {
    ws.writeTextMessage(DashboardRequests.error(null, error));
    ws.close((short) 1008, reason);
  }

  private void onText(DashboardSocket d, String text) {
    JsonObject msg;
    try {
      msg = new JsonObject(text);
    } catch (RuntimeException e) {
      refuse(d, "not a JSON object", "expected JSON like {\"subscribe\": [\"scenario-id\"]}");
      return;
    }
    for (String key : msg.fieldNames()) {
      if (!key.equals("subscribe") && !key.equals("unsubscribe")) {
        refuse(d, "unknown field", "unknown field; known: subscribe, unsubscribe (lists of scenario ids)");
        return;
      }
    }
    java.util.List<String> subscribe = DashboardRequests.ids(msg.getValue("subscribe"));
    java.util.List<String> unsubscribe = DashboardRequests.ids(msg.getValue("unsubscribe"));
    if (subscribe == null || unsubscribe == null) {
      refuse(d, "subscribe or unsubscribe not a list of ids", "subscribe and unsubscribe must be lists of at most " + DashboardRequests.MAX_IDS
          + " scenario ids, like {\"subscribe\": [\"scenario-id\"]}");
      return;
    }
    if (d.scenarios.size() + subscribe.size() > MAX_SUBSCRIPTIONS) {
      refuse(d, "too many subscriptions", "a dashboard may follow at most " + MAX_SUBSCRIPTIONS + " scenarios");
      return;
    }
    for (String id : subscribe) subscribe(d, id);
    for (String id : unsubscribe) unsubscribe(d, id);
  }

  /** One error reply to a malformed message, and one rate-limited log line. */
  private void refuse(DashboardSocket d, String logged, String reply) {
    ClientLog.bad("WebSocket message from " + d.ws.remoteAddress() + ": " + logged);
    d.reply(DashboardRequests.error(null, reply));
  }

  /**
   * A scenario ranked on this node is answered from the rankings kept here. Any other (in a
   * cluster, one that another node owns and no dashboard here followed yet; or an unknown id) is
   * followed at once, so that the RankingVerticle keeps it ranked here from now on, and asked for:
   * its ranking comes as the answer (or, published first, through {@link #changed}); an unknown id
   * is unfollowed and answered so.
   */
  private void subscribe(DashboardSocket d, String id) {
    LiveRankings.Latest current = rankings.get(id);
    if (current != null) {
      subscribed(d, id, current.published());
      return;
    }
    if (!follow(d, id)) return;
    vertx.eventBus().<LiveRankingUpdate>request(Addresses.SCENARIOS_RANKING, new JsonObject().put("id", id)).onComplete(ar -> {
      if (!d.scenarios.contains(id)) return;  // unsubscribed, or gone, meanwhile
      if (ar.succeeded()) {
        if (rankings.get(id) == null) d.send(id, ar.result().body());
        return;
      }
      int status = Failures.status(ar.cause());
      if (status != 404) {
        // followed still: a scenario with no quotes yet, or whose last ranking failed, is sent its next ranking
        d.reply(new JsonObject().put("type", "error").put("scenario", id).put("status", status)
            .put("error", Failures.bodyOf(ar.cause()).getString("error")).encode());
        return;
      }
      unsubscribe(d, id);
      unknown(d, id);
    });
  }

  /** One more unknown id asked for: answered, and past {@value #MAX_UNKNOWN} of them the dashboard is closed. */
  private void unknown(DashboardSocket d, String id) {
    if (++d.unknown > MAX_UNKNOWN) {
      if (d.unknown == MAX_UNKNOWN + 1) {
        ClientLog.bad("WebSocket client " + d.ws.remoteAddress() + " asked for more than " + MAX_UNKNOWN + " unknown scenario ids");
        forget(d);
        d.ws.close((short) 1008, "too many unknown scenario ids");
      }
      return;
    }
    d.reply(DashboardRequests.error(id, "no live scenario '" + id + "'"));
  }

  private void subscribed(DashboardSocket d, String id, LiveRankingUpdate ranking) {
    if (follow(d, id)) d.send(id, ranking);
  }

  /** The dashboard follows {@code id} from now on; false when it did already. */
  private boolean follow(DashboardSocket d, String id) {
    if (!d.scenarios.add(id)) return false;
    byScenario.computeIfAbsent(id, k -> {
      watched.watch(id);
      return new HashSet<>();
    }).add(d);
    return true;
  }

  /** A new ranking of a scenario (already in the rankings), to every dashboard subscribed to it, in its language. */
  public void changed(String id) {
    LiveRankings.Latest latest = rankings.get(id);
    if (latest == null) return;
    for (DashboardSocket d : byScenario.getOrDefault(id, Set.of())) d.send(id, latest.published());
  }

  /** A scenario was deleted: its dashboards are told so and unsubscribed. */
  public void deleted(String id) {
    for (DashboardSocket d : Set.copyOf(byScenario.getOrDefault(id, Set.of()))) {
      unsubscribe(d, id);
      d.reply(DashboardRequests.error(id, "the scenario was deleted"));
    }
  }

  private void unsubscribe(DashboardSocket d, String id) {
    d.scenarios.remove(id);
    d.pending.remove(id);
    d.sent.remove(id);
    Set<DashboardSocket> ds = byScenario.get(id);
    if (ds != null && ds.remove(d) && ds.isEmpty()) {
      byScenario.remove(id);
      watched.unwatch(id);
    }
  }

  private void forget(DashboardSocket d) {
    if (!all.remove(d)) return;
    for (String id : Set.copyOf(d.scenarios)) unsubscribe(d, id);
  }

  /** A client past the control-frame rate, cut off by its limit: forgotten here, and said so. */
  private void flooded(DashboardSocket d) {
    flooded++;
    ClientLog.bad("WebSocket client " + d.ws.remoteAddress() + " sent more than " + settings.wsControlFrameRate()
        + " pings and pongs in a second: closed");
    forget(d);
  }

  /**
   * Once a second: resets the dashboards whose queue has been full past the stall limit, or that
   * hold more than the ceiling and took none of it since the last sweep; closes the silent ones.
   * A queue filled by pongs counts as full as one filled by rankings.
   */
  private void sweep() {
    long limit = settings.wsStallLimit().toNanos();
    long silence = Math.max(settings.idleTimeout().toMillis(), 2 * pingEveryMs) * 1_000_000L;
    long now = System.nanoTime();
    Cut stalls = new Cut(), holders = new Cut(), silent = new Cut();
    long total = 0;
    for (DashboardSocket d : Set.copyOf(all)) {
      long bytes = d.channel.held();
      total += bytes;
      if (d.ws.isClosed()) continue;  // closing: its close handler forgets it
      if (d.ws.writeQueueFull()) d.full();
      if (d.fullSince != 0 && now - d.fullSince > limit) {
        stalls.add(d);
      } else if (holding(d, bytes)) {
        holders.add(d);
      } else if (now - d.control.heardAt() > silence) {
        silent.add(d);
      }
    }
    held = total;
    stalled += stalls.dashboards.size();
    overHeld += holders.dashboards.size();
    idle += silent.dashboards.size();
    for (DashboardSocket d : stalls.dashboards) abort(d);
    for (DashboardSocket d : holders.dashboards) abort(d);
    for (DashboardSocket d : silent.dashboards) {
      forget(d);
      d.ws.close((short) 1000, "idle");
    }
    // one line a sweep and reason: a whole wall of dashboards cut off at once must be visible in the log
    stalls.log("reset, their write queue full past http.wsStallLimit (" + settings.wsStallLimit().toSeconds() + " s)");
    holders.log("reset, holding over http.wsMaxHeldBytes (" + settings.wsMaxHeldBytes() + ") and reading none of it for a second");
    silent.log("closed, silent past http.idleTimeout (" + settings.idleTimeout().toSeconds() + " s)");
  }

  /** Whether {@code d} holds more than the ceiling and held no less at the last sweep, with no drain between: it is not reading. */
  private boolean holding(DashboardSocket d, long bytes) {
    boolean drained = d.drained;
    d.drained = false;
    if (bytes <= settings.wsMaxHeldBytes()) {
      d.heldSeen = -1;
      return false;
    }
    boolean stuck = d.heldSeen >= 0 && bytes >= d.heldSeen && !drained;
    d.heldSeen = bytes;
    return stuck;
  }

  /** The dashboards one sweep cuts off for one reason, and its log line. */
  private static final class Cut {
    final java.util.List<DashboardSocket> dashboards = new java.util.ArrayList<>();

    void add(DashboardSocket d) {
      dashboards.add(d);
    }

    void log(String what) {
      if (!dashboards.isEmpty()) ClientLog.bad(dashboards.size() + " dashboard(s) " + what + ", e.g. " + dashboards.get(0).ws.remoteAddress());
    }
  }

  /** Cuts a dashboard off at once: a reset, not a close that would wait behind what it never reads. */
  private void abort(DashboardSocket d) {
    forget(d);
    d.channel.reset();
  }


}
