package dev.gpurent.catalog;

import dev.gpurent.config.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Where vendors' regions are: the country (ISO 3166-1 alpha-2) of each region id an adapter
 * emits, from {@code config/regions.yaml}, and the continent of each country. Pure Java, no
 * Vert.x; immutable once loaded.
 *
 * <p>The file has two sections. {@code tables}: one table per region namespace ({@code aws},
 * {@code azure}, {@code vast}, ...), each mapping region ids to a country code. {@code rules}:
 * per table, an ordered list of {@code {match: <regex>, country: <code or $1>}} for namespaces
 * whose region ids carry the country themselves (Vast's "Sverdlovsk Oblast, RU, EU"). A lookup
 * tries the table's exact entry, then its entry ignoring case, then its rules; {@code $1} is the
 * first group, upper-cased, and counts only when it is a country this class knows. A country
 * of {@code ""} marks a region that is listed on purpose as naming no country (a continent, a
 * vendor-wide "default"): {@link #country} answers empty for it as for an unknown region, and
 * {@link #isListed} tells the two apart. Every code written in the file must be a known country,
 * so a typo ("UK") fails the load.
 *
 * <p>Continents come from the classpath resource {@code dev/gpurent/catalog/continents.yaml}
 * (UN M49 regions, the Americas split into north and south), so {@link #continentOf} needs no
 * loaded file.
 */
public final class Regions {

  /** The six continents {@link #continentOf} answers with. */
  public static final List<String> CONTINENTS =
      List.of("africa", "asia", "europe", "north-america", "south-america", "oceania");

  private static final Pattern CODE = Pattern.compile("[A-Z]{2}");

  private final Map<String, Map<String, String>> tables;
  private final Map<String, Map<String, String>> folded;
  private final Map<String, List<Rule>> rules;

  private record Rule(Pattern match, String country) {}

  private Regions(Map<String, Map<String, String>> tables, Map<String, List<Rule>> rules) {
    this.tables = tables;
    this.rules = rules;
    Map<String, Map<String, String>> f = new HashMap<>();
    tables.forEach((t, m) -> {
      Map<String, String> lower = new HashMap<>();
      m.forEach((region, country) -> lower.putIfAbsent(region.toLowerCase(Locale.ROOT), country));
      f.put(t, Map.copyOf(lower));
    });
    this.folded = Map.copyOf(f);
  }

  /** No tables: every region is unknown. For callers that have no regions file. */
  public static Regions none() {
    return new Regions(Map.of(), Map.of());
  }

  /** Reads {@code config/regions.yaml} (or another file of that shape); fails naming the file and the entry. */
  public static Regions load(Path file) {
    return parse(YamlFiles.load(file), file.toString());
  }

  /** Builds the tables from a parsed YAML root ({@code where} names it in messages). */
  public static Regions parse(Object root, String where) {
    if (!(root instanceof Map<?, ?> top)) throw new IllegalArgumentException(where + ": expected a map with tables and rules");
    Map<String, Map<String, String>> tables = new LinkedHashMap<>();
    if (top.get("tables") instanceof Map<?, ?> ts) {
      for (Map.Entry<?, ?> t : ts.entrySet()) {
        String table = String.valueOf(t.getKey());
        Map<String, String> m = new LinkedHashMap<>();
        if (t.getValue() instanceof Map<?, ?> entries) {
          for (Map.Entry<?, ?> e : entries.entrySet()) {
            String at = where + ": tables." + table + "." + e.getKey();
            m.put(String.valueOf(e.getKey()), code(e.getValue(), at, true));
          }
        } else if (t.getValue() != null) {
          throw new IllegalArgumentException(where + ": tables." + table + ": expected a map of region: country");
        }
        tables.put(table, Map.copyOf(m));
      }
    } else if (top.get("tables") != null) {
      throw new IllegalArgumentException(where + ": tables: expected a map of tables");
    }
    Map<String, List<Rule>> rules = new LinkedHashMap<>();
    if (top.get("rules") instanceof Map<?, ?> rs) {
      for (Map.Entry<?, ?> t : rs.entrySet()) {
        String table = String.valueOf(t.getKey());
        List<Rule> list = new ArrayList<>();
        if (!(t.getValue() instanceof List<?> items)) {
          throw new IllegalArgumentException(where + ": rules." + table + ": expected a list of {match, country}");
        }
        for (int i = 0; i < items.size(); i++) {
          String at = where + ": rules." + table + "[" + i + "]";
          if (!(items.get(i) instanceof Map<?, ?> r) || r.get("match") == null || r.get("country") == null) {
            throw new IllegalArgumentException(at + ": expected {match: <regex>, country: <code or $1>}");
          }
          Pattern p;
          try {
            p = Pattern.compile(String.valueOf(r.get("match")));
          } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(at + ".match: not a regular expression: " + e.getDescription());
          }
          String country = String.valueOf(r.get("country"));
          if (!country.equals("$1")) country = code(r.get("country"), at + ".country", false);
          else if (p.matcher("").groupCount() < 1) throw new IllegalArgumentException(at + ": country $1 needs a group in match");
          list.add(new Rule(p, country));
        }
        rules.put(table, List.copyOf(list));
      }
    } else if (top.get("rules") != null) {
      throw new IllegalArgumentException(where + ": rules: expected a map of table: [rules]");
    }
    return new Regions(Map.copyOf(tables), Map.copyOf(rules));
  }

  private static String code(Object v, String at, boolean blankAllowed) {
    if (v instanceof Boolean) {
      throw new IllegalArgumentException(at + ": " + v + " is a YAML boolean: quote the code (\"NO\" is Norway)");
    }
    String s = v == null ? "" : String.valueOf(v).trim();
    if (s.isEmpty() && blankAllowed) return "";
    if (!CODE.matcher(s).matches() || !Continents.BY_COUNTRY.containsKey(s)) {
      throw new IllegalArgumentException(at + ": '" + s + "' is not an ISO 3166-1 alpha-2 country code"
          + (blankAllowed ? " (\"\" for a region that names no country)" : ""));
    }
    return s;
  }

  /**
   * The country of {@code region} in {@code table}: empty when the table does not place it, when
   * it is listed as naming no country, or when the table or region is blank.
   */
  public Optional<String> country(String table, String region) {
    if (table == null || region == null || region.isBlank()) return Optional.empty();
    Map<String, String> m = tables.get(table);
    if (m != null) {
      String c = m.get(region);
      if (c == null) c = folded.get(table).get(region.toLowerCase(Locale.ROOT));
      if (c != null) return c.isEmpty() ? Optional.empty() : Optional.of(c);
    }
    for (Rule r : rules.getOrDefault(table, List.of())) {
      Matcher mm = r.match().matcher(region);
      if (!mm.matches()) continue;
      String c = r.country().equals("$1") ? mm.group(1).toUpperCase(Locale.ROOT) : r.country();
      if (Continents.BY_COUNTRY.containsKey(c)) return Optional.of(c);
    }
    return Optional.empty();
  }

  /** Whether the table says anything about the region: placed, or listed as naming no country. */
  public boolean isListed(String table, String region) {
    if (country(table, region).isPresent()) return true;
    Map<String, String> m = tables.get(table);
    return m != null && region != null
        && "".equals(m.getOrDefault(region, folded.get(table).get(region.toLowerCase(Locale.ROOT))));
  }

  /** The tables the file defines (with entries or rules). */
  public Set<String> tables() {
    Set<String> all = new TreeSet<>(tables.keySet());
    all.addAll(rules.keySet());
    return all;
  }

  /** The region ids one table lists explicitly, with their countries ("" for none). */
  public Map<String, String> entries(String table) {
    return tables.getOrDefault(table, Map.of());
  }

  /**
   * The continent of an ISO 3166-1 alpha-2 country code (any case): one of {@link #CONTINENTS},
   * empty for a code that is not a country (or is Antarctica).
   */
  public static Optional<String> continentOf(String country) {
    if (country == null) return Optional.empty();
    return Optional.ofNullable(Continents.BY_COUNTRY.get(country.trim().toUpperCase(Locale.ROOT)));
  }

  /** The countries with a continent: every ISO 3166-1 code but Antarctica's. */
  public static Set<String> countries() {
    return new TreeSet<>(Continents.BY_COUNTRY.keySet());
  }

  /** The continent table, read once from the classpath. */
  private static final class Continents {
    static final Map<String, String> BY_COUNTRY = read();

    private static Map<String, String> read() {
      String name = "continents.yaml";
      try (InputStream in = Regions.class.getResourceAsStream(name)) {
        if (in == null) throw new IllegalStateException("classpath resource dev/gpurent/catalog/" + name + " is missing");
        Reader r = new InputStreamReader(in, StandardCharsets.UTF_8);
        if (!(YamlFiles.parse(r, name) instanceof Map<?, ?> top)) throw new IllegalStateException(name + ": expected a map");
        Map<String, String> m = new HashMap<>();
        for (Map.Entry<?, ?> e : top.entrySet()) {
          String continent = String.valueOf(e.getKey());
          if (!CONTINENTS.contains(continent)) throw new IllegalStateException(name + ": unknown continent " + continent);
          for (Object c : (List<?>) e.getValue()) {
            String code = String.valueOf(c);
            if (!CODE.matcher(code).matches() || m.put(code, continent) != null) {
              throw new IllegalStateException(name + ": " + continent + ": '" + code + "' is not a code, or listed twice");
            }
          }
        }
        return Map.copyOf(m);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
