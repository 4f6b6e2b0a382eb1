package dev.gpurent.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every key of {@code config/gpurent.yaml}: its kind, its default and its range, in this one place.
 * The settings classes read their keys through {@link #section} and hold no default of their own;
 * the shipped file shows the same defaults to the operator (ConfigSchemaTest holds them equal) and
 * is the only source of the two tables that are data rather than settings: {@code fallbacks} (list
 * prices with their pages) and {@code fx.fallback} (a dated rate table), which have no default.
 *
 * <p>A key {@link #check} does not know is refused naming the nearest known one; a bad value is
 * refused naming the key as the user wrote it. Text values (from {@code -D} and {@code GPURENT_*})
 * are read as the key's kind. Pure: no Vert.x.
 */
public final class ConfigSchema {

  /** What a key holds. */
  public enum Kind { TEXT, WHOLE, BYTES, NUMBER, DECIMAL, FLAG, DURATION, LIST }

  /**
   * One key. {@code min} and {@code max} bound a number (a duration's milliseconds); {@code above}
   * makes the lower bound exclusive. A null default: unset unless the user sets it.
   */
  public record Key(String path, Kind kind, Object dflt, double min, boolean above, double max) {}

  private static final double NONE = Double.MAX_VALUE;
  private static final Map<String, Key> KEYS = new LinkedHashMap<>();
  /** A {@code *} segment: any name (a header, a currency). */
  private static final String ANY = "*";

  static {
    text("adapters", "adapters");
    text("catalog", "config/gpus.yaml");
    text("regions", "config/regions.yaml");

    text("http.host", "127.0.0.1");
    whole("http.port", 8080, 0, 65535);  // 0: any free port
    whole("http.bodyLimit", 65536, 1, Integer.MAX_VALUE);
    text("http.adminTokenEnv", "GPURENT_ADMIN_TOKEN");
    whole("http.wsQueueBytes", 262144, 1, Integer.MAX_VALUE);
    duration("http.wsStallLimit", "30s", 0);
    whole("http.wsMaxHeldBytes", 1048576, 1, Integer.MAX_VALUE);
    whole("http.wsControlFrameRate", 20, 1, Integer.MAX_VALUE);
    list("http.hostnames", null);  // unset: the bound address, localhost, 127.0.0.1 and [::1]
    list("http.allowedOrigins", List.of());
    duration("http.idleTimeout", "60s", 0);
    duration("http.headerTimeout", "10s", 0);
    whole("http.maxConnections", 10000, 1, Integer.MAX_VALUE);

    number("health.heapAfterGc", 0.85, 0, true, 1);
    duration("health.loopDelay", "2s", 1);

    duration("quotes.expireAfter", "24h", 0);
    duration("quotes.maxPriceAge", "30d", 0);
    duration("quotes.freshnessCheck", "1m", 1);
    text("quotes.cacheDir", "data/last-good");  // "": nowhere
    flag("quotes.offline", false);
    duration("quotes.fxRefresh", "12h", 1);
    text("quotes.spotRisk", "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json");  // "": a flat 10%
    whole("quotes.breaker.maxFailures", 3, 1, Integer.MAX_VALUE);
    duration("quotes.breaker.resetTimeout", "5m", 1);

    for (String service : List.of("objectStorage", "egress", "ingress", "loadBalancer")) {
      text("fallbacks." + service + ".provider", null);
      add("fallbacks." + service + ".price", Kind.DECIMAL, null, 0, false, NONE);
      text("fallbacks." + service + ".currency", null);
      text("fallbacks." + service + ".source", null);
      text("fallbacks." + service + ".asOf", null);
    }

    whole("ranking.minOffers", 3, 1, Integer.MAX_VALUE);
    number("ranking.migrationTimeShare", 0.05, 0, true, 1);
    whole("ranking.maxWorkloads", 50, 1, Integer.MAX_VALUE);
    whole("ranking.maxConcurrent", 0, 0, Integer.MAX_VALUE);  // 0: 2 x cores
    whole("ranking.queue", 16, 0, Integer.MAX_VALUE);
    duration("ranking.timeout", "10s", 0);
    whole("ranking.maxScenarios", 10000, 0, Integer.MAX_VALUE);
    whole("ranking.maxScenariosPerClient", 20, 0, Integer.MAX_VALUE);
    flag("ranking.incremental", true);
    add("ranking.memoryBudget", Kind.BYTES, 268435456L, 1, false, Long.MAX_VALUE);

    whole("clients.ipv4Prefix", 24, 0, 32);
    whole("clients.ipv6Prefix", 64, 0, 128);
    list("clients.trustedProxies", List.of());
    whole("clients.adminFailuresPerMinute", 10, 1, 1_000_000);

    whole("alerts.attempts", 5, 1, 20);
    duration("alerts.backoff", "2s", 0);
    duration("alerts.maxBackoff", "5m", 0);
    number("alerts.jitter", 0.2, 0, false, 1);
    duration("alerts.timeout", "5s", 1);
    duration("alerts.connectTimeout", "2s", 1);
    whole("alerts.connectionsPerHost", 4, 1, 64);
    whole("alerts.maxResponseBytes", 65536, 256, 16 << 20);
    whole("alerts.perUrlPerMinute", 20, 1, 100_000);
    whole("alerts.perClientPerMinute", 60, 1, 100_000);
    list("alerts.allowHosts", List.of());

    list("tokenPrices.files", List.of());  // the per-token price files (OpenComputePrices' API files); none by default

    text("fx.source", "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml");
    duration("fx.timeout", "30s", 1);
    text("fx.headers." + ANY, null);
    text("fx.fallback.base", null);
    text("fx.fallback.asOf", null);
    text("fx.fallback.source", null);
    add("fx.fallback.rates." + ANY, Kind.DECIMAL, null, 0, true, NONE);

    text("store.path", "data/gpurent.db");
    text("store.url", null);  // a jdbc:postgresql: URL: PostgreSQL instead of the SQLite file
    text("store.user", null);  // else GPURENT_STORE_USER, else PGUSER
    text("store.password", null);  // else GPURENT_STORE_PASSWORD, else PGPASSWORD
    whole("store.pool", 4, 1, 64);
    whole("store.retention.keepDailyDays", 90, 0, 100_000);
    flag("store.retention.keepWeeklyAfter", true);
    whole("store.retention.maxDays", 730, 0, 100_000);  // 0: keep the weekly ones for ever

    text("snapshot.at", "02:30");
    text("snapshot.zone", "Asia/Shanghai");

    flag("cluster.enabled", false);
    text("cluster.host", "127.0.0.1");
    whole("cluster.port", 5701, 1, 65535);
    whole("cluster.busPort", 0, 0, 65535);  // 0: any free one
    list("cluster.members", List.of());
    duration("cluster.leaseTtl", "15s", 1000);
    duration("cluster.failureDetection", "10s", 2000);
  }

  private ConfigSchema() {}

  /** Every key, in the file's order. */
  public static Map<String, Key> keys() {
    return Collections.unmodifiableMap(KEYS);
  }

  /**
   * Checks a whole configuration (plain maps and lists): every key known, every value of its kind
   * and in its range; the first fault is thrown naming the key.
   */
  public static void check(Map<String, ?> config) {
    walk(config, "");
  }

  /** The known key or section nearest to {@code path} (by edits, among names as deep), for "did you mean". */
  public static String nearest(String path) {
    int depth = path.split("\\.").length;
    Set<String> names = new TreeSet<>();
    for (String k : KEYS.keySet()) {
      String[] parts = k.split("\\.");
      if (parts.length >= depth && !parts[depth - 1].equals(ANY)) names.add(String.join(".", List.of(parts).subList(0, depth)));
    }
    if (names.isEmpty()) names = KEYS.keySet();
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : names) {
      int d = distance(path.toLowerCase(Locale.ROOT), known.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = known;
        bestDistance = d;
      }
    }
    return best;
  }

  /** {@code raw} (as a file, {@code -D} or the environment gives it) read as the kind of the key at {@code path}. */
  public static Object value(String path, Object raw) {
    Key k = key(path);
    if (k == null) throw new IllegalArgumentException(path + ": unknown key; did you mean " + nearest(path) + "?");
    return read(k, path, raw);
  }

  /** The key at {@code path} (a {@code *} key matches any last name), or null. */
  public static Key key(String path) {
    Key k = KEYS.get(path);
    if (k != null) return k;
    int dot = path.lastIndexOf('.');
    return dot < 0 ? null : KEYS.get(path.substring(0, dot + 1) + ANY);
  }

  /** Whether {@code path} names a section (a map of keys), such as {@code quotes.breaker}. */
  public static boolean isSection(String path) {
    String prefix = path + ".";
    return KEYS.keySet().stream().anyMatch(k -> k.startsWith(prefix));
  }

  /** The whole configuration, checked, for its top-level keys ({@code catalog}, {@code adapters}) and sections. */
  public static Section root(Map<String, ?> config) {
    Map<String, ?> v = config == null ? Map.of() : config;
    check(v);
    return new Section("", v);
  }

  /** A section's values as its settings class reads them, each with its default. */
  public static Section section(String path, Map<String, ?> values) {
    if (!isSection(path)) throw new IllegalStateException("no section " + path);
    Map<String, ?> v = values == null ? Map.of() : values;
    walk(v, path + ".");
    return new Section(path, v);
  }

  /** A section's values, read by key name, checked and defaulted. */
  public static final class Section {

    private final String path;
    private final Map<String, ?> values;

    private Section(String path, Map<String, ?> values) {
      this.path = path;
      this.values = values;
    }

    public Section section(String name) {
      Object v = values.get(name);
      @SuppressWarnings("unchecked") Map<String, ?> m = v instanceof Map<?, ?> map ? (Map<String, ?>) map : Map.of();
      return new Section(join(name), m);
    }

    /** Whether the user set the key. */
    public boolean has(String name) {
      return values.get(name) != null;
    }

    public String text(String name) {
      Object v = value(name, Kind.TEXT);
      return v == null ? null : (String) v;
    }

    public int whole(String name) {
      return (Integer) value(name, Kind.WHOLE);
    }

    public long bytes(String name) {
      return (Long) value(name, Kind.BYTES);
    }

    public double number(String name) {
      return (Double) value(name, Kind.NUMBER);
    }

    public boolean flag(String name) {
      return (Boolean) value(name, Kind.FLAG);
    }

    public Duration duration(String name) {
      return (Duration) value(name, Kind.DURATION);
    }

    @SuppressWarnings("unchecked")
    public List<String> list(String name) {
      Object v = value(name, Kind.LIST);
      return v == null ? null : (List<String>) v;
    }

    private String join(String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    private Object value(String name, Kind kind) {
      String full = join(name);
      Key k = KEYS.get(full);
      if (k == null || k.kind != kind) throw new IllegalStateException(full + " is not a " + kind + " key of the schema");
      Object v = values.get(name);
      return read(k, full, v == null ? k.dflt : v);
    }
  }

  private static void walk(Map<String, ?> map, String prefix) {
    for (Map.Entry<String, ?> e : map.entrySet()) {
      String path = prefix + e.getKey();
      Object v = e.getValue();
      Key k = key(path);
      if (k != null) {
        if (v != null) read(k, path, v);
      } else if (isSection(path)) {
        if (v instanceof Map<?, ?> m) {
          @SuppressWarnings("unchecked") Map<String, ?> sub = (Map<String, ?>) m;
          walk(sub, path + ".");
        } else if (v != null) {
          throw new IllegalArgumentException(path + ": must be a section of keys, got " + v);
        }
      } else {
        throw new IllegalArgumentException(path + ": unknown key; did you mean " + nearest(path) + "?");
      }
    }
  }

  /** {@code v} as {@code k}'s kind, in its range; a fault names {@code path}. */
  private static Object read(Key k, String path, Object v) {
    if (v == null) return null;
    return switch (k.kind) {
      case TEXT -> {
        if (v instanceof Map<?, ?> || v instanceof List<?>) throw new IllegalArgumentException(path + ": must be text, got " + v);
        yield String.valueOf(v);
      }
      case FLAG -> {
        if (v instanceof Boolean b) yield b;
        if ("true".equals(v) || "false".equals(v)) yield Boolean.valueOf((String) v);
        throw new IllegalArgumentException(path + ": must be true or false, got " + v);
      }
      case WHOLE, BYTES -> {
        BigDecimal n = decimal(v);
        if (n == null || n.stripTrailingZeros().scale() > 0 || n.compareTo(BigDecimal.valueOf(k.min)) < 0
            || n.compareTo(BigDecimal.valueOf(k.max)) > 0) {
          throw new IllegalArgumentException(path + ": must be a whole number " + (k.kind == Kind.BYTES ? "of bytes " : "")
              + range(k, false) + ", got " + v);
        }
        yield k.kind == Kind.WHOLE ? (Object) n.intValue() : (Object) n.longValue();
      }
      case NUMBER, DECIMAL -> {
        BigDecimal n = decimal(v);
        if (n == null || n.doubleValue() < k.min || (k.above && n.doubleValue() == k.min) || n.doubleValue() > k.max) {
          throw new IllegalArgumentException(path + ": must be a number " + range(k, false) + ", got " + v);
        }
        yield k.kind == Kind.NUMBER ? (Object) n.doubleValue() : n;
      }
      case DURATION -> {
        Duration d = Durations.parse(path, String.valueOf(v));
        if (d.toMillis() < k.min || (k.above && d.toMillis() == k.min)) {
          throw new IllegalArgumentException(path + ": must be " + range(k, true) + ", got " + v);
        }
        yield d;
      }
      case LIST -> list(path, v);
    };
  }

  /** A list of names, also as one comma-separated text (as -D and environment variables give it). */
  private static List<String> list(String path, Object v) {
    List<String> out = new ArrayList<>();
    if (v instanceof List<?> items) {
      for (Object item : items) {
        if (item == null || item instanceof Map<?, ?> || item instanceof List<?>) {
          throw new IllegalArgumentException(path + ": must be a list of names, got " + v);
        }
        out.add(String.valueOf(item).trim());
      }
    } else if (v instanceof Map<?, ?>) {
      throw new IllegalArgumentException(path + ": must be a list of names, got " + v);
    } else {
      for (String item : String.valueOf(v).split(",")) if (!item.isBlank()) out.add(item.trim());
    }
    return List.copyOf(out);
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof Boolean || v instanceof Map<?, ?> || v instanceof List<?>) return null;
    if (v instanceof Double d && (d.isNaN() || d.isInfinite())) return null;
    try {
      return new BigDecimal(String.valueOf(v).trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String range(Key k, boolean duration) {
    if (duration && k.min == 1) return "more than 0";
    String min = duration ? millis((long) k.min) : plain(k.min);
    if (k.max == NONE || k.max == Integer.MAX_VALUE || k.max == Long.MAX_VALUE) {
      if (duration) return k.above ? "more than " + min : "at least " + min;
      return k.above ? "more than " + min : ">= " + min;
    }
    return k.above ? "more than " + min + " and at most " + plain(k.max) : "from " + min + " to " + plain(k.max);
  }

  private static String millis(long ms) {
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  private static String plain(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static void text(String path, String dflt) {
    add(path, Kind.TEXT, dflt, 0, false, NONE);
  }

  private static void whole(String path, int dflt, int min, int max) {
    add(path, Kind.WHOLE, dflt, min, false, max);
  }

  private static void number(String path, double dflt, double min, boolean above, double max) {
    add(path, Kind.NUMBER, dflt, min, above, max);
  }

  private static void flag(String path, boolean dflt) {
    add(path, Kind.FLAG, dflt, 0, false, NONE);
  }

  /** A duration of at least {@code minMillis} (0: zero allowed; 1: more than zero). */
  private static void duration(String path, String dflt, long minMillis) {
    add(path, Kind.DURATION, dflt, minMillis, false, NONE);
  }

  private static void list(String path, List<String> dflt) {
    add(path, Kind.LIST, dflt, 0, false, NONE);
  }

  private static void add(String path, Kind kind, Object dflt, double min, boolean above, double max) {
    KEYS.put(path, new Key(path, kind, dflt, min, above, max));
  }

  /** The section names at the top (and the top-level keys). */
  public static Set<String> topLevel() {
    Set<String> out = new TreeSet<>();
    for (String k : KEYS.keySet()) out.add(k.contains(".") ? k.substring(0, k.indexOf('.')) : k);
    return out;
  }
}
