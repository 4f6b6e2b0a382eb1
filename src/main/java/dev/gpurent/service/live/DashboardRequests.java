package dev.gpurent.service.live;

import dev.gpurent.text.Lang;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a dashboard asks of {@link DashboardSockets}, read: the upgrade request's {@code lang} and
 * {@code deltas}, and the ids of a subscribe or unsubscribe message, each refused when malformed;
 * and the one shape of an error it is sent.
 */
final class DashboardRequests {

  private DashboardRequests() {}

  /** Scenario ids one subscribe or unsubscribe message may name. */
  static final int MAX_IDS = 100;
  /** Longest id taken as one: scenario ids are UUIDs. */
  static final int MAX_ID_LENGTH = 64;

  /** {@code ?lang=} of the upgrade request, else its Accept-Language, else English; an unknown {@code lang} fails. */
  static Lang language(ServerWebSocket ws) {
    String lang = parameter(ws, "lang");
    return lang != null ? Lang.of(lang) : Lang.fromAcceptLanguage(ws.headers().get("Accept-Language"));
  }

  /** {@code ?deltas=true} or {@code false} (the default); anything else fails. */
  static boolean deltas(ServerWebSocket ws) {
    String deltas = parameter(ws, "deltas");
    if (deltas == null || deltas.equals("false")) return false;
    if (deltas.equals("true")) return true;
    throw new IllegalArgumentException("deltas: '" + (deltas.length() > 20 ? deltas.substring(0, 20) + "..." : deltas)
        + "' is neither true nor false");
  }

  /** A query parameter of the upgrade request, decoded; null when absent. */
  private static String parameter(ServerWebSocket ws, String name) {
    String query = ws.query();
    if (query == null) return null;
    for (String pair : query.split("&", 20)) {
      if (pair.startsWith(name + "=")) return java.net.URLDecoder.decode(pair.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
    }
    return null;
  }

  /** The ids of a subscribe or unsubscribe value: none when absent, null when it is not a list of at most MAX_IDS short texts. */
  static java.util.List<String> ids(Object value) {
    if (value == null) return java.util.List.of();
    if (!(value instanceof JsonArray a) || a.size() > MAX_IDS) return null;
    java.util.List<String> out = new java.util.ArrayList<>(a.size());
    for (Object o : a) {
      if (!(o instanceof String s) || s.isEmpty() || s.length() > MAX_ID_LENGTH) return null;
      out.add(s);
    }
    return out;
  }

  /** An error reply: {@code {"type":"error","scenario":id (null: none),"error":message}}. */
  static String error(String scenario, String message) {
    return new JsonObject().put("type", "error").put("scenario", scenario).put("error", message).encode();
  }
}
