package dev.gpurent.service;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.Vertx;
import io.vertx.core.internal.http.WebSocketInternal;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The dashboards connected over {@code /ws}. A dashboard subscribes to scenario ids and gets each
 * one's current ranking at once, then every change. Messages are encoded once per scenario by the
 * RankingVerticle and written as-is to every socket. A slow dashboard never holds memory without
 * bound: while its write queue is full it keeps only the latest ranking per scenario, and one that
 * stays full past the stall limit is closed. Used on one event loop only.
 */
final class DashboardSockets {

  private final Vertx vertx;
  private final HttpSettings settings;
  private final LiveRankings rankings;
  private final Map<String, Set<Dashboard>> byScenario = new HashMap<>();
  private final Set<Dashboard> all = new HashSet<>();

  private final class Dashboard {
    final ServerWebSocket ws;
    final Set<String> scenarios = new HashSet<>();
    final Map<String, String> pending = new LinkedHashMap<>();
    long fullSince;

    Dashboard(ServerWebSocket ws) {
      this.ws = ws;
    }

    void send(String scenario, String text) {
      if (ws.isClosed()) return;
      if (!pending.isEmpty() || ws.writeQueueFull()) {
        pending.put(scenario, text);  // latest wins
        if (fullSince == 0) fullSince = System.nanoTime();
        return;
      }
      ws.writeTextMessage(text);
    }

    void drain() {
      var it = pending.entrySet().iterator();
      while (it.hasNext() && !ws.writeQueueFull()) {
        ws.writeTextMessage(it.next().getValue());
        it.remove();
      }
      if (pending.isEmpty()) fullSince = 0;
    }
  }

  DashboardSockets(Vertx vertx, HttpSettings settings, LiveRankings rankings) {
    this.vertx = vertx;
    this.settings = settings;
    this.rankings = rankings;
    vertx.setPeriodic(1000, t -> closeStalled());
  }

  int connected() {
    return all.size();
  }

  void accept(ServerWebSocket ws) {
    Dashboard d = new Dashboard(ws);
    all.add(d);
    ws.setWriteQueueMaxSize(settings.wsQueueBytes());
    ws.drainHandler(v -> d.drain());
    ws.textMessageHandler(text -> onText(d, text));
    ws.closeHandler(v -> forget(d));
    ws.exceptionHandler(e -> forget(d));
  }

  private void onText(Dashboard d, String text) {
    JsonObject msg;
    try {
      msg = new JsonObject(text);
    } catch (RuntimeException e) {
      d.ws.writeTextMessage(error(null, "expected JSON like {\"subscribe\": [\"scenario-id\"]}"));
      return;
    }
    for (Object id : msg.getJsonArray("subscribe", new JsonArray())) subscribe(d, String.valueOf(id));
    for (Object id : msg.getJsonArray("unsubscribe", new JsonArray())) unsubscribe(d, String.valueOf(id));
  }

  private void subscribe(Dashboard d, String id) {
    LiveRankings.Latest current = rankings.get(id);
    if (current != null) {
      // known here: subscribed at once, so no change published meanwhile can be missed
      subscribed(d, id, current.text());
      return;
    }
    // not ranked yet here, or unknown: the RankingVerticle knows which (503 or 404)
    vertx.eventBus().<String>request(Addresses.SCENARIOS_RANKING, new JsonObject().put("id", id))
        .onSuccess(m -> subscribed(d, id, m.body()))
        .onFailure(e -> d.ws.writeTextMessage(error(id, e.getMessage())));
  }

  private void subscribed(Dashboard d, String id, String ranking) {
    if (!d.scenarios.add(id)) return;
    byScenario.computeIfAbsent(id, k -> new HashSet<>()).add(d);
    d.send(id, ranking);
  }

  /** A new ranking of a scenario, to every dashboard subscribed to it. */
  void changed(String id, String message) {
    for (Dashboard d : byScenario.getOrDefault(id, Set.of())) d.send(id, message);
  }

  /** A scenario was deleted: its dashboards are told so and unsubscribed. */
  void deleted(String id) {
    for (Dashboard d : Set.copyOf(byScenario.getOrDefault(id, Set.of()))) {
      unsubscribe(d, id);
      if (!d.ws.isClosed()) d.ws.writeTextMessage(error(id, "the scenario was deleted"));
    }
  }

  private void unsubscribe(Dashboard d, String id) {
    d.scenarios.remove(id);
    d.pending.remove(id);
    Set<Dashboard> ds = byScenario.get(id);
    if (ds != null && ds.remove(d) && ds.isEmpty()) byScenario.remove(id);
  }

  private void forget(Dashboard d) {
    if (!all.remove(d)) return;
    for (String id : Set.copyOf(d.scenarios)) unsubscribe(d, id);
  }

  private void closeStalled() {
    long limit = settings.wsStallLimit().toNanos();
    long now = System.nanoTime();
    for (Dashboard d : Set.copyOf(all)) {
      if (d.fullSince != 0 && now - d.fullSince > limit) {
        forget(d);
        abort(d);
      }
    }
  }

  /**
   * Cuts a stalled dashboard off at once. A close frame, or Vert.x's close of the connection (a
   * graceful shutdown), waits behind everything the peer has not read, holding its queued frames
   * and the kernel's unsent bytes until the peer reads again. A reset does not: SO_LINGER 0, and
   * the close sent from the pipeline's first handler, so that it reaches the socket without
   * passing Vert.x's handlers. The channel is reached through Vert.x's internal WebSocket
   * interface (HttpVerticle upgrades /ws itself, since the router's wrapper would hide it).
   */
  private static void abort(Dashboard d) {
    if (d.ws instanceof WebSocketInternal internal) {
      Channel channel = internal.channelHandlerContext().channel();
      channel.config().setOption(ChannelOption.SO_LINGER, 0);
      channel.pipeline().firstContext().close();
    } else {
      d.ws.close((short) 1008, "too slow: stopped reading");
    }
  }

  private static String error(String scenario, String message) {
    return new JsonObject().put("type", "error").put("scenario", scenario).put("error", message).encode();
  }
}
