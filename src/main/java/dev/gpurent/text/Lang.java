package dev.gpurent.text;

import dev.gpurent.config.WireNames;
import java.util.Locale;

/**
 * The languages gpurent speaks. Text is made in a language only at the edge (REST, WebSocket,
 * CLI, files): the engine hands out {@link Message}s.
 */
public enum Lang {
  EN(Locale.ENGLISH), ZH(Locale.SIMPLIFIED_CHINESE);

  private final Locale locale;
  /** Made once: every message rendered asks for its bundle in this language. */
  private final String tag;

  Lang(Locale locale) {
    this.locale = locale;
    this.tag = WireNames.camel(this);
  }

  /** en, zh. */
  public String tag() {
    return tag;
  }

  public Locale locale() {
    return locale;
  }

  /**
   * A language named by a tag as users write it: "zh", "zh-CN", "zh_CN.UTF-8", "EN-us".
   *
   * @throws IllegalArgumentException for a language gpurent does not speak, naming the ones it does
   */
  public static Lang of(String tag) {
    Lang l = match(tag);
    if (l == null) throw new IllegalArgumentException("unknown language '" + shown(tag) + "'; known: en, zh");
    return l;
  }

  /**
   * The first language of an HTTP {@code Accept-Language} header that gpurent speaks, by its
   * q-weights; English when none is (or the header is absent).
   */
  public static Lang fromAcceptLanguage(String header) {
    if (header == null || header.isBlank()) return EN;
    Lang best = null;
    double bestQ = 0;
    for (String part : header.split(",", 20)) {
      String[] bits = part.trim().split(";");
      double q = 1;
      for (int i = 1; i < bits.length; i++) {
        String b = bits[i].trim();
        if (b.startsWith("q=")) {
          try {
            q = Double.parseDouble(b.substring(2));
          } catch (NumberFormatException e) {
            q = 0;
          }
        }
      }
      Lang l = match(bits[0]);
      if (l != null && q > bestQ) {
        best = l;
        bestQ = q;
      }
    }
    return best == null ? EN : best;
  }

  /** The language of a POSIX locale variable such as {@code LANG=zh_CN.UTF-8}; English when unset or unknown. */
  public static Lang fromEnvironment(String posixLocale) {
    Lang l = match(posixLocale);
    return l == null ? EN : l;
  }

  private static Lang match(String tag) {
    if (tag == null) return null;
    String t = tag.trim().toLowerCase(Locale.ROOT);
    int cut = t.length();
    for (char c : new char[] {'-', '_', '.', '@'}) {
      int i = t.indexOf(c);
      if (i >= 0) cut = Math.min(cut, i);
    }
    String primary = t.substring(0, cut);
    return WireNames.find(values(), Lang::tag, primary);
  }

  private static String shown(String tag) {
    if (tag == null) return "";
    return tag.length() > 20 ? tag.substring(0, 20) + "..." : tag;
  }
}
