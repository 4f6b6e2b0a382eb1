package dev.gpurent.catalog;

import dev.gpurent.config.YamlFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The open models gpurent sizes by name ({@code config/models.yaml}) and the measured serving
 * throughputs it counts cards from ({@code config/throughput.yaml}), both generated from the
 * recorded facts in ../shared/data (ModelFactsTest holds them to it). Immutable.
 *
 * <p>A name is found whatever way people write it: the catalog id, the Hugging Face id, an
 * instruct or chat repository, an ollama tag ("llama3.1:70b"), see {@link #key}.
 */
public final class ModelCatalog {

  /** No models: a reader built without the catalog refuses {@code model:} with this said. */
  public static final ModelCatalog EMPTY = new ModelCatalog(List.of(), List.of(), Map.of());

  private final Map<String, Model> byId;
  private final Map<String, Model> byKey;
  private final List<Measurement> measurements;
  private final Map<String, String> sources;

  public ModelCatalog(List<Model> models, List<Measurement> measurements, Map<String, String> sources) {
    Map<String, Model> ids = new LinkedHashMap<>();
    Map<String, Model> keys = new HashMap<>();
    for (Model m : models) {
      if (ids.putIfAbsent(m.id(), m) != null) throw new IllegalArgumentException("models: id '" + m.id() + "' twice");
      List<String> names = new ArrayList<>(m.aliases());
      names.add(m.id());
      names.add(m.hf());
      for (String name : names) {
        Model other = keys.putIfAbsent(key(name), m);
        if (other != null && other != m) {
          throw new IllegalArgumentException("models: name '" + name + "' names both " + other.id() + " and " + m.id());
        }
      }
    }
    for (Measurement r : measurements) {
      if (!ids.containsKey(r.model())) throw new IllegalArgumentException("throughput: unknown model '" + r.model() + "'");
      if (!sources.containsKey(r.source())) throw new IllegalArgumentException("throughput: unknown source '" + r.source() + "'");
    }
    this.byId = java.util.Collections.unmodifiableMap(ids);
    this.byKey = Map.copyOf(keys);
    this.measurements = List.copyOf(measurements);
    this.sources = Map.copyOf(sources);
  }

  /**
   * Loads {@code models.yaml} and {@code throughput.yaml} from the folder of the GPU catalog file;
   * {@link #EMPTY} when that folder has no {@code models.yaml} (a root set up before issue 31).
   */
  public static ModelCatalog besides(Path gpuCatalogFile) {
    Path dir = gpuCatalogFile.toAbsolutePath().getParent();
    if (!Files.exists(dir.resolve("models.yaml"))) return EMPTY;
    return load(dir.resolve("models.yaml"), dir.resolve("throughput.yaml"));
  }

  public static ModelCatalog load(Path modelsFile, Path throughputFile) {
    Map<?, ?> models = read(modelsFile, "models");
    Map<?, ?> speeds = read(throughputFile, "rows");
    List<Model> list = new ArrayList<>();
    List<?> raw = (List<?>) models.get("models");
    for (int i = 0; i < raw.size(); i++) {
      try {
        list.add(model((Map<?, ?>) raw.get(i)));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(modelsFile + ": models[" + i + "]: " + e.getMessage(), e);
      }
    }
    Map<String, String> sources = new LinkedHashMap<>();
    ((Map<?, ?>) speeds.get("sources")).forEach((k, v) -> sources.put(String.valueOf(k), String.valueOf(v)));
    List<Measurement> rows = new ArrayList<>();
    List<?> rawRows = (List<?>) speeds.get("rows");
    for (int i = 0; i < rawRows.size(); i++) {
      List<?> r = (List<?>) rawRows.get(i);
      if (r.size() != 11) throw new IllegalArgumentException(throughputFile + ": rows[" + i + "]: expected 11 cells, got " + r.size());
      rows.add(new Measurement(s(r.get(0)), s(r.get(1)), n(r.get(2)).intValue(), s(r.get(3)), s(r.get(4)), n(r.get(5)).intValue(),
          n(r.get(6)).intValue(), n(r.get(7)).doubleValue(), s(r.get(8)), s(r.get(9)), s(r.get(10))));
    }
    return new ModelCatalog(list, rows, sources);
  }

  private static Map<?, ?> read(Path file, String listKey) {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      Object root = YamlFiles.parse(in, file.toString());
      if (!(root instanceof Map<?, ?> map) || !(map.get(listKey) instanceof List<?>)) {
        throw new IllegalArgumentException(file + ": expected a top-level '" + listKey + ":' list");
      }
      return map;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static Model model(Map<?, ?> m) {
    Object aliases = m.get("aliases");
    return new Model(req(m, "id"), req(m, "hf"), req(m, "kind"), num(m, "paramsBillions"), num(m, "activeParamsBillions"),
        (int) num(m, "layers"), (int) num(m, "kvHeads"), (int) num(m, "headDim"), (int) num(m, "kvLoraRank"),
        (int) num(m, "qkRopeHeadDim"), (int) num(m, "maxContext"), m.get("weights") == null ? null : s(m.get("weights")),
        req(m, "source"), m.get("paramsSource") == null ? "" : s(m.get("paramsSource")),
        aliases == null ? List.of() : ((List<?>) aliases).stream().map(String::valueOf).toList());
  }

  private static String req(Map<?, ?> m, String field) {
    Object v = m.get(field);
    if (v == null) throw new IllegalArgumentException(field + " is required");
    return String.valueOf(v);
  }

  private static double num(Map<?, ?> m, String field) {
    Object v = m.get(field);
    if (v == null) return 0;
    if (!(v instanceof Number n)) throw new IllegalArgumentException(field + " must be a number");
    return n.doubleValue();
  }

  private static String s(Object o) {
    return String.valueOf(o);
  }

  private static Number n(Object o) {
    if (!(o instanceof Number n)) throw new IllegalArgumentException("expected a number, got '" + o + "'");
    return n;
  }

  /**
   * The form every name is compared in: the part after the last "/", lowercase, without a leading
   * "meta-" or a trailing "-instruct", "-chat", "-it", "-turbo" or ":latest", letters and digits
   * only. "Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b" and "Qwen2.5-72B" are one name;
   * "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo" is "llama3170b".
   */
  public static String key(String name) {
    String s = name.trim().toLowerCase(Locale.ROOT);
    s = s.substring(s.lastIndexOf('/') + 1);
    if (s.startsWith("meta-")) s = s.substring(5);
    for (boolean cut = true; cut; ) {
      cut = false;
      for (String suffix : List.of(":latest", "-turbo", "-instruct", "-chat", "-it")) {
        if (s.endsWith(suffix) && s.length() > suffix.length()) {
          s = s.substring(0, s.length() - suffix.length());
          cut = true;
        }
      }
    }
    StringBuilder sb = new StringBuilder(s.length());
    for (char c : s.toCharArray()) if (Character.isLetterOrDigit(c)) sb.append(c);
    return sb.toString();
  }

  public Optional<Model> find(String name) {
    return name == null ? Optional.empty() : Optional.ofNullable(byKey.get(key(name)));
  }

  /** The model a name means; fails naming the closest known models. */
  public Model resolve(String name) {
    return find(name).orElseThrow(() -> new UnknownModelException(unknownMessage(name)));
  }

  public Optional<Model> byId(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  public java.util.Collection<Model> all() {
    return byId.values();
  }

  /** Every measured throughput, in the file's order. */
  public List<Measurement> measurements() {
    return measurements;
  }

  /** A source's full citation: its document and {@code owner/repo:path@commit}. */
  public String sourceText(String sourceId) {
    return sources.getOrDefault(sourceId, sourceId);
  }

  /** A source's short name for a bill line: the citation before its bracket ("TensorRT-LLM perf overview v0.17"). */
  public String sourceName(String sourceId) {
    String text = sourceText(sourceId);
    int bracket = text.indexOf(" (");
    return bracket < 0 ? text : text.substring(0, bracket);
  }

  private String unknownMessage(String name) {
    if (byId.isEmpty()) return "unknown model '" + name + "': no model catalog is loaded (config/models.yaml)";
    String k = key(String.valueOf(name));
    // Closest by edit distance over every name a model answers to; a model whose name contains what was typed comes first.
    record Near(Model model, int distance) {}
    Map<Model, Integer> best = new LinkedHashMap<>();
    for (Model m : byId.values()) {
      List<String> names = new ArrayList<>(m.aliases());
      names.add(m.id());
      names.add(m.hf());
      int d = Integer.MAX_VALUE;
      for (String n : names) {
        String nk = key(n);
        d = Math.min(d, !k.isEmpty() && nk.contains(k) ? 0 : distance(k, nk));
      }
      best.put(m, d);
    }
    List<String> close = best.entrySet().stream().map(e -> new Near(e.getKey(), e.getValue()))
        .sorted(Comparator.comparingInt(Near::distance)).limit(3).map(n -> n.model().id()).toList();
    return "unknown model '" + name + "'; nearest known: " + String.join(", ", close) + " (config/models.yaml lists them all)";
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
