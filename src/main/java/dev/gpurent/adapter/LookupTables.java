package dev.gpurent.adapter;

import dev.gpurent.config.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The lookup tables of an adapter kind, kept as YAML beside the adapter classes
 * ({@code src/main/resources/dev/gpurent/adapter/<kind>.yaml}, each table with its source),
 * read once, when the class that uses them loads. A table that is missing or malformed fails that
 * class at once: it is part of the build, not of the vendor's configuration.
 */
final class LookupTables {

  private final String name;
  private final Map<?, ?> tables;

  private LookupTables(String name, Map<?, ?> tables) {
    this.name = name;
    this.tables = tables;
  }

  /** The tables of resource {@code name} in this package. */
  static LookupTables load(String name) {
    InputStream in = LookupTables.class.getResourceAsStream(name);
    if (in == null) throw new IllegalStateException("no resource dev/gpurent/adapter/" + name);
    try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      if (YamlFiles.parse(r, name) instanceof Map<?, ?> m) return new LookupTables(name, m);
      throw new IllegalStateException(name + ": expected a map of tables");
    } catch (IOException e) {
      throw new UncheckedIOException(name, e);
    }
  }

  /** Table {@code key} as a map, in file order. */
  Map<String, Object> map(String key) {
    if (!(tables.get(key) instanceof Map<?, ?> m)) throw new IllegalStateException(name + ": no table " + key);
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), v));
    return Collections.unmodifiableMap(out);
  }

  /** Table {@code key} as text to text, in file order. */
  Map<String, String> strings(String key) {
    Map<String, String> out = new LinkedHashMap<>();
    map(key).forEach((k, v) -> out.put(k, String.valueOf(v)));
    return Collections.unmodifiableMap(out);
  }
}
