package dev.gpurent.service;

import dev.gpurent.config.YamlFiles;
import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Loads the configuration in layers, last wins: {@code config/gpurent.yaml}, then Java system
 * properties ({@code -Dhttp.port=9090}), then environment variables named
 * {@code GPURENT_<SECTION>_<KEY>} ({@code GPURENT_HTTP_PORT=9090}; the key matches the file's
 * key ignoring case). Secrets are not configuration: they are read from the environment where
 * used, and never logged.
 */
public final class GpurentConfig {

  private GpurentConfig() {}

  public static Future<JsonObject> load(Vertx vertx, Path root, Map<String, String> env) {
    Path file = root.resolve("config/gpurent.yaml");
    if (!Files.isRegularFile(file)) return Future.failedFuture(new IllegalArgumentException(file + ": no such file"));
    JsonObject values;
    try {
      values = fileValues(file);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    ConfigRetrieverOptions options = new ConfigRetrieverOptions().setScanPeriod(0)
        .addStore(new ConfigStoreOptions().setType("json").setConfig(values))
        .addStore(new ConfigStoreOptions().setType("sys").setConfig(new JsonObject().put("hierarchical", true)));
    ConfigRetriever retriever = ConfigRetriever.create(vertx, options);
    return retriever.getConfig()
        .map(c -> withEnvironment(c, env))
        .recover(e -> Future.failedFuture(new IllegalArgumentException(file + ": " + e.getMessage(), e)))
        .eventually(() -> {
          retriever.close();
          return Future.succeededFuture();
        });
  }

  /**
   * The file read by {@link YamlFiles}, as every other YAML of gpurent's: duplicate keys and
   * recursive aliases are refused naming the file (vertx-config's own YAML reader lets the last
   * duplicate win and overflows the stack on an alias that holds itself).
   */
  private static JsonObject fileValues(Path file) {
    Object yaml = YamlFiles.load(file);
    if (yaml == null) return new JsonObject();
    if (!(yaml instanceof Map<?, ?>)) throw new IllegalArgumentException(file + ": expected a map of sections");
    return new JsonObject(Json.encode(yaml));
  }

  /** Applies {@code GPURENT_SECTION_KEY=value} over the file's values. */
  static JsonObject withEnvironment(JsonObject config, Map<String, String> env) {
    JsonObject out = config.copy();
    for (Map.Entry<String, String> e : env.entrySet()) {
      String name = e.getKey();
      if (!name.startsWith("GPURENT_") || name.equals("GPURENT_ADMIN_TOKEN")) continue;
      String[] parts = name.substring("GPURENT_".length()).toLowerCase(Locale.ROOT).split("_", 2);
      if (parts.length != 2) continue;
      JsonObject section = out.getJsonObject(parts[0]);
      if (section == null) {
        section = new JsonObject();
        out.put(parts[0], section);
      }
      String key = section.fieldNames().stream().filter(k -> k.equalsIgnoreCase(parts[1].replace("_", ""))).findFirst()
          .orElse(parts[1]);
      section.put(key, typed(e.getValue()));
    }
    return out;
  }

  private static Object typed(String v) {
    if (v.equals("true") || v.equals("false")) return Boolean.valueOf(v);
    if (v.matches("-?\\d{1,9}")) return Integer.valueOf(v);
    return v;
  }
}
