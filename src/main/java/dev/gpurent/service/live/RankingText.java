package dev.gpurent.service.live;

import dev.gpurent.config.PlainValues;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One live scenario's message as dashboards receive it ({@code {"type":"ranking","scenario":id,
 * "ranking":{...}}}), language-neutral ({@link #neutral()}) and in each language
 * ({@link #text(Lang)}). A ranking's message is put together from its plans' texts, each a
 * {@link Part} that the scenario's {@link RankingMessage} keeps between changes: a plan that did
 * not change is the very same Part in the next message, with the renderings it already has (and
 * so is a remainder that reads the same, a {@link Rest}), so after one vendor's change only that
 * plan is rendered again rather than a whole ranking of 200 KB decoded, rendered and encoded. A failure, or any other
 * message, is a literal: one neutral text, rendered whole.
 *
 * <p>Immutable but for its caches, and shared between threads (made on a worker, rendered on the
 * HTTP event loop, read by the AlertVerticle): a cache filled twice by a race holds the same text
 * twice, and a String is safe to publish through a race (its fields are final).
 */
public final class RankingText {

  /**
   * One plan's neutral text, its digest, its renderings made so far, and the name a delta gives it
   * when it is kept: its vendor id as a JSON string (null for the mixed plan and the reference).
   */
  static final class Part {
    final String json;
    final byte[] digest;
    final String key;
    private final String[] rendered = new String[Lang.values().length];

    Part(String json, byte[] digest, String vendor) {
      this.json = json;
      this.digest = digest;
      this.key = vendor == null ? null : Json.encode(vendor);
    }

    public String text(Lang lang) {
      String t = rendered[lang.ordinal()];
      if (t == null) rendered[lang.ordinal()] = t = Json.encode(Localizer.render(PlainValues.of(Json.decodeValue(json)), lang));
      return t;
    }
  }

  /**
   * The ranking without its plans ({@code quotesAt} left out: it goes last), as neutral JSON, and
   * its renderings made so far; the next ranking whose remainder reads the same shares it.
   */
  static final class Rest {
    final String json;
    private final String[] rendered = new String[Lang.values().length];

    Rest(String json) {
      this.json = json;
    }

    public String text(Lang lang) {
      String t = rendered[lang.ordinal()];
      if (t == null) rendered[lang.ordinal()] = t = Json.encode(Localizer.page(PlainValues.map(new JsonObject(json)), lang));
      return t;
    }
  }

  /** A delta's mixed plan or reference that did not change. */
  static final String SAME = "\"same\"";

  private final String scenario;
  /** The literal's text; null when put together from parts. */
  private final String literal;
  private final Rest rest;
  private final List<Part> plans;
  private final Part mixed;
  private final Part reference;
  private final String quotesAt;
  private final byte[] digest;
  private volatile String neutral;
  private final String[] texts = new String[Lang.values().length];
  /** Identifies this message to the delta that follows it, without the delta keeping it alive. */
  private final long serial = SERIALS.incrementAndGet();
  /** The last delta made per language, and the message it follows (every dashboard of a scenario mostly read the same one). */
  private final Delta[] deltas = new Delta[Lang.values().length];

  private static final java.util.concurrent.atomic.AtomicLong SERIALS = new java.util.concurrent.atomic.AtomicLong();

  private record Delta(long after, String text) {}

  private RankingText(String scenario, String literal, Rest rest, List<Part> plans, Part mixed, Part reference, String quotesAt,
                      byte[] digest) {
    this.scenario = scenario;
    this.literal = literal;
    this.rest = rest;
    this.plans = plans;
    this.mixed = mixed;
    this.reference = reference;
    this.quotesAt = quotesAt;
    this.digest = digest;
    this.neutral = literal;
  }

  /** A ranking's message from its remainder's text and its plans' parts; {@code digest} covers all of it but quotesAt. */
  public static RankingText of(String scenario, Rest rest, List<Part> plans, Part mixed, Part reference, String quotesAt, byte[] digest) {
    return new RankingText(scenario, null, rest, List.copyOf(plans), mixed, reference, quotesAt, digest);
  }

  /** Any message as one neutral text (a failure's, or a ranking encoded whole). */
  public static RankingText literal(String text) {
    return new RankingText(null, text, null, List.of(), null, null, null, null);
  }

  /** An event-bus body of {@link Addresses#RANKINGS_CHANGED}: a RankingText, or a message as text. */
  public static RankingText of(Object body) {
    return body instanceof RankingText t ? t : literal((String) body);
  }

  /** The message as published: its texts are message codes and arguments. */
  public String neutral() {
    String n = neutral;
    if (n == null) neutral = n = join("ranking", rest.json, p -> p.json, false, false);
    return n;
  }

  /** The message as a dashboard in {@code lang} reads it: every message rendered, "lang" first in the ranking. */
  public String text(Lang lang) {
    String t = texts[lang.ordinal()];
    if (t == null) {
      t = literal != null ? render(literal, lang) : join("ranking", rest.text(lang), p -> p.text(lang), false, false);
      texts[lang.ordinal()] = t;
    }
    return t;
  }

  /**
   * The message for a dashboard in {@code lang} whose last message of this scenario was
   * {@code previous} (null: none): a delta when both are rankings put together from parts, else the
   * whole message. A delta, {@code {"type":"ranking-delta","scenario":id,"ranking":R}}, is the whole
   * message with each plan {@code previous} had unchanged (the same part) given as its vendor id,
   * and {@code "mixed"} and {@code "reference"} as the string {@code "same"} when unchanged: after
   * one vendor's change a few KB instead of a ranking of 200 KB. A dashboard rebuilds the ranking
   * from the plans it has by vendor ({@code live.js}); vendors are unique in a ranking's plans.
   */
  String textAfter(RankingText previous, Lang lang) {
    if (previous == null || previous.literal != null || literal != null) return text(lang);
    Delta d = deltas[lang.ordinal()];
    if (d == null || d.after != previous.serial) {
      java.util.Set<Part> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      kept.addAll(previous.plans);
      String ranking = join("ranking-delta", rest.text(lang), p -> kept.contains(p) ? p.key : p.text(lang),
          mixed != null && mixed == previous.mixed, reference != null && reference == previous.reference);
      deltas[lang.ordinal()] = d = new Delta(previous.serial, ranking);
    }
    return d.text;
  }

  /** Whether {@code other} shows the same (a ranking published again): the same digest, or the same literal. */
  public boolean sameAs(RankingText other) {
    if (other == this) return true;
    if (digest != null && other.digest != null) return Arrays.equals(digest, other.digest) && quotesAt.equals(other.quotesAt);
    return literal != null && literal.equals(other.literal);
  }

  /**
   * The envelope of {@code type} around {@code ranking} (the remainder, neutral or rendered) with
   * each part's text spliced in where the remainder has its empty plans, mixed and reference (or
   * {@code "same"}, when kept), and quotesAt last.
   */
  private String join(String type, String ranking, Function<Part, String> text, boolean sameMixed, boolean sameReference) {
    // String.join sizes the text once and copies each piece once: a large ranking is not copied twice.
    List<String> pieces = new ArrayList<>(plans.size() * 2 + 16);
    pieces.add("{\"type\":\"" + type + "\",\"scenario\":" + Json.encode(scenario) + ",\"ranking\":");
    int from = 0;
    from = splice(pieces, ranking, from, "\"plans\":[]", "\"plans\":[", plans, "]", text);
    Function<Part, String> same = p -> SAME;
    from = splice(pieces, ranking, from, "\"mixed\":null", "\"mixed\":", mixed == null ? null : List.of(mixed), "", sameMixed ? same : text);
    from = splice(pieces, ranking, from, "\"reference\":null", "\"reference\":", reference == null ? null : List.of(reference), "",
        sameReference ? same : text);
    pieces.add(ranking.substring(from, ranking.length() - 1));
    pieces.add(",\"quotesAt\":" + quotesAt + "}}");
    return String.join("", pieces);
  }

  /**
   * Adds the remainder from {@code from} up to its key {@code empty}, then the key with the parts
   * ({@code empty} as it stands when there are none); returns where the remainder goes on. Keys are
   * found by their quoted name: inside a JSON string a quote is escaped, so it matches only the key.
   */
  private static int splice(List<String> pieces, String ranking, int from, String empty, String open, List<Part> parts, String close,
                            Function<Part, String> text) {
    int at = ranking.indexOf(empty, from);
    if (at < 0) throw new IllegalStateException("the ranking's JSON has no " + empty);
    pieces.add(ranking.substring(from, at));
    if (parts == null) {
      pieces.add(empty);
    } else {
      pieces.add(open);
      for (int i = 0; i < parts.size(); i++) {
        if (i > 0) pieces.add(",");
        pieces.add(text.apply(parts.get(i)));
      }
      pieces.add(close);
    }
    return at + empty.length();
  }

  /**
   * A whole neutral message as a client in {@code lang} reads it: the ranking rendered with "lang"
   * first, the envelope's fields and order kept; a failure rendered as it is.
   */
  @SuppressWarnings("unchecked")
  static String render(String neutral, Lang lang) {
    Object tree = PlainValues.of(Json.decodeValue(neutral));
    if (tree instanceof Map<?, ?> m && m.get("ranking") instanceof Map<?, ?> r) {
      Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) m);
      out.put("ranking", Localizer.page((Map<String, ?>) r, lang));
      return Json.encode(out);
    }
    return Json.encode(Localizer.render(tree, lang));
  }
}
