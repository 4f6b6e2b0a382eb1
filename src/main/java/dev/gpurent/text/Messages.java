package dev.gpurent.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One bundle of templates in one language, read from {@code messages/<bundle>_<lang>.properties}
 * (UTF-8). A template names its arguments in braces: {@code "{count} x {gpu}"}; a brace is
 * written {@code {{}. A missing code or argument is a programming error and fails loudly: a
 * bill must never show a half-made sentence.
 */
public final class Messages {

  /** Per bundle, per language (by ordinal): looked up for every message rendered, so without making a key. */
  private static final Map<String, Messages[]> LOADED = new ConcurrentHashMap<>();

  private final String bundle;
  private final Lang lang;
  private final Properties templates;

  private Messages(String bundle, Lang lang, Properties templates) {
    this.bundle = bundle;
    this.lang = lang;
    this.templates = templates;
  }

  /** The bundle {@code bundle} in {@code lang}, read once. */
  public static Messages of(String bundle, Lang lang) {
    Messages[] byLang = LOADED.computeIfAbsent(bundle, b -> new Messages[Lang.values().length]);
    Messages m = byLang[lang.ordinal()];
    if (m == null) {
      // a race reads the file twice and keeps either: the same templates
      m = new Messages(bundle, lang, load(bundle + "_" + lang.tag()));
      byLang[lang.ordinal()] = m;
    }
    return m;
  }

  public Lang lang() {
    return lang;
  }

  /** The codes this bundle defines, for tests that hold the languages to the same set. */
  public java.util.Set<String> codes() {
    return templates.stringPropertyNames();
  }

  /** Whether this bundle defines {@code code}. */
  public boolean has(String code) {
    return templates.containsKey(code);
  }

  /** The raw template of a code. */
  public String template(String code) {
    String t = templates.getProperty(code);
    if (t == null) throw new IllegalArgumentException("no message '" + code + "' in " + bundle + "_" + lang.tag());
    return t;
  }

  public String text(String code, Object... nameValues) {
    return render(Message.of(code, nameValues));
  }

  public String render(Message m) {
    // "seq": parts read one after the other, the one way to build a sentence of clauses in any language.
    if (m.code().equals("seq") && m.args().get("parts") instanceof List<?> parts) {
      StringBuilder sb = new StringBuilder();
      for (Object o : parts) sb.append(value(o));
      return sb.toString();
    }
    // "pick": one text per language, given whole by a shipped file (a quote sheet's headers); this language's one.
    if (m.code().equals("pick") && m.args().containsKey(lang.tag())) return value(m.args().get(lang.tag()));
    String t = template(m.code());
    StringBuilder out = new StringBuilder(t.length() + 32);
    int i = 0;
    while (i < t.length()) {
      char c = t.charAt(i);
      if (c != '{') {
        out.append(c);
        i++;
        continue;
      }
      if (t.startsWith("{{}", i)) {
        out.append('{');
        i += 3;
        continue;
      }
      int end = t.indexOf('}', i);
      if (end < 0) throw new IllegalArgumentException(m.code() + ": unclosed brace in " + bundle + "_" + lang.tag());
      String name = t.substring(i + 1, end);
      if (!m.args().containsKey(name)) {
        throw new IllegalArgumentException(m.code() + ": argument '" + name + "' missing (" + bundle + "_" + lang.tag() + ")");
      }
      out.append(value(m.args().get(name)));
      i = end + 1;
    }
    return out.toString();
  }

  /** The argument names a template uses, in order, for tests that hold the languages to the same arguments. */
  public List<String> argumentsOf(String code) {
    String t = template(code).replace("{{}", "");
    List<String> names = new ArrayList<>();
    for (int i = t.indexOf('{'); i >= 0; i = t.indexOf('{', i + 1)) {
      int end = t.indexOf('}', i);
      if (end > i) names.add(t.substring(i + 1, end));
    }
    return names;
  }

  private String value(Object v) {
    // A nested message may come from another bundle (an engine sentence naming a billing mode of common's).
    if (v instanceof Message nested) return has(nested.code()) ? render(nested) : Localizer.text(nested, lang);
    if (v instanceof dev.gpurent.quote.Money money) return Localizer.money(money, lang);
    if (v instanceof List<?> list) {
      StringBuilder sb = new StringBuilder();
      for (Object o : list) {
        if (sb.length() > 0) sb.append(lang == Lang.ZH ? "；" : "; ");
        sb.append(value(o));
      }
      return sb.toString();
    }
    if (v instanceof Double || v instanceof Float) return number(((Number) v).doubleValue());
    // a shipped name (a preset's workload, the guide's reference) in this language's words
    if (v instanceof String s) return Localizer.name(s, lang);
    return String.valueOf(v);
  }

  /** Up to two decimals, no trailing zeros: 1.5, 0.25, 12 (how every figure in a sentence is written). */
  public static String number(double d) {
    long hundredths = Math.round(d * 100);
    if (hundredths % 100 == 0) return Long.toString(hundredths / 100);
    String sign = hundredths < 0 ? "-" : "";
    long abs = Math.abs(hundredths);
    String frac = (abs % 100 < 10 ? "0" : "") + (abs % 100);
    if (frac.endsWith("0")) frac = frac.substring(0, 1);
    return sign + (abs / 100) + "." + frac;
  }

  private static Properties load(String name) {
    String path = "messages/" + name + ".properties";
    Properties p = new Properties();
    try (InputStream in = Messages.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) throw new IllegalArgumentException("no message bundle " + path);
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        p.load(r);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(path, e);
    }
    return p;
  }
}
