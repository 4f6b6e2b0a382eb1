package dev.gpurent.service;

import io.vertx.core.json.JsonObject;
import java.time.Duration;

/**
 * The {@code http:} section of the configuration, with its defaults.
 *
 * @param host            address to bind; loopback unless told otherwise
 * @param port            0 picks a free port (tests)
 * @param bodyLimit       largest request body in bytes; larger gets 413
 * @param adminToken      bearer token for admin actions, read from the environment variable
 *                        named by {@code adminTokenEnv}; empty disables them
 * @param wsQueueBytes    per-dashboard write queue before it counts as slow
 * @param wsStallLimit    a dashboard whose queue stays full this long is closed
 */
public record HttpSettings(String host, int port, int bodyLimit, String adminToken, int wsQueueBytes, Duration wsStallLimit) {

  public static HttpSettings from(JsonObject http, java.util.function.Function<String, String> env) {
    JsonObject h = http == null ? new JsonObject() : http;
    String tokenVar = h.getString("adminTokenEnv", "GPURENT_ADMIN_TOKEN");
    String token = env.apply(tokenVar);
    return new HttpSettings(h.getString("host", "127.0.0.1"), h.getInteger("port", 8080), h.getInteger("bodyLimit", 256 * 1024),
        token == null ? "" : token.trim(), h.getInteger("wsQueueBytes", 256 * 1024),
        QuoteSettings.duration(h, "wsStallLimit", "30s"));
  }

  public boolean adminEnabled() {
    return !adminToken.isEmpty();
  }
}
