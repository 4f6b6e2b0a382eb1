package dev.gpurent.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one map-shaped input object (parsed YAML or JSON): every read names its
 * field path, and {@link #done()} refuses fields nobody read, so a typo never passes silently.
 * A bad value is recorded in the shared {@link Problems} and a harmless default returned, so
 * that one reading reports every bad field at once.
 */
final class Fields {
  private final String path;
  private final Map<String, ?> map;
  private final Problems problems;
  private final Set<String> read = new TreeSet<>();

  /** Every problem found while reading one input. */
  static final class Problems {
    private final List<InvalidInputException.Problem> list = new ArrayList<>();

    void add(String field, String reason) {
      list.add(new InvalidInputException.Problem(field, reason));
    }

    /** Runs {@code read}; a failure in it is recorded and {@code dflt} returned instead. */
    <T> T attempt(java.util.function.Supplier<T> read, T dflt) {
      try {
        return read.get();
      } catch (InvalidInputException e) {
        list.addAll(e.problems());
        return dflt;
      }
    }

    void throwIfAny() {
      if (!list.isEmpty()) throw new InvalidInputException(list);
    }
  }

  Fields(String path, Object value, Problems problems) {
    this.path = path;
    this.problems = problems;
    Map<String, ?> typed = Map.of();
    if (!(value instanceof Map<?, ?> m)) {
      problems.add(path.isEmpty() ? "(root)" : path, "must be an object");
    } else if (m.keySet().stream().anyMatch(k -> !(k instanceof String))) {
      problems.add(path.isEmpty() ? "(root)" : path, "field names must be text");
    } else {
      @SuppressWarnings("unchecked") Map<String, ?> cast = (Map<String, ?>) m;
      typed = cast;
    }
    this.map = typed;
  }

  Problems problems() {
    return problems;
  }

  /** Records a problem with {@code field} and returns {@code dflt}. */
  <T> T fail(String field, String reason, T dflt) {
    problems.add(at(field), reason);
    return dflt;
  }

  String at(String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  boolean has(String field) {
    return map.get(field) != null;
  }

  Object raw(String field) {
    read.add(field);
    return map.get(field);
  }

  String string(String field, String dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    if (v instanceof Map || v instanceof List) return fail(field, "must be text", dflt);
    return String.valueOf(v);
  }

  String requiredString(String field) {
    String s = string(field, null);
    if (s == null || s.isBlank()) return fail(field, "is required", null);
    return s;
  }

  double number(String field, double dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    double d;
    if (v instanceof Number n) {
      d = n.doubleValue();
    } else {
      try {
        d = Double.parseDouble(String.valueOf(v).trim());
      } catch (NumberFormatException e) {
        return fail(field, "must be a number, got '" + v + "'", dflt);
      }
    }
    if (Double.isNaN(d) || Double.isInfinite(d)) return fail(field, "must be a finite number", dflt);
    return d;
  }

  double requiredNumber(String field) {
    if (!has(field)) {
      read.add(field);
      return fail(field, "is required", Double.NaN);
    }
    return number(field, Double.NaN);
  }

  double positive(String field, double dflt) {
    double d = number(field, dflt);
    if (d <= 0) return fail(field, "must be > 0, got " + fmt(d), 1.0);
    return d;
  }

  /** A required number above zero; 1 stands in for a missing or bad one (already recorded). */
  double requiredPositive(String field) {
    double d = requiredNumber(field);
    if (Double.isNaN(d)) return 1.0;
    if (d <= 0) return fail(field, "must be > 0, got " + fmt(d), 1.0);
    return d;
  }

  double nonNegative(String field, double dflt) {
    double d = number(field, dflt);
    if (d < 0) return fail(field, "must be >= 0, got " + fmt(d), 0.0);
    return d;
  }

  double between(String field, double dflt, double lo, double hi) {
    double d = number(field, dflt);
    if (d < lo || d > hi) return fail(field, "must be between " + fmt(lo) + " and " + fmt(hi) + ", got " + fmt(d), dflt);
    return d;
  }

  boolean bool(String field, boolean dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    if (v instanceof Boolean b) return b;
    String s = String.valueOf(v).trim().toLowerCase();
    if (s.equals("true") || s.equals("yes")) return true;
    if (s.equals("false") || s.equals("no")) return false;
    return fail(field, "must be true or false, got '" + v + "'", dflt);
  }

  List<Object> list(String field) {
    Object v = raw(field);
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) return fail(field, "must be a list", List.of());
    return new ArrayList<>(l);
  }

  /** A list of texts (a single text is taken as a one-element list); each element must be text. */
  List<String> strings(String field) {
    Object v = raw(field);
    if (v == null) return List.of();
    List<?> l = v instanceof List<?> list ? list : List.of(v);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      Object e = l.get(i);
      if (e == null || e instanceof Map || e instanceof List || String.valueOf(e).isBlank()) {
        problems.add(at(field) + "[" + i + "]", "must be text");
      } else {
        out.add(String.valueOf(e).trim());
      }
    }
    return out;
  }

  Fields object(String field) {
    Object v = raw(field);
    return v == null ? null : new Fields(at(field), v, problems);
  }

  /** Records every field that was never read: an unknown field or a typo. */
  void done() {
    for (String k : new TreeSet<>(map.keySet())) {
      if (!read.contains(k)) problems.add(at(k), "unknown field; known here: " + String.join(", ", read));
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
