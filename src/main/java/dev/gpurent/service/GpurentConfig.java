package dev.gpurent.service;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.YamlFiles;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Loads the configuration in layers, last wins: {@code config/gpurent.yaml}, then Java system
 * properties ({@code -Dhttp.port=9090}, {@code -Dquotes.breaker.resetTimeout=5m}), then environment
 * variables named {@code GPURENT_<SECTION>_<KEY>} ({@code GPURENT_HTTP_PORT=9090},
 * {@code GPURENT_QUOTES_BREAKER_RESETTIMEOUT=5m}; the name matches the key ignoring case and
 * underscores). Every key is checked against {@link ConfigSchema}: an unknown one is refused naming
 * the nearest known key, a bad value naming the key (and the property or variable) the user wrote.
 * A property or variable outside gpurent's sections is not ours and is left alone (the JVM's
 * {@code java.*}, {@code GPURENT_BENCH_PORT} of the bench scripts), as are the JDK's own
 * {@code http.proxyHost} kind. Secrets are not configuration: they are read from the environment
 * where used, and never logged.
 */
public final class GpurentConfig {

  /** The JDK's networking properties that share gpurent's {@code http.} prefix. */
  private static final List<String> JDK_HTTP = List.of("http.proxy", "http.nonProxyHosts", "http.agent", "http.keepAlive",
      "http.KeepAlive", "http.maxRedirects", "http.auth.");

  private GpurentConfig() {}

  public static Future<JsonObject> load(Vertx vertx, Path root, Map<String, String> env) {
    Path file = root.resolve("config/gpurent.yaml");
    if (!Files.isRegularFile(file)) return Future.failedFuture(new IllegalArgumentException(file + ": no such file"));
    try {
      return Future.succeededFuture(layered(file, System.getProperties(), env));
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
  }

  /** The file, then the system properties, then the environment; every layer checked. */
  static JsonObject layered(Path file, Properties system, Map<String, String> env) {
    Map<String, Object> values = fileValues(file);
    try {
      ConfigSchema.check(values);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
    for (String name : system.stringPropertyNames()) {
      if (ours(name)) put(values, name, system.getProperty(name), "-D" + name);
    }
    // the admin token's variable is a secret, not a key, whatever it is called
    String tokenVariable = ConfigSchema.root(values).section("http").text("adminTokenEnv");
    env.forEach((name, value) -> {
      String key = name.equals(tokenVariable) ? null : environmentKey(name);
      if (key != null) put(values, key, value, name);
    });
    return new JsonObject(Json.encode(values));  // JsonObject and JsonArray all the way down
  }

  /** Whether a system property belongs to gpurent: under one of its sections (or a top-level key) and not the JDK's. */
  private static boolean ours(String name) {
    int dot = name.indexOf('.');
    String first = dot < 0 ? name : name.substring(0, dot);
    if (!ConfigSchema.topLevel().contains(first)) return false;
    return ConfigSchema.key(name) != null || JDK_HTTP.stream().noneMatch(name::startsWith);
  }

  /**
   * The key a {@code GPURENT_} variable names, or null when it is not one of gpurent's sections'
   * ({@code GPURENT_ADMIN_TOKEN}, {@code GPURENT_BENCH_PORT}); a name under a section that matches
   * no key is returned as written, for the check to refuse.
   */
  static String environmentKey(String name) {
    if (!name.startsWith("GPURENT_")) return null;
    String rest = name.substring("GPURENT_".length());
    String flat = rest.replace("_", "").toLowerCase(Locale.ROOT);
    // a section named in camelCase (tokenPrices) is one word or several in the variable's name
    if (ConfigSchema.topLevel().stream().noneMatch(t -> flat.startsWith(t.toLowerCase(Locale.ROOT)))) return null;
    for (String key : ConfigSchema.keys().keySet()) {
      if (key.endsWith(".*")) {
        String prefix = key.substring(0, key.length() - 1).replace('.', '_').toUpperCase(Locale.ROOT);
        if (rest.toUpperCase(Locale.ROOT).startsWith(prefix) && rest.length() > prefix.length()) {
          return key.substring(0, key.length() - 1) + rest.substring(prefix.length());
        }
      } else if (key.replace(".", "").toLowerCase(Locale.ROOT).equals(flat)) {
        return key;
      }
    }
    return rest.toLowerCase(Locale.ROOT).replace('_', '.');
  }

  /** Sets {@code key} (dotted) to {@code value}, checked; a fault names {@code source} as the user wrote it. */
  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> values, String key, String value, String source) {
    String[] parts = key.split("\\.");
    Map<String, Object> at = values;
    for (int i = 0; i < parts.length - 1; i++) {
      Object next = at.get(parts[i]);
      if (!(next instanceof Map<?, ?>)) {
        next = new LinkedHashMap<String, Object>();
        at.put(parts[i], next);
      }
      at = (Map<String, Object>) next;
    }
    at.put(parts[parts.length - 1], value);
    try {
      ConfigSchema.check(Map.of(parts[0], values.get(parts[0])));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  /**
   * The file read by {@link YamlFiles}, as every other YAML of gpurent's: duplicate keys and
   * recursive aliases are refused naming the file.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> fileValues(Path file) {
    Object yaml = YamlFiles.load(file);
    if (yaml == null) return new LinkedHashMap<>();
    if (!(yaml instanceof Map<?, ?> m)) throw new IllegalArgumentException(file + ": expected a map of sections");
    return new LinkedHashMap<>((Map<String, Object>) m);
  }
}
