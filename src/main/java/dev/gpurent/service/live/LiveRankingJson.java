package dev.gpurent.service.live;

import dev.gpurent.config.PlainValues;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link LiveRankingUpdate}'s JSON, rendered at the edge, once per language and when first asked
 * for: the dashboards' message {@code {"type":"ranking","scenario":id,"ranking":R}} ({@link #text}),
 * the REST body R ({@link #ranking}), and a dashboard's delta against the message it had before
 * ({@link #textAfter}). R is put together from {@link Piece}s: the ranking's remainder, each plan,
 * the mixed plan and the reference. A piece holds its source (the engine's plan, encoded only when
 * it is rendered, sent over the wire or compared) and its renderings; a plan that did not change is
 * the very same piece in the scenario's next update ({@link RankingParts}), with the renderings it
 * already has, so after one vendor's change only that plan is rendered again. R equals the engine's
 * {@code Ranking.toMap()} encoded whole, with {@code quotesAt} moved last, and rendered with
 * {@code Localizer.page} ({@code RankingPartsTest}). A failure is one literal, rendered whole.
 *
 * <p>Immutable but for its caches, and shared between threads (made on a worker, rendered on the
 * HTTP event loop): a cache filled twice by a race holds the same text twice, and a String is safe
 * to publish through a race (its fields are final).
 */
public final class LiveRankingJson {

  /**
   * One piece of a ranking: its neutral JSON (from its source, or as it came over the wire), the
   * digest of that JSON (kept: a ranking is published again only when some piece's digest moved),
   * and its renderings made so far.
   */
  static final class Piece {
    /**
     * The engine's value it was made from (null when it came over the wire): the same value, the
     * same piece. Moved to an equal value that takes the piece over; read and written only by the
     * one worker making the scenario's updates.
     */
    Object origin;
    private final Supplier<Map<String, Object>> source;
    private final String json;
    /** Its vendor (null for the remainder, the mixed plan and the reference). */
    final String vendor;
    /** The name a delta gives the piece when it is kept: its vendor id as a JSON string. */
    final String key;
    /** Each vendor's key, made once: a live scenario has a piece per plan, and the vendors are few. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> KEYS = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile byte[] digest;
    private final String[] rendered = new String[Lang.values().length];

    private Piece(Object origin, Supplier<Map<String, Object>> source, String json, String vendor) {
      this.origin = origin;
      this.source = source;
      this.json = json;
      this.vendor = vendor;
      this.key = vendor == null ? null : KEYS.computeIfAbsent(vendor, Json::encode);
    }

    /** A piece made from the engine's value {@code origin}, whose map {@code source} gives, encoded only when needed. */
    static Piece of(Object origin, Supplier<Map<String, Object>> source, String vendor) {
      return new Piece(origin, source, null, vendor);
    }

    /** A piece as it came over the wire. */
    static Piece decoded(String json, String vendor) {
      return new Piece(null, null, json, vendor);
    }

    /** The language-neutral JSON: texts are message codes and arguments. */
    String neutral() {
      return json != null ? json : Json.encode(source.get());
    }

    byte[] digest() {
      byte[] d = digest;
      if (d == null) digest = d = sha256().digest(neutral().getBytes(StandardCharsets.UTF_8));
      return d;
    }

    /** Whether {@code other} reads the same: the same piece, or the same JSON. */
    boolean sameAs(Piece other) {
      return other == this || other != null && java.util.Arrays.equals(digest(), other.digest());
    }

    /** A plan in {@code lang}. */
    String text(Lang lang) {
      String t = rendered[lang.ordinal()];
      if (t == null) rendered[lang.ordinal()] = t = Json.encode(Localizer.render(PlainValues.of(Json.decodeValue(neutral())), lang));
      return t;
    }
  }

  /**
   * The remainder rendered in one language, cut where its plans, mixed plan and reference go: the
   * page's fields are written one by one, so the cuts are where those keys are, not found by search.
   */
  private record Cut(List<String> between, List<String> slots) {}

  /** The slots the remainder leaves for pieces, in the order Ranking.toMap writes them. */
  private static final Set<String> SLOTS = Set.of("plans", "mixed", "reference");
  /** A delta's mixed plan or reference that did not change. */
  static final String SAME = "\"same\"";

  private final String scenario;
  /** The failure's text; null for a ranking. */
  private final String literal;
  private final Piece rest;
  private final List<Piece> plans;
  private final Piece mixed;
  private final Piece reference;
  /** quotesAt as JSON ("null" when the book states none): it goes last. */
  private final String quotesAt;
  private final Cut[] cuts = new Cut[Lang.values().length];
  private final String[] texts = new String[Lang.values().length];
  /** Identifies this message to the delta that follows it, without the delta keeping it alive. */
  private final long serial = SERIALS.incrementAndGet();
  /** The last delta made per language, and the message it follows (every dashboard of a scenario mostly read the same one). */
  private final Delta[] deltas = new Delta[Lang.values().length];

  private static final AtomicLong SERIALS = new AtomicLong();

  private record Delta(long after, String text) {}

  private LiveRankingJson(String scenario, String literal, Piece rest, List<Piece> plans, Piece mixed, Piece reference, String quotesAt) {
    this.scenario = scenario;
    this.literal = literal;
    this.rest = rest;
    this.plans = plans;
    this.mixed = mixed;
    this.reference = reference;
    this.quotesAt = quotesAt;
  }

  /** A ranking's JSON from its pieces; {@code rest} is the ranking without plans, mixed plan, reference and quotesAt. */
  static LiveRankingJson of(String scenario, Piece rest, List<Piece> plans, Piece mixed, Piece reference, String quotesAt) {
    return new LiveRankingJson(scenario, null, rest, List.copyOf(plans), mixed, reference, quotesAt);
  }

  /** A failure's message, {@code {"type":"error","scenario":id,"status":s,"error":e}}. */
  static LiveRankingJson failure(String scenario, int status, String error) {
    return new LiveRankingJson(scenario, new JsonObject().put("type", "error").put("scenario", scenario).put("status", status)
        .put("error", error).encode(), null, List.of(), null, null, null);
  }

  /** The message as a dashboard in {@code lang} reads it: every message rendered, "lang" first in the ranking. */
  public String text(Lang lang) {
    String t = texts[lang.ordinal()];
    if (t == null) {
      t = literal != null ? Json.encode(Localizer.render(PlainValues.of(Json.decodeValue(literal)), lang))
          : envelope("ranking") + join(lang, p -> p.text(lang), false, false) + "}";
      texts[lang.ordinal()] = t;
    }
    return t;
  }

  /** The REST body in {@code lang}: the ranking alone, as POST /api/rank answers it; a failure's message as it is. */
  public String ranking(Lang lang) {
    String whole = text(lang);
    return literal != null ? whole : whole.substring(envelope("ranking").length(), whole.length() - 1);
  }

  /**
   * The message for a dashboard in {@code lang} whose last message of this scenario was
   * {@code previous} (null: none): a delta when both are rankings, else the whole message. A delta,
   * {@code {"type":"ranking-delta","scenario":id,"ranking":R}}, is the whole message with each plan
   * {@code previous} had unchanged (the same piece) given as its vendor id, and {@code "mixed"} and
   * {@code "reference"} as the string {@code "same"} when unchanged: after one vendor's change a few
   * KB instead of a ranking of 200 KB. A dashboard rebuilds the ranking from the plans it has by
   * vendor ({@code live.js}); vendors are unique in a ranking's plans.
   */
  public String textAfter(LiveRankingJson previous, Lang lang) {
    if (previous == null || previous.literal != null || literal != null) return text(lang);
    Delta d = deltas[lang.ordinal()];
    if (d == null || d.after != previous.serial) {
      Set<Piece> kept = Collections.newSetFromMap(new IdentityHashMap<>());
      kept.addAll(previous.plans);
      String ranking = join(lang, p -> kept.contains(p) ? p.key : p.text(lang), mixed != null && mixed == previous.mixed,
          reference != null && reference == previous.reference);
      deltas[lang.ordinal()] = d = new Delta(previous.serial, envelope("ranking-delta") + ranking + "}");
    }
    return d.text;
  }

  /** A failure's message as published (not rendered); null for a ranking. */
  String literal() {
    return literal;
  }

  Piece rest() {
    return rest;
  }

  List<Piece> plans() {
    return plans;
  }

  Piece mixed() {
    return mixed;
  }

  Piece reference() {
    return reference;
  }

  String quotesAt() {
    return quotesAt;
  }

  private String envelope(String type) {
    return "{\"type\":\"" + type + "\",\"scenario\":" + Json.encode(scenario) + ",\"ranking\":";
  }

  /** R in {@code lang}: the remainder's fields with each piece's text (or its name in a delta) in its slot, and quotesAt last. */
  private String join(Lang lang, Function<Piece, String> text, boolean sameMixed, boolean sameReference) {
    Cut cut = cut(lang);
    // String.join sizes the text once and copies each piece once: a large ranking is not copied twice.
    List<String> out = new ArrayList<>(plans.size() * 2 + 12);
    for (int i = 0; i < cut.slots().size(); i++) {
      out.add(cut.between().get(i));
      switch (cut.slots().get(i)) {
        case "plans" -> {
          out.add("[");
          for (int p = 0; p < plans.size(); p++) {
            if (p > 0) out.add(",");
            out.add(text.apply(plans.get(p)));
          }
          out.add("]");
        }
        case "mixed" -> out.add(mixed == null ? "null" : sameMixed ? SAME : text.apply(mixed));
        default -> out.add(reference == null ? "null" : sameReference ? SAME : text.apply(reference));
      }
    }
    out.add(cut.between().get(cut.slots().size()));
    out.add(",\"quotesAt\":" + quotesAt + "}");
    return String.join("", out);
  }

  /** The remainder in {@code lang}, written field by field (as Json.encode writes a map) and cut at each slot. */
  private Cut cut(Lang lang) {
    Cut c = cuts[lang.ordinal()];
    if (c != null) return c;
    @SuppressWarnings("unchecked")
    Map<String, Object> page = Localizer.page((Map<String, Object>) PlainValues.of(Json.decodeValue(rest.neutral())), lang);
    List<String> between = new ArrayList<>(4), slots = new ArrayList<>(3);
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, Object> e : page.entrySet()) {
      if (!first) b.append(',');
      first = false;
      b.append(Json.encode(e.getKey())).append(':');
      if (SLOTS.contains(e.getKey())) {
        between.add(b.toString());
        slots.add(e.getKey());
        b.setLength(0);
      } else {
        b.append(Json.encode(e.getValue()));
      }
    }
    between.add(b.toString());
    cuts[lang.ordinal()] = c = new Cut(List.copyOf(between), List.copyOf(slots));
    return c;
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
