package dev.gpurent.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one map-shaped input object (parsed YAML or JSON): every read names its
 * field path, and {@link #done()} refuses fields nobody read, so a typo never passes silently.
 */
final class Fields {
  private final String path;
  private final Map<String, ?> map;
  private final Set<String> read = new TreeSet<>();

  Fields(String path, Object value) {
    if (!(value instanceof Map<?, ?> m)) throw new InvalidInputException(path.isEmpty() ? "(root)" : path, "must be an object");
    for (Object k : m.keySet()) {
      if (!(k instanceof String)) throw new InvalidInputException(path, "field names must be text, got " + k);
    }
    @SuppressWarnings("unchecked") Map<String, ?> typed = (Map<String, ?>) m;
    this.path = path;
    this.map = typed;
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
    if (v instanceof Map || v instanceof List) throw new InvalidInputException(at(field), "must be text");
    return String.valueOf(v);
  }

  String requiredString(String field) {
    String s = string(field, null);
    if (s == null || s.isBlank()) throw new InvalidInputException(at(field), "is required");
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
        throw new InvalidInputException(at(field), "must be a number, got '" + v + "'");
      }
    }
    if (Double.isNaN(d) || Double.isInfinite(d)) throw new InvalidInputException(at(field), "must be a finite number");
    return d;
  }

  double requiredNumber(String field) {
    if (!has(field)) {
      read.add(field);
      throw new InvalidInputException(at(field), "is required");
    }
    return number(field, 0);
  }

  double positive(String field, double dflt) {
    double d = number(field, dflt);
    if (d <= 0) throw new InvalidInputException(at(field), "must be > 0, got " + fmt(d));
    return d;
  }

  double requiredPositive(String field) {
    double d = requiredNumber(field);
    if (d <= 0) throw new InvalidInputException(at(field), "must be > 0, got " + fmt(d));
    return d;
  }

  double nonNegative(String field, double dflt) {
    double d = number(field, dflt);
    if (d < 0) throw new InvalidInputException(at(field), "must be >= 0, got " + fmt(d));
    return d;
  }

  double between(String field, double dflt, double lo, double hi) {
    double d = number(field, dflt);
    if (d < lo || d > hi) throw new InvalidInputException(at(field), "must be between " + fmt(lo) + " and " + fmt(hi) + ", got " + fmt(d));
    return d;
  }

  boolean bool(String field, boolean dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    if (v instanceof Boolean b) return b;
    String s = String.valueOf(v).trim().toLowerCase();
    if (s.equals("true") || s.equals("yes")) return true;
    if (s.equals("false") || s.equals("no")) return false;
    throw new InvalidInputException(at(field), "must be true or false, got '" + v + "'");
  }

  List<Object> list(String field) {
    Object v = raw(field);
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) throw new InvalidInputException(at(field), "must be a list");
    return new ArrayList<>(l);
  }

  Fields object(String field) {
    Object v = raw(field);
    return v == null ? null : new Fields(at(field), v);
  }

  /** Fails on the first field that was never read: an unknown field or a typo. */
  void done() {
    for (String k : new TreeSet<>(map.keySet())) {
      if (!read.contains(k)) {
        throw new InvalidInputException(at(k), "unknown field; known here: " + String.join(", ", read));
      }
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
