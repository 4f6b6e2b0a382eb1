package dev.gpurent.store;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.config.PlainValues;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code store:} section of the configuration, with the {@code snapshot:} section's zone for
 * retention weeks.
 *
 * <pre>
 * store:
 *   path: data/gpurent.db        # SQLite file (the default store), created on first use
 *   url: jdbc:postgresql://db/gpurent   # when set: PostgreSQL instead
 *   user: gpurent                # PostgreSQL only; else GPURENT_STORE_USER, else PGUSER
 *   password: ...                # PostgreSQL only; else GPURENT_STORE_PASSWORD, else PGPASSWORD
 *   pool: 4                      # PostgreSQL connections
 *   retention: {keepDailyDays: 90, keepWeeklyAfter: true, maxDays: 730}
 * </pre>
 *
 * @param path      SQLite database file (used when {@code url} is null)
 * @param url       a jdbc:postgresql: URL, or null
 * @param user      PostgreSQL user, or null (the URL may carry one)
 * @param password  PostgreSQL password, or null
 * @param pool      PostgreSQL connections (and store worker threads)
 * @param retention what to keep
 */
public record StoreSettings(Path path, String url, String user, String password, int pool, Retention retention) {

  public static final String DEFAULT_PATH = "data/gpurent.db";

  public StoreSettings {
    if (url != null && url.isBlank()) url = null;
    if (url != null && url.startsWith("jdbc:sqlite:")) {
      path = Path.of(url.substring("jdbc:sqlite:".length()));
      url = null;
    }
    if (url != null && !url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("store.url: expected a jdbc:postgresql: or jdbc:sqlite: URL, got '" + url + "'");
    }
    if (url == null && path == null) path = Path.of(DEFAULT_PATH);
    if (pool < 1 || pool > 64) throw new IllegalArgumentException("store.pool: between 1 and 64 connections, was " + pool);
  }

  /** SQLite at {@code file} with the default retention in {@code Asia/Shanghai} weeks. */
  public static StoreSettings sqlite(Path file) {
    return new StoreSettings(file, null, null, null, 1, Retention.defaults(java.time.ZoneId.of("Asia/Shanghai")));
  }

  /**
   * Reads the whole configuration's {@code store} and {@code snapshot} sections.
   *
   * @param env environment variables, for credentials kept out of files
   */
  public static StoreSettings from(JsonObject config, Map<String, String> env) {
    JsonObject c = config == null ? new JsonObject() : config;
    ConfigSchema.Section s = ConfigSchema.section("store", PlainValues.map(c.getJsonObject("store")));
    NightlySchedule schedule = NightlySchedule.from(c.getJsonObject("snapshot"));
    String user = s.has("user") ? s.text("user") : env.getOrDefault("GPURENT_STORE_USER", env.get("PGUSER"));
    String password = s.has("password") ? s.text("password") : env.getOrDefault("GPURENT_STORE_PASSWORD", env.get("PGPASSWORD"));
    return new StoreSettings(Path.of(s.text("path")), s.text("url"), user, password, s.whole("pool"),
        Retention.from(c.getJsonObject("store", new JsonObject()).getJsonObject("retention"), schedule.zone()));
  }

  public boolean postgres() {
    return url != null;
  }

  /**
   * This store with a command line's {@code --store}: a jdbc:postgresql: or jdbc:sqlite: URL, or a
   * SQLite file path.
   */
  public StoreSettings withTarget(String target) {
    if (target == null || target.isBlank()) return this;
    if (target.startsWith("jdbc:")) return new StoreSettings(null, target, user, password, pool, retention);
    return new StoreSettings(Path.of(target), null, user, password, pool, retention);
  }

  /** A relative SQLite path taken from {@code root} (where config/ is). */
  public StoreSettings resolvedAgainst(Path root) {
    if (postgres() || path.isAbsolute()) return this;
    return new StoreSettings(root.resolve(path), null, user, password, pool, retention);
  }

  @Override
  public String toString() {
    return "StoreSettings[" + describe() + (user == null ? "" : ", user " + user) + (password == null ? "" : ", password set")
        + ", pool " + pool + ", " + retention + "]";
  }

  /** The URL or file, never the password. */
  public String describe() {
    if (!postgres()) return "sqlite:" + path;
    int q = url.indexOf('?');
    return (q < 0 ? url : url.substring(0, q)).substring("jdbc:".length());
  }
}
