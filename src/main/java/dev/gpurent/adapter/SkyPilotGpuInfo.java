package dev.gpurent.adapter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The {@code GpuInfo} cell of a SkyPilot {@code vms.csv}, read in every form the recorded catalogs
 * write it:
 * <ul>
 *   <li>a Python literal with single quotes: {@code {'Gpus': [{'Name': 'A10', 'Count': 1.0, ...}]}};</li>
 *   <li>JSON with double quotes (primeintellect, verda, spheron; the CSV reader has already turned
 *       the file's doubled quotes back into single ones);</li>
 *   <li>hyperstack's mix of the two, single quotes with a bare {@code null};</li>
 *   <li>a bare card name ({@code V100} on Azure, IBM, Paperspace), which states no memory.</li>
 * </ul>
 * Keys are matched without regard to case (DigitalOcean writes them in lowercase), and numbers may
 * be quoted (Cudo writes {@code 'Count': '1.0'}). {@code TotalGpuMemoryInMiB} may sit at the top
 * level or inside the GPU entry (shadeform, spheron).
 *
 * @param name      the first GPU entry's {@code Name}, or ""
 * @param sizeMiB   its {@code MemoryInfo.SizeInMiB} as written, NaN when absent
 * @param totalMiB  {@code TotalGpuMemoryInMiB} as written, NaN when absent
 */
record SkyPilotGpuInfo(String name, double sizeMiB, double totalMiB) {

  /** The cell read, or empty for a bare name, an empty cell or text that is no literal. */
  static Optional<SkyPilotGpuInfo> parse(String cell) {
    String text = cell == null ? "" : cell.strip();
    if (!text.startsWith("{")) return Optional.empty();
    Object root;
    try {
      Literal p = new Literal(text);
      root = p.value();
      p.end();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!(root instanceof Map<?, ?> top)) return Optional.empty();
    Map<?, ?> gpu = Map.of();
    if (get(top, "Gpus") instanceof List<?> gpus && !gpus.isEmpty() && gpus.get(0) instanceof Map<?, ?> first) gpu = first;
    double size = get(gpu, "MemoryInfo") instanceof Map<?, ?> mem ? number(get(mem, "SizeInMiB")) : Double.NaN;
    double total = number(get(top, "TotalGpuMemoryInMiB"));
    if (Double.isNaN(total)) total = number(get(gpu, "TotalGpuMemoryInMiB"));
    Object name = get(gpu, "Name");
    return Optional.of(new SkyPilotGpuInfo(name == null ? "" : name.toString(), size, total));
  }

  /**
   * Memory per GPU in GiB as the cell states it: {@code TotalGpuMemoryInMiB / count}, else
   * {@code SizeInMiB}. A figure per GPU under 1024 "MiB" is read as GiB: no GPU has less than
   * 1 GiB, and shadeform and RunPod write GB in these fields (48, 80, 141). Empty when the cell
   * states no memory. The figure is only as good as the catalog: primeintellect and verda write
   * the machine's total as {@code SizeInMiB} and count times that as {@code TotalGpuMemoryInMiB}.
   */
  OptionalDouble perGpuGiB(double count) {
    double per;
    if (!Double.isNaN(totalMiB) && totalMiB > 0 && count > 0) per = totalMiB / count;
    else if (!Double.isNaN(sizeMiB) && sizeMiB > 0) per = sizeMiB;
    else return OptionalDouble.empty();
    return OptionalDouble.of(per < 1024 ? per : per / 1024.0);
  }

  /** Which field {@link #perGpuGiB} read, as written: "TotalGpuMemoryInMiB 5242880 over 8 GPUs". */
  String memoryField(double count) {
    if (!Double.isNaN(totalMiB) && totalMiB > 0 && count > 0) {
      return "TotalGpuMemoryInMiB " + plain(totalMiB) + (count == 1 ? "" : " over " + plain(count) + " GPUs");
    }
    return "SizeInMiB " + plain(sizeMiB);
  }

  private static String plain(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static Object get(Map<?, ?> m, String key) {
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (e.getKey() != null && e.getKey().toString().equalsIgnoreCase(key)) return e.getValue();
    }
    return null;
  }

  private static double number(Object v) {
    if (v instanceof Number n) return n.doubleValue();
    if (v instanceof String s) {
      try {
        return Double.parseDouble(s.strip());
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  /**
   * A small reader for the literals above: dicts, lists, quoted strings (either quote, backslash
   * escapes), numbers, and the words None/null/True/true/False/false. Anything else fails with
   * IllegalArgumentException.
   */
  private static final class Literal {
    private final String s;
    private int i;

    Literal(String s) {
      this.s = s;
    }

    void end() {
      skip();
      if (i != s.length()) throw fail("text after the value");
    }

    Object value() {
      skip();
      if (i >= s.length()) throw fail("a value");
      char c = s.charAt(i);
      if (c == '{') return dict();
      if (c == '[') return list();
      if (c == '\'' || c == '"') return string();
      if (c == '-' || c == '+' || c == '.' || Character.isDigit(c)) return number();
      if (Character.isLetter(c)) return word();
      throw fail("a value");
    }

    private Map<Object, Object> dict() {
      Map<Object, Object> m = new LinkedHashMap<>();
      i++;
      while (true) {
        skip();
        if (peek() == '}') {
          i++;
          return m;
        }
        Object key = value();
        skip();
        expect(':');
        m.put(key, value());
        skip();
        if (peek() == ',') i++;
        else if (peek() != '}') throw fail("',' or '}'");
      }
    }

    private List<Object> list() {
      List<Object> l = new ArrayList<>();
      i++;
      while (true) {
        skip();
        if (peek() == ']') {
          i++;
          return l;
        }
        l.add(value());
        skip();
        if (peek() == ',') i++;
        else if (peek() != ']') throw fail("',' or ']'");
      }
    }

    private String string() {
      char quote = s.charAt(i++);
      StringBuilder sb = new StringBuilder();
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == quote) return sb.toString();
        if (c == '\\' && i < s.length()) c = s.charAt(i++);
        sb.append(c);
      }
      throw fail("a closing quote");
    }

    private Double number() {
      int start = i;
      while (i < s.length() && "+-.eE0123456789".indexOf(s.charAt(i)) >= 0) i++;
      try {
        return Double.parseDouble(s.substring(start, i));
      } catch (NumberFormatException e) {
        throw fail("a number");
      }
    }

    private Object word() {
      int start = i;
      while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) i++;
      String w = s.substring(start, i);
      switch (w.toLowerCase(Locale.ROOT)) {
        case "none", "null": return null;
        case "true": return Boolean.TRUE;
        case "false": return Boolean.FALSE;
        default: throw fail("a literal, not '" + w + "'");
      }
    }

    private void expect(char c) {
      if (peek() != c) throw fail("'" + c + "'");
      i++;
    }

    private char peek() {
      return i < s.length() ? s.charAt(i) : '\0';
    }

    private void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private IllegalArgumentException fail(String expected) {
      return new IllegalArgumentException("expected " + expected + " at " + i);
    }
  }
}
