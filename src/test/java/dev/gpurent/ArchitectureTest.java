package dev.gpurent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rules of docs/ARCHITECTURE.md, held by reading the sources: which package may use
 * which, no package cycle, and the document's package list and addresses matching the code.
 * References are import lines and fully qualified names in code (comments left out).
 */
class ArchitectureTest {

  private static final Path MAIN = Path.of("src/main/java");
  private static final String ROOT = "dev.gpurent";
  private static final String SERVICE = ROOT + ".service";
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.gpurent(?:\\.[a-z]\\w*)*)\\.[A-Z]\\w*");

  /** Each package of src/main and the packages it uses, with the files that do. */
  private static Map<String, Map<String, Set<String>>> uses() throws IOException {
    Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String text = Files.readString(f);
        Matcher p = PACKAGE.matcher(text);
        assertTrue(p.find(), f + " has no package line");
        String from = p.group(1);
        Map<String, Set<String>> mine = uses.computeIfAbsent(from, k -> new TreeMap<>());
        Matcher m = REFERENCE.matcher(withoutComments(text));
        while (m.find()) {
          String to = m.group(1);
          if (!to.equals(from)) mine.computeIfAbsent(to, k -> new TreeSet<>()).add(f.getFileName().toString());
        }
      }
    }
    return uses;
  }

  /** The code without comments and string literals, so that a {@code {@link}} or a message naming a class is no dependency. */
  static String withoutComments(String java) {
    return java.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "").replaceAll("\"(?:\\\\.|[^\"\\\\\\n])*\"", "\"\"");
  }

  @Test
  void the_service_rooms_talk_over_the_bus_and_only_into_live() throws IOException {
    List<String> wrong = new ArrayList<>();
    uses().forEach((from, to) -> to.forEach((target, files) -> {
      if (!target.startsWith(SERVICE + ".") || from.equals(target)) return;
      boolean bootstrap = from.equals(SERVICE + ".boot");
      boolean intoLive = target.equals(SERVICE + ".live") && Set.of("http", "ranking", "alerts").contains(room(from));
      // outside service/ only the CLI may start the service (serve) or read quotes as the service does (one-shot commands)
      boolean cli = from.equals(ROOT + ".cli") && Set.of(SERVICE + ".boot", SERVICE + ".quotes").contains(target);
      if (!(bootstrap || intoLive || cli)) wrong.add(from + " -> " + target + " " + files);
    }));
    assertEquals(List.of(), wrong);
  }

  @Test
  void the_pure_engine_its_catalog_and_the_alert_rules_know_nothing_of_vertx() throws IOException {
    List<String> wrong = new ArrayList<>();
    try (Stream<Path> files = Files.walk(MAIN.resolve("dev/gpurent"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String pkg = MAIN.relativize(f.getParent()).toString().replace('/', '.');
        if (!Set.of("dev.gpurent.cost", "dev.gpurent.catalog", "dev.gpurent.alert").contains(pkg)) continue;
        if (withoutComments(Files.readString(f)).contains("io.vertx")) wrong.add(f.toString());
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void no_package_cycle() throws IOException {
    Map<String, Map<String, Set<String>>> uses = uses();
    List<String> cycles = new ArrayList<>();
    for (List<String> scc : stronglyConnected(uses)) {
      if (scc.size() < 2) continue;
      StringBuilder why = new StringBuilder(String.join(" <-> ", scc)).append(":");
      for (String a : scc) {
        for (String b : scc) {
          Set<String> files = uses.getOrDefault(a, Map.of()).get(b);
          if (files != null) why.append(" ").append(a.substring(ROOT.length())).append("->").append(b.substring(ROOT.length()))
              .append(files);
        }
      }
      cycles.add(why.toString());
    }
    assertEquals(List.of(), cycles);
  }

  @Test
  void architecture_md_lists_every_package_and_every_address() throws IOException {
    String doc = Files.readString(Path.of("docs/ARCHITECTURE.md"));
    List<String> missing = new ArrayList<>();
    for (String pkg : uses().keySet()) {
      if (pkg.equals(ROOT)) continue;
      String dir = pkg.substring(ROOT.length() + 1).replace('.', '/') + "/";
      String last = dir.substring(dir.lastIndexOf('/', dir.length() - 2) + 1);
      if (!doc.contains(dir) && !doc.contains("  " + last)) missing.add(dir);
    }
    Matcher a = Pattern.compile("public static final String (\\w+) = \"(gpurent\\.[\\w.]+)\"")
        .matcher(Files.readString(MAIN.resolve("dev/gpurent/service/Addresses.java")));
    while (a.find()) {
      if (!doc.contains(a.group(2))) missing.add(a.group(2));
    }
    assertEquals(List.of(), missing, "docs/ARCHITECTURE.md does not name these packages or addresses");
  }

  /** Package names below dev.gpurent.service: "http" for dev.gpurent.service.http, "" for the service package itself. */
  private static String room(String pkg) {
    return pkg.equals(SERVICE) ? "" : pkg.startsWith(SERVICE + ".") ? pkg.substring(SERVICE.length() + 1) : null;
  }

  /** Tarjan's strongly connected components of the package graph. */
  private static List<List<String>> stronglyConnected(Map<String, Map<String, Set<String>>> graph) {
    Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
    java.util.Deque<String> stack = new java.util.ArrayDeque<>();
    Set<String> onStack = new java.util.HashSet<>();
    List<List<String>> out = new ArrayList<>();
    int[] next = {0};
    for (String v : graph.keySet()) {
      if (!index.containsKey(v)) strong(v, graph, index, low, stack, onStack, out, next);
    }
    return out;
  }

  private static void strong(String v, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index, Map<String, Integer> low,
                             java.util.Deque<String> stack, Set<String> onStack, List<List<String>> out, int[] next) {
    index.put(v, next[0]);
    low.put(v, next[0]++);
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
      if (!index.containsKey(w)) {
        strong(w, graph, index, low, stack, onStack, out, next);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> scc = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        scc.add(w);
      } while (!w.equals(v));
      java.util.Collections.sort(scc);
      out.add(scc);
    }
  }
}
