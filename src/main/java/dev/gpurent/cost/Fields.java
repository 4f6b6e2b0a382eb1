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
 *
 * <p>Every number has a range. The bounded readers ({@link #between}, {@link #positive(String,
 * double, double)}, ...) name it in the refusal; the older unbounded ones still refuse anything
 * beyond {@link #SANE}, so that no reader hands the engine a figure whose arithmetic overflows.
 * A refused value is never rendered whole: a list or map is named by its kind (an aliased YAML
 * list can expand to gigabytes), and text is cut to {@link #SHOWN} characters.
 */
final class Fields {
  /** The largest magnitude any number may have, whatever its field. */
  static final double SANE = 1e15;
  /** Longest text value accepted (names, ids, codes). */
  static final int MAX_TEXT = 256;
  /** How much of a refused value a message repeats. */
  static final int SHOWN = 40;

  private final String path;
  private final Map<String, ?> map;
  private final Problems problems;
  private final Set<String> read = new TreeSet<>();

  /** Every problem found while reading one input. */
  static final class Problems {
    /** Problems reported one by one; past this many an input is only counted, so that a refusal stays small. */
    static final int MAX = 50;
    private final List<InvalidInputException.Problem> list = new ArrayList<>();
    private int more;

    void add(String field, String reason) {
      add(new InvalidInputException.Problem(field, reason));
    }

    void add(String field, dev.gpurent.text.Message reason) {
      add(new InvalidInputException.Problem(field, reason));
    }

    void add(InvalidInputException.Problem p) {
      if (list.size() < MAX) list.add(p);
      else more++;
    }

    /** Runs {@code read}; a failure in it is recorded and {@code dflt} returned instead. */
    <T> T attempt(java.util.function.Supplier<T> read, T dflt) {
      try {
        return read.get();
      } catch (InvalidInputException e) {
        e.problems().forEach(this::add);
        return dflt;
      }
    }

    void throwIfAny() {
      if (list.isEmpty()) return;
      List<InvalidInputException.Problem> all = new ArrayList<>(list);
      if (more > 0) all.add(new InvalidInputException.Problem("(more)", more + " more problems not listed"));
      throw new InvalidInputException(all);
    }
  }

  Fields(String path, Object value, Problems problems) {
    this.path = path;
    this.problems = problems;
    Map<String, ?> typed = Map.of();
    if (!(value instanceof Map<?, ?> m)) {
      problems.add(path.isEmpty() ? "(root)" : path, say("input.object"));
    } else if (m.keySet().stream().anyMatch(k -> !(k instanceof String))) {
      problems.add(path.isEmpty() ? "(root)" : path, say("input.names"));
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
  <T> T fail(String field, dev.gpurent.text.Message reason, T dflt) {
    problems.add(at(field), reason);
    return dflt;
  }

  /** A reason of the {@code engine} bundle's {@code input.*} codes, in every language. */
  static dev.gpurent.text.Message say(String code, Object... nameValues) {
    return dev.gpurent.text.Message.of(code, nameValues);
  }

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
    if (!(v instanceof String || v instanceof Number || v instanceof Boolean)) return fail(field, say("input.text"), dflt);
    String s = String.valueOf(v);
    if (s.length() > MAX_TEXT) return fail(field, say("input.textLength", "max", MAX_TEXT, "length", s.length()), dflt);
    return s;
  }

  String requiredString(String field) {
    String s = string(field, null);
    if (s == null || s.isBlank()) return fail(field, say("input.required"), null);
    return s;
  }

  double number(String field, double dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    double d;
    if (v instanceof Number n) {
      d = n.doubleValue();
    } else if (v instanceof String text) {
      try {
        d = Double.parseDouble(text.trim());
      } catch (NumberFormatException e) {
        return fail(field, say("input.numberText", "got", shown(text)), dflt);
      }
    } else {
      return fail(field, say("input.numberKind", "detail", kindOf(v)), dflt);
    }
    if (Double.isNaN(d) || Double.isInfinite(d)) return fail(field, say("input.finite"), dflt);
    if (Math.abs(d) > SANE) return fail(field, say("input.sane", "max", fmt(SANE), "got", fmt(d)), dflt);
    return d;
  }

  /** A value's kind, for a refusal: never the value itself, which may be huge. */
  static String kindOf(Object v) {
    if (v instanceof java.util.Map) return "an object";
    if (v instanceof List) return "a list";
    if (v instanceof Boolean b) return b.toString();
    if (v instanceof byte[]) return "binary data";
    return "a " + v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }

  /** Text as a refusal repeats it: cut to {@link #SHOWN} characters. */
  static String shown(String s) {
    return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "...";
  }

  double requiredNumber(String field) {
    if (!has(field)) {
      read.add(field);
      return fail(field, say("input.required"), Double.NaN);
    }
    return number(field, Double.NaN);
  }

  double positive(String field, double dflt) {
    double d = number(field, dflt);
    if (d <= 0) return fail(field, say("input.positive", "got", fmt(d)), 1.0);
    return d;
  }

  /** A required number above zero; 1 stands in for a missing or bad one (already recorded). */
  double requiredPositive(String field) {
    double d = requiredNumber(field);
    if (Double.isNaN(d)) return 1.0;
    if (d <= 0) return fail(field, say("input.positive", "got", fmt(d)), 1.0);
    return d;
  }

  double nonNegative(String field, double dflt) {
    double d = number(field, dflt);
    if (d < 0) return fail(field, say("input.nonNegative", "got", fmt(d)), 0.0);
    return d;
  }

  double between(String field, double dflt, double lo, double hi) {
    double d = number(field, dflt);
    if (d < lo || d > hi) return fail(field, say("input.between", "lo", fmt(lo), "hi", fmt(hi), "got", fmt(d)), dflt);
    return d;
  }

  /** A number in (0, hi]: above zero and at most {@code hi}. */
  double positive(String field, double dflt, double hi) {
    double d = positive(field, dflt);
    if (d > hi) return fail(field, say("input.positiveAtMost", "hi", fmt(hi), "got", fmt(d)), dflt);
    return d;
  }

  /** A required number in (0, hi]; 1 stands in for a missing or bad one (already recorded). */
  double requiredPositive(String field, double hi) {
    double d = requiredPositive(field);
    if (d > hi) return fail(field, say("input.positiveAtMost", "hi", fmt(hi), "got", fmt(d)), 1.0);
    return d;
  }

  /** A required number in [lo, hi]; {@code lo} stands in for a missing or bad one (already recorded). */
  double requiredBetween(String field, double lo, double hi) {
    double d = requiredNumber(field);
    if (Double.isNaN(d)) return lo;
    if (d < lo || d > hi) return fail(field, say("input.between", "lo", fmt(lo), "hi", fmt(hi), "got", fmt(d)), lo);
    return d;
  }

  /** 0 (the field's "not given") or a number in [lo, hi]: below {@code lo} a figure is too small to mean anything. */
  double zeroOrBetween(String field, double dflt, double lo, double hi) {
    double d = number(field, dflt);
    if (d != 0 && (d < lo || d > hi)) return fail(field, say("input.zeroOrBetween", "lo", fmt(lo), "hi", fmt(hi), "got", fmt(d)), dflt);
    return d;
  }

  /** A number in [0, hi]. */
  double nonNegative(String field, double dflt, double hi) {
    double d = nonNegative(field, dflt);
    if (d > hi) return fail(field, say("input.between", "lo", "0", "hi", fmt(hi), "got", fmt(d)), dflt);
    return d;
  }

  boolean bool(String field, boolean dflt) {
    Object v = raw(field);
    if (v == null) return dflt;
    if (v instanceof Boolean b) return b;
    // text is refused, "true" included: "yes", "no", "off" or "0" would each be a guess (YAML's bare yes/no are already booleans)
    if (v instanceof String text) return fail(field, say("input.boolText", "got", shown(text)), dflt);
    return fail(field, say("input.boolKind", "detail", kindOf(v)), dflt);
  }

  List<Object> list(String field) {
    Object v = raw(field);
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) return fail(field, say("input.list"), List.of());
    return new ArrayList<>(l);
  }

  /** A list of texts; each element must be text. A single text is refused, not guessed to be a one-element list. */
  List<String> strings(String field) {
    Object v = raw(field);
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) return fail(field, say("input.list"), List.of());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      Object e = l.get(i);
      if (e == null || e instanceof Map || e instanceof List || String.valueOf(e).isBlank()) {
        problems.add(at(field) + "[" + i + "]", say("input.text"));
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

  /** Marks every field read: an input refused as a whole (an unknown model) is not also refused field by field. */
  void readAll() {
    read.addAll(map.keySet());
  }

  /** Records every field that was never read: an unknown field or a typo. */
  void done() {
    for (String k : new TreeSet<>(map.keySet())) {
      if (!read.contains(k)) problems.add(at(shown(k)), say("input.unknown", "known", String.join(", ", read)));
    }
  }

  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) <= 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
