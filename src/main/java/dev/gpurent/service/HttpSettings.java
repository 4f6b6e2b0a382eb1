package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code http:} section of the configuration (its keys, defaults and ranges: {@link ConfigSchema}).
 *
 * @param host            address to bind; loopback unless told otherwise
 * @param port            0 picks a free port (tests)
 * @param bodyLimit       largest request body in bytes; larger gets 413
 * @param adminToken      bearer token for admin actions, read from the environment variable
 *                        named by {@code adminTokenEnv}; empty disables them
 * @param wsQueueBytes    per-dashboard write queue before it counts as slow
 * @param wsStallLimit    a dashboard whose queue stays full this long is closed
 * @param hostnames       the names a request's {@code Host} may carry (lowercase, no port): by
 *                        default the bound address, localhost, 127.0.0.1 and ::1; any other Host
 *                        is refused, so a page on a rebound DNS name cannot reach the service
 * @param allowedOrigins  origins besides the service's own that may change state (POST, DELETE)
 *                        or open a WebSocket, e.g. {@code https://dash.example}
 * @param idleTimeout     a connection that sends and receives nothing this long is closed; a
 *                        dashboard, which the server pings every half of it, that sends nothing (not
 *                        even a pong) this long is closed
 * @param headerTimeout   a connection whose request headers are not all in this long after it
 *                        opened (or after its last answer) is closed: slow senders hold nothing
 * @param maxConnections  open connections at once; past it a new one is closed at once
 * @param wsControlFrameRate control frames (pings, pongs) one dashboard may send a second; past it
 *                        it is closed (1008)
 * @param wsMaxHeldBytes  bytes queued for a dashboard and not yet written past which one that took
 *                        none of them for a whole second is reset, without waiting for the stall limit
 */
public record HttpSettings(String host, int port, int bodyLimit, String adminToken, int wsQueueBytes, Duration wsStallLimit,
                           Set<String> hostnames, Set<String> allowedOrigins, Duration idleTimeout, Duration headerTimeout,
                           int maxConnections, int wsControlFrameRate, int wsMaxHeldBytes) {

  public static HttpSettings from(JsonObject http, java.util.function.Function<String, String> env) {
    ConfigSchema.Section h = ConfigSchema.section("http", PlainValues.map(http));
    String token = env.apply(h.text("adminTokenEnv"));
    String host = h.text("host");
    Set<String> names = h.has("hostnames") ? lowercase(h.list("hostnames")) : defaultHostnames(host);
    return new HttpSettings(host, h.whole("port"), h.whole("bodyLimit"), token == null ? "" : token.trim(), h.whole("wsQueueBytes"),
        h.duration("wsStallLimit"), names, lowercase(h.list("allowedOrigins")), h.duration("idleTimeout"),
        h.duration("headerTimeout"), h.whole("maxConnections"), h.whole("wsControlFrameRate"), h.whole("wsMaxHeldBytes"));
  }

  public boolean adminEnabled() {
    return !adminToken.isEmpty();
  }

  /** The bound address (unless it is a wildcard), localhost, 127.0.0.1 and ::1. */
  static Set<String> defaultHostnames(String host) {
    Set<String> out = new LinkedHashSet<>();
    String h = host.toLowerCase(Locale.ROOT);
    if (!h.equals("0.0.0.0") && !h.equals("::") && !h.equals("[::]")) out.add(h.startsWith("[") ? h : h.contains(":") ? "[" + h + "]" : h);
    out.addAll(List.of("localhost", "127.0.0.1", "[::1]"));
    return Set.copyOf(out);
  }

  private static Set<String> lowercase(List<String> values) {
    Set<String> out = new LinkedHashSet<>();
    for (String v : values) out.add(v.toLowerCase(Locale.ROOT).replaceAll("/+$", ""));
    return Set.copyOf(out);
  }
}
