package dev.gpurent.catalog;

import dev.gpurent.config.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU catalog: every card the engine knows, and every spelling vendors use for it.
 *
 * <p>Spellings are matched after normalisation (lowercase, letters and digits only), so
 * {@code RTX 4090}, {@code rtx-4090} and {@code RTX4090} are one name. Immutable and thread-safe.
 */
public final class GpuCatalog {

  private final Map<String, Gpu> byId;
  private final Map<String, Gpu> byKey;
  /**
   * Each card's id and aliases in key form, worked out once: a payload's rows of unknown cards each
   * ask {@link #nearest} (GCP's catalog thousands of times a fetch), which otherwise keyed them all every time.
   */
  private final List<Keyed> keyed;

  /** A card with its id's and its aliases' keys. */
  private record Keyed(Gpu gpu, String id, List<String> aliases) {}

  public GpuCatalog(Collection<Gpu> gpus) {
    Map<String, Gpu> ids = new LinkedHashMap<>();
    Map<String, Gpu> keys = new HashMap<>();
    List<Keyed> keyedCards = new ArrayList<>();
    for (Gpu gpu : gpus) {
      keyedCards.add(new Keyed(gpu, key(gpu.id()), gpu.aliases().stream().map(GpuCatalog::key).toList()));
      if (ids.putIfAbsent(gpu.id(), gpu) != null) {
        throw new IllegalArgumentException("gpus: id '" + gpu.id() + "' appears twice");
      }
      List<String> names = new ArrayList<>(gpu.aliases());
      names.add(gpu.id());
      names.add(gpu.name());
      for (String name : names) {
        Gpu other = keys.putIfAbsent(key(name), gpu);
        if (other != null && other != gpu) {
          throw new IllegalArgumentException("gpus: alias '" + name + "' names both " + other.id() + " and " + gpu.id());
        }
      }
    }
    this.byId = Collections.unmodifiableMap(ids);
    this.byKey = Map.copyOf(keys);
    this.keyed = List.copyOf(keyedCards);
  }

  /** Loads {@code config/gpus.yaml} (or another file of its form). */
  public static GpuCatalog load(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read GPU catalog " + file, e);
    }
  }

  /** Every maker of a card in the catalog ("amd", "nvidia"), sorted. */
  public java.util.SortedSet<String> makers() {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (Gpu g : all()) out.add(g.maker());
    return out;
  }

  @SuppressWarnings("unchecked")
  static GpuCatalog parse(InputStream in, String where) {
    Object root = YamlFiles.parse(new InputStreamReader(in, StandardCharsets.UTF_8), where);
    if (!(root instanceof Map<?, ?> map) || !(map.get("gpus") instanceof List<?> list)) {
      throw new IllegalArgumentException(where + ": expected a top-level 'gpus:' list");
    }
    List<Gpu> gpus = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> m = (Map<String, Object>) list.get(i);
      String at = where + ": gpus[" + i + "]";
      try {
        gpus.add(new Gpu(
            str(m, "id"), str(m, "name"),
            num(m, "memoryGiB"), num(m, "bandwidthGBs"), num(m, "fp16Tflops"),
            Interconnect.parse(str(m, "interconnect")),
            m.get("aliases") == null ? List.of() : ((List<Object>) m.get("aliases")).stream().map(String::valueOf).toList(),
            m.get("maker") == null ? null : String.valueOf(m.get("maker")),
            m.get("computeCapability") == null ? 0 : num(m, "computeCapability")));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
      }
    }
    return new GpuCatalog(gpus);
  }

  private static String str(Map<String, Object> m, String field) {
    Object v = m.get(field);
    if (v == null) throw new IllegalArgumentException(field + " is required");
    return String.valueOf(v);
  }

  private static double num(Map<String, Object> m, String field) {
    if (!(m.get(field) instanceof Number n)) throw new IllegalArgumentException(field + " must be a number");
    return n.doubleValue();
  }

  /** Whether {@code id} is the first words of {@code tokens} run together ("rtx", "4090", "super" starts with rtx4090). */
  private static boolean leadingWords(List<String> tokens, String id) {
    StringBuilder sb = new StringBuilder();
    for (String t : tokens) {
      sb.append(t);
      if (sb.toString().equals(id)) return tokens.size() > 1;
      if (sb.length() >= id.length()) return false;
    }
    return false;
  }

  /** Lowercase letters and digits only: the form every spelling is compared in. */
  static String key(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      if (Character.isLetterOrDigit(c)) sb.append(c);
    }
    return sb.toString();
  }

  public Optional<Gpu> find(String spelling) {
    return spelling == null ? Optional.empty() : Optional.ofNullable(byKey.get(key(spelling)));
  }

  /** The card a spelling names; fails with a message naming the spelling and close matches. */
  public Gpu resolve(String spelling) {
    return find(spelling).orElseThrow(() -> {
      List<String> close = nearest(spelling);
      return new UnknownGpuException(spelling, "unknown GPU '" + spelling + "'"
          + (close.isEmpty() ? "; see config/gpus.yaml for the known cards" : "; did you mean " + String.join(", ", close) + "?"), close);
    });
  }

  public Optional<Gpu> byId(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  public Collection<Gpu> all() {
    return byId.values();
  }

  private List<String> nearest(String spelling) {
    String k = key(String.valueOf(spelling));
    List<String> tokens = java.util.Arrays.stream(String.valueOf(spelling).toLowerCase(Locale.ROOT).split("[^a-z0-9]+"))
        .filter(t -> !t.isEmpty()).toList();
    // A suggestion contains what was typed, or is made of its leading words: "a100 pcie" suggests the
    // A100 PCIe cards, never the A10 whose id is only a prefix of a word typed.
    List<String> close = keyed.stream()
        .filter(g -> !k.isEmpty() && (g.id().contains(k) || leadingWords(tokens, g.id())
            || g.aliases().stream().anyMatch(a -> a.contains(k))))
        .map(g -> g.gpu().id()).limit(5).toList();
    return close;
  }
}
