package dev.gpurent.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads YAML files into plain maps, lists, strings, numbers and booleans. Dates stay text
 * (so values can become JSON unchanged), and any syntax error becomes one line naming the
 * file, line and column.
 *
 * <p>A document is refused when it would expand to more than {@link #MAX_NODES} values
 * ({@link #MAX_SHEET_NODES} for price sheets). Aliases make the parsed graph small and its
 * expansion huge (49 nested aliases in 567 bytes expand to gigabytes the first time anything
 * walks or prints the value), so the bound is on the expanded count, counted once after
 * loading with a budget: that walk stops at the limit, never at the expansion. A value that holds
 * itself through an alias ({@code x: &a [*a]}) is refused as such. Duplicate keys are refused.
 */
public final class YamlFiles {

  /** Values (maps, lists, scalars) a scenario, fleet or configuration file may expand to. */
  public static final long MAX_NODES = 100_000;
  /** The same for price sheets of a few MB. */
  public static final long MAX_SHEET_NODES = 20_000_000;

  private YamlFiles() {}

  public static Object load(Path file) {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(r, file.toString());
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  public static Object parse(Reader reader, String where) {
    return parse(reader, where, false);
  }

  /**
   * As {@link #parse(Reader, String)}, but numbers with a fraction or exponent stay text
   * ({@code hour: 4.80478794} gives the String "4.80478794"), so that prices become exact
   * BigDecimals instead of passing through a double. Integers are still numbers.
   */
  public static Object parseDecimalsAsText(Reader reader, String where) {
    return parse(reader, where, true);
  }

  private static Object parse(Reader reader, String where, boolean decimalsAsText) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    if (decimalsAsText) options.setCodePointLimit(64 * 1024 * 1024);  // price sheets of a few MB (default limit: 3 MB)
    Yaml yaml = new Yaml(new SafeConstructor(options), new Representer(new DumperOptions()), new DumperOptions(), options,
        new TextDatesResolver(decimalsAsText));
    Object doc;
    try {
      doc = yaml.load(reader);
    } catch (MarkedYAMLException e) {
      Mark m = e.getProblemMark();
      String at = m == null ? where : where + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1);
      throw new IllegalArgumentException(at + ": malformed YAML: " + e.getProblem());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(where + ": malformed YAML: " + e.getMessage());
    }
    long limit = decimalsAsText ? MAX_SHEET_NODES : MAX_NODES;
    long values;
    try {
      values = count(doc, limit);
    } catch (IllegalArgumentException cycle) {
      throw new IllegalArgumentException(where + ": refused: " + cycle.getMessage());
    }
    if (values > limit) {
      throw new IllegalArgumentException(where + ": refused: the document expands to more than " + limit
          + " values (aliases repeat what they name)");
    }
    return doc;
  }

  /**
   * Values in the expanded tree under {@code root}, counted until {@code budget} is passed. The walk
   * keeps its own stack (a deep document must not overflow the thread's), and refuses a value that
   * holds itself ({@code x: &a [*a]}): its expansion never ends, and so would anything that walked it.
   *
   * @throws IllegalArgumentException for such a cycle
   */
  static long count(Object root, long budget) {
    long n = 0;
    Deque<Iterator<?>> open = new ArrayDeque<>();
    Deque<Object> path = new ArrayDeque<>();
    Set<Object> onPath = Collections.newSetFromMap(new IdentityHashMap<>());
    Object next = root;
    while (true) {
      if (++n > budget) return n;
      Iterator<?> children = children(next);
      if (children != null) {
        if (!onPath.add(next)) throw new IllegalArgumentException("a value holds itself (a recursive alias such as &a [*a])");
        open.push(children);
        path.push(next);
      }
      while (!open.isEmpty() && !open.peek().hasNext()) {
        open.pop();
        onPath.remove(path.pop());
      }
      if (open.isEmpty()) return n;
      next = open.peek().next();
    }
  }

  /** A map's keys and values, a list's elements; null for a scalar. */
  private static Iterator<?> children(Object o) {
    if (o instanceof Map<?, ?> m) return m.entrySet().stream().flatMap(e -> Stream.of(e.getKey(), e.getValue())).iterator();
    if (o instanceof List<?> l) return l.iterator();
    return null;
  }

  /** YAML 1.1 resolution without timestamps: {@code asOf: 2025-05-09} stays the text "2025-05-09". */
  private static final class TextDatesResolver extends Resolver {
    private final boolean decimalsAsText;

    TextDatesResolver(boolean decimalsAsText) {
      super();  // calls addImplicitResolvers() before the field is set: those defaults are replaced below
      this.decimalsAsText = decimalsAsText;
      yamlImplicitResolvers.clear();
      addResolvers();
    }

    @Override
    protected void addImplicitResolvers() {
      addResolvers();
    }

    private void addResolvers() {
      addImplicitResolver(Tag.BOOL, BOOL, "yYnNtTfFoO");
      addImplicitResolver(Tag.INT, INT, "-+0123456789");
      if (!decimalsAsText) addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
      addImplicitResolver(Tag.MERGE, MERGE, "<");
      addImplicitResolver(Tag.NULL, NULL, "~nN\0");
      addImplicitResolver(Tag.NULL, EMPTY, null);
    }
  }
}
