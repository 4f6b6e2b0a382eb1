package dev.gpurent.service.live;

import dev.gpurent.text.Lang;
import io.vertx.core.http.ServerWebSocket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One dashboard connected over {@code /ws}, as {@link DashboardSockets} keeps it: its language, the
 * scenarios it follows, and its write queue. While the queue is full it keeps only the latest
 * ranking per scenario (rendered when it is written, against the last one written when it takes
 * deltas) and a bounded number of other replies, and is not read from. Used on one event loop only.
 */
final class DashboardSocket {
  final ServerWebSocket ws;
  final DashboardChannel channel;
  final ControlFrameLimit control;
  /** The language its rankings are rendered in: {@code /ws?lang=zh}, else the upgrade's Accept-Language. */
  final Lang lang;
  /** Whether it takes deltas ({@code ?deltas=true}); then {@code sent} holds the last ranking written per scenario. */
  final boolean deltas;
  final Map<String, LiveRankingUpdate> sent = new HashMap<>();
  final Set<String> scenarios = new HashSet<>();
  final Map<String, LiveRankingUpdate> pending = new LinkedHashMap<>();
  final java.util.ArrayDeque<String> replies = new java.util.ArrayDeque<>();
  long fullSince;
  boolean paused;
  int unknown;
  /** Bytes held at the last sweep while over the ceiling; -1 when under it. */
  long heldSeen = -1;
  /** Whether its queue drained since the last sweep: it is reading. */
  boolean drained;

  /** {@code flooded} is told when the dashboard goes over {@code controlFrameRate} pings and pongs a second (counted in {@code totals}). */
  DashboardSocket(ServerWebSocket ws, DashboardChannel channel, Lang lang, boolean deltas, int controlFrameRate,
                  ControlFrameLimit.Totals totals, Consumer<DashboardSocket> flooded) {
    this.ws = ws;
    this.channel = channel;
    this.control = new ControlFrameLimit(controlFrameRate, System::nanoTime, totals, () -> flooded.accept(this));
    this.lang = lang;
    this.deltas = deltas;
  }

  /** A scenario's ranking: while the queue is full only the latest one per scenario waits (rendered when it is written). */
  void send(String scenario, LiveRankingUpdate ranking) {
    if (ws.isClosed()) return;
    if (backedUp()) {
      pending.put(scenario, ranking);  // latest wins
      full();
      return;
    }
    write(text(scenario, ranking));
  }

  /** The text of {@code ranking} for this dashboard: a delta against the last one written, if it takes deltas. */
  private String text(String scenario, LiveRankingUpdate ranking) {
    if (!deltas) return ranking.text(lang);
    return ranking.textAfter(sent.put(scenario, ranking), lang);
  }

  /** Any other reply (an error): it waits behind the queue like a ranking, a bounded number of them. */
  void reply(String text) {
    if (ws.isClosed()) return;
    if (backedUp()) {
      if (replies.size() >= DashboardSockets.MAX_PENDING_REPLIES) replies.poll();
      replies.add(text);
      full();
      return;
    }
    write(text);
  }

  private boolean backedUp() {
    return !pending.isEmpty() || !replies.isEmpty() || ws.writeQueueFull();
  }

  void full() {
    if (fullSince == 0) fullSince = System.nanoTime();
    if (!paused) {
      // A dashboard that does not read what it asked for is not read from either.
      paused = true;
      ws.pause();
    }
  }

  private void write(String text) {
    ws.writeTextMessage(text);
    if (ws.writeQueueFull()) full();
  }

  void drain() {
    drained = true;
    while (!replies.isEmpty() && !ws.writeQueueFull()) ws.writeTextMessage(replies.poll());
    var it = pending.entrySet().iterator();
    while (it.hasNext() && !ws.writeQueueFull()) {
      var e = it.next();
      ws.writeTextMessage(text(e.getKey(), e.getValue()));
      it.remove();
    }
    if (!backedUp()) {
      fullSince = 0;
      if (paused) {
        paused = false;
        ws.resume();
      }
    }
  }
}
