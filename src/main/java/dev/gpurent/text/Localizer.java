package dev.gpurent.text;

import dev.gpurent.quote.Money;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place text is put into a language. The engine's maps carry {@link Message}s in a
 * language-neutral form, {@code {"code": ..., "args": {...}}} (money as {@code {"amount", "currency"}},
 * inside args only), which travels as JSON over the event bus; {@link #render(Object, Lang)} turns
 * every such node of a tree into its string, keeping every other field as it is, so clients see the
 * same field names in each language.
 *
 * <p>A code is looked up in the bundles {@link #BUNDLES}, first match wins: codes are unique across them.
 */
public final class Localizer {

  /** The bundles engine, report and quote-sheet text comes from, in lookup order. */
  static final List<String> BUNDLES = List.of("engine", "report", "common", "sheet");

  private Localizer() {}

  /** The neutral form of a value: Messages and Money become maps, lists and maps are walked, the rest is kept. */
  public static Object neutral(Object v) {
    if (v instanceof Message m) {
      Map<String, Object> args = new LinkedHashMap<>();
      m.args().forEach((k, a) -> args.put(k, neutral(a)));
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("code", m.code());
      node.put("args", args);
      return node;
    }
    if (v instanceof Money money) {
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("amount", money.plain());
      node.put("currency", money.currency());
      return node;
    }
    if (v instanceof BigDecimal d) return d.toPlainString();
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) out.add(neutral(o));
      return out;
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, x) -> out.put(String.valueOf(k), neutral(x)));
      return out;
    }
    return v;
  }

  /**
   * A copy of {@code tree} (maps, lists, values; Messages or their neutral nodes anywhere) with every
   * message rendered in {@code lang}; everything else unchanged.
   */
  public static Object render(Object tree, Lang lang) {
    if (tree instanceof Message m) return text(m, lang);
    if (tree instanceof Map<?, ?> map) {
      Message m = messageOf(map);
      if (m != null) return text(m, lang);
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), v instanceof String s ? field(String.valueOf(k), s, lang) : render(v, lang)));
      return out;
    }
    if (tree instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) out.add(render(o, lang));
      return out;
    }
    return tree;
  }

  /** A text field as {@code lang} shows it: shipped names and FX feeds in its words, everything else (ids, figures) as it is. */
  private static String field(String key, String value, Lang lang) {
    return switch (key) {
      case "displayName", "scenario", "name", "fleet" -> name(value, lang);
      case "fx" -> fx(value, lang);
      default -> value;
    };
  }

  /** A top-level map rendered in {@code lang}, with {@code "lang"} first so a client knows what it got. */
  public static Map<String, Object> page(Map<String, ?> tree, Lang lang) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("lang", lang.tag());
    @SuppressWarnings("unchecked")
    Map<String, Object> rendered = (Map<String, Object>) render(tree, lang);
    rendered.remove("lang");
    out.putAll(rendered);
    return out;
  }

  /** One message (or its neutral node) in {@code lang}, its code looked up across the bundles. */
  public static String text(Object message, Lang lang) {
    Message m = message instanceof Message x ? x : message instanceof Map<?, ?> map ? messageOf(map) : null;
    if (m == null) return message == null ? "" : String.valueOf(message);
    for (String b : BUNDLES) {
      Messages bundle = Messages.of(b, lang);
      if (bundle.has(m.code())) return bundle.render(m);
    }
    throw new IllegalArgumentException("no message '" + m.code() + "' in " + BUNDLES + " (" + lang.tag() + ")");
  }

  /** Shorthand for English, as tests and logs read it. */
  public static String en(Object message) {
    return text(message, Lang.EN);
  }

  /** A list of messages in English, as tests read them. */
  public static List<String> ens(List<?> messages) {
    return messages.stream().map(Localizer::en).toList();
  }

  /** An amount with its currency as the language writes money: "5000.00 CNY" in English, "¥5,000.00" in Chinese. */
  public static String money(Money m, Lang lang) {
    if (lang == Lang.EN) return m.toString();
    String grouped = new java.text.DecimalFormat("#,##0.00##", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT))
        .format(new BigDecimal(m.plain()));
    return switch (m.currency()) {
      case "CNY" -> "¥" + grouped;
      case "USD" -> "US$" + grouped;
      case "EUR" -> "€" + grouped;
      default -> grouped + " " + m.currency();
    };
  }

  /**
   * A name a shipped file gives (a preset, its workloads, the guide's reference sheet, an FX feed)
   * as {@code lang} writes it, found by its English text in the {@code names} bundle; any other
   * name (one a user wrote, a vendor's, a card's) as it is.
   */
  public static String name(String text, Lang lang) {
    if (text == null || lang == Lang.EN) return text;
    String code = KNOWN_NAMES.get(text);
    return code == null ? text : Messages.of("names", lang).template(code);
  }

  /**
   * An FX line ("1 USD = 7.24049 CNY (ECB euro reference rates 2025-05-09)") with its feed named
   * in {@code lang}: "1 USD = 7.24049 CNY（欧洲央行欧元参考汇率 2025-05-09）".
   */
  public static String fx(String text, Lang lang) {
    if (text == null || text.isEmpty() || lang == Lang.EN) return text;
    Messages en = Messages.of("names", Lang.EN);
    String out = text;
    for (String code : en.codes()) {
      if (code.startsWith("name.fx.")) out = out.replace(en.template(code), name(en.template(code), lang));
    }
    return out.replace(" (", "（").replace("(", "（").replace(")", "）");
  }

  private static final Map<String, String> KNOWN_NAMES = knownNames();

  private static Map<String, String> knownNames() {
    Messages en = Messages.of("names", Lang.EN);
    Map<String, String> byText = new LinkedHashMap<>();
    for (String code : en.codes()) byText.put(en.template(code), code);
    return Map.copyOf(byText);
  }

  /** The Message a neutral node stands for (its args turned back into Messages and Money), or null for any other map. */
  private static Message messageOf(Map<?, ?> node) {
    if (node.size() != 2 || !(node.get("code") instanceof String code) || !(node.get("args") instanceof Map<?, ?> args)) return null;
    Map<String, Object> back = new LinkedHashMap<>();
    args.forEach((k, v) -> back.put(String.valueOf(k), argument(v)));
    return new Message(code, back);
  }

  private static Object argument(Object v) {
    if (v instanceof Map<?, ?> map) {
      Message m = messageOf(map);
      if (m != null) return m;
      if (map.size() == 2 && map.get("amount") instanceof String a && map.get("currency") instanceof String c) return Money.of(a, c);
      return v;
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) out.add(argument(o));
      return out;
    }
    return v;
  }
}
