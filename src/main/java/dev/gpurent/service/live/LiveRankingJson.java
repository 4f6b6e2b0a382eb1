package dev.gpurent.service.live;

import dev.gpurent.config.PlainValues;
import dev.gpurent.cost.Ranking;
import dev.gpurent.text.Lang;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A {@link LiveRankingUpdate}'s JSON, rendered at the edge, once per language and when first asked
 * for: the dashboards' message {@code {"type":"ranking","scenario":id,"ranking":R}} ({@link #text}),
 * the REST body R ({@link #ranking}), and a dashboard's delta against the message it had before
 * ({@link #textAfter}). R is put together from {@link Piece}s: the ranking's remainder, each plan,
 * the mixed plan and the reference. The engine's ranking is kept and each piece is built from it
 * only when it is rendered or sent over the wire (a live ranking's plans are built as they are
 * read); a piece keeps its JSON and renderings, and a plan that did not change is the very same
 * piece in the scenario's next update ({@link RankingParts}), with the renderings it already has,
 * so after one vendor's change only that plan is rendered again. R equals the engine's
 * {@code Ranking.toMap()} encoded whole, with {@code quotesAt} moved last, and rendered with
 * {@code Localizer.page} ({@code RankingPartsTest}). A failure is one literal, rendered whole.
 *
 * <p>Immutable but for its caches, and shared between threads (made on a worker, rendered on the
 * HTTP event loop): a cache filled twice by a race holds the same text twice, and a String is safe
 * to publish through a race (its fields are final).
 */
public final class LiveRankingJson {

  /**
   * One piece of a ranking: what it shows, known by identity ({@link #shows}), and its neutral JSON
   * made from the ranking that renders it each time it is needed (or as it came over the wire). A
   * piece holds no plan and no text, only the digest of its JSON once made (what a ranking made
   * anew is compared by): a live scenario's next update keeps the pieces whose plans it kept, and
   * whichever update renders a piece renders the same JSON (a kept plan reads the same on the new
   * book). Texts are kept by the messages, for as long as their readers hold them.
   */
  static final class Piece {
    /**
     * What it shows: a plan's standing, the mixed plan, the reference plan, the remainder's fields
     * (null: from the wire); moved to a new one that reads the same. Read and written only by the one
     * worker making the scenario's updates.
     */
    private Object shows;
    /** #1's standing, against which a plan's winsAt reads (null for #1 itself and the other pieces). */
    private Object against;
    /** Its vendor (null for the remainder, the mixed plan and the reference). */
    final String vendor;
    /** The name a delta gives the piece when it is kept: its vendor id as a JSON string. */
    final String key;
    /** Each vendor's key, made once: a live scenario has a piece per plan, and the vendors are few. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> KEYS = new java.util.concurrent.ConcurrentHashMap<>();
    /** Its JSON as it came over the wire; null for one made from the engine's ranking. */
    private final String json;
    /** The SHA-256 of its JSON, once made. */
    private volatile byte[] digest;
    /**
     * The remainder's renderings per language, cut at its slots (null for other pieces and until
     * rendered): a scenario keeps its remainder's piece while the remainder reads the same, so a
     * change renders again only the plans that moved, not the remainder (a few KB of text, where
     * rendering it allocated some 250 KB a change for each followed scenario).
     */
    private volatile Cut[] cuts;

    private Piece(Object shows, Object against, String json, String vendor) {
      this.shows = shows;
      this.against = against;
      this.json = json;
      this.vendor = vendor;
      this.key = vendor == null ? null : KEYS.computeIfAbsent(vendor, Json::encode);
    }

    /** A piece showing {@code shows} (by identity), against #1's standing {@code against} for a plan below #1. */
    static Piece of(Object shows, Object against, String vendor) {
      return new Piece(shows, against, null, vendor);
    }

    /** A piece as it came over the wire. */
    static Piece decoded(String json, String vendor) {
      return new Piece(null, null, json, vendor);
    }

    /** Whether it shows the very same {@code shows} against the very same {@code against}. */
    boolean shows(Object shows, Object against) {
      return this.shows != null && this.shows == shows && this.against == against;
    }

    /**
     * This piece, made to show {@code shows} against {@code against}, when it shows them already or
     * its JSON's digest is known and {@code source} gives the same JSON (a ranking made anew that
     * reads the same); else a new piece (its digest known when this one's was: it was compared).
     */
    Piece or(Object shows, Object against, String vendor, Supplier<Map<String, Object>> source) {
      if (shows(shows, against)) return this;
      if (digest == null) return of(shows, against, vendor);
      Piece next = of(shows, against, vendor);
      next.neutral(source);  // its digest
      if (!java.util.Arrays.equals(digest, next.digest)) return next;
      this.shows = shows;
      this.against = against;
      return this;
    }

    /** Whether it shows what {@code shows} equals (the remainder: a few lists compared by value). */
    boolean showsEqual(Object shows) {
      return this.shows != null && this.shows.equals(shows);
    }

    /** The language-neutral JSON (texts are message codes and arguments): as it came, or made from {@code source}. */
    String neutral(Supplier<Map<String, Object>> source) {
      if (json != null) return json;
      String j = Json.encode(source.get());
      if (digest == null) digestOf(j);
      return j;
    }

    private byte[] digestOf(String neutral) {
      try {
        return digest = java.security.MessageDigest.getInstance("SHA-256").digest(neutral.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    Cut cut(Lang lang) {
      Cut[] c = cuts;
      return c == null ? null : c[lang.ordinal()];
    }

    /** Keeps {@code c} as its rendering in {@code lang} (a race keeps either of two equal ones). */
    void keep(Lang lang, Cut c) {
      Cut[] all = cuts;
      if (all == null) all = new Cut[Lang.values().length];
      else all = all.clone();
      all[lang.ordinal()] = c;
      cuts = all;
    }

    /** The piece in {@code lang}. */
    String text(Lang lang, Supplier<Map<String, Object>> source) {
      return Json.encode(Localizer.render(PlainValues.parse(neutral(source)), lang));
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
  /** The engine's ranking the pieces are rendered from; null for one that came over the wire (its pieces hold their JSON) or a failure. */
  private final Ranking ranking;
  private final Piece rest;
  private final List<Piece> plans;
  private final Piece mixed;
  private final Piece reference;
  /** quotesAt as JSON ("null" when the book states none): it goes last. */
  private final String quotesAt;
  /**
   * The whole message and the last delta per language, held weakly: every dashboard of a scenario
   * reads the same text in one fan-out, and none is kept once its readers have sent it (a followed
   * scenario would otherwise hold its whole ranking as text between changes).
   */
  private final java.lang.ref.WeakReference<String>[] texts = weakArray();
  /** Identifies this message to the delta that follows it, without the delta keeping it alive. */
  private final long serial = SERIALS.incrementAndGet();
  /** The last delta made per language, and the message it follows (every dashboard of a scenario mostly read the same one). */
  private final java.lang.ref.WeakReference<Delta>[] deltas = weakArray();

  private static final AtomicLong SERIALS = new AtomicLong();

  private record Delta(long after, String text) {}

  @SuppressWarnings("unchecked")
  private static <T> java.lang.ref.WeakReference<T>[] weakArray() {
    return (java.lang.ref.WeakReference<T>[]) new java.lang.ref.WeakReference<?>[Lang.values().length];
  }

  private static <T> T get(java.lang.ref.WeakReference<T> ref) {
    return ref == null ? null : ref.get();
  }

  private LiveRankingJson(String scenario, String literal, Ranking ranking, Piece rest, List<Piece> plans, Piece mixed, Piece reference,
                          String quotesAt) {
    this.scenario = scenario;
    this.literal = literal;
    this.ranking = ranking;
    this.rest = rest;
    this.plans = plans;
    this.mixed = mixed;
    this.reference = reference;
    this.quotesAt = quotesAt;
  }

  /** Ranking {@code r}'s JSON, its pieces (one per plan, in order) rendered from it when first asked for. */
  static LiveRankingJson of(String scenario, Ranking r, Piece rest, List<Piece> plans, Piece mixed, Piece reference) {
    return new LiveRankingJson(scenario, null, r, rest, List.copyOf(plans), mixed, reference,
        quotesAtJson(r.quotesAt()));
  }

  private record QuotesAt(java.time.Instant at, String json) {}

  /** The last quotes' time as JSON: every live scenario ranked on one book has the same, so it is written once. */
  private static volatile QuotesAt lastQuotesAt = new QuotesAt(null, "null");

  private static String quotesAtJson(java.time.Instant at) {
    QuotesAt last = lastQuotesAt;
    if (java.util.Objects.equals(last.at(), at)) return last.json();
    String json = Json.encode(at == null ? null : at.toString());
    lastQuotesAt = new QuotesAt(at, json);
    return json;
  }

  /** A ranking's JSON as it came over the wire: its pieces hold their JSON; {@code rest} is the ranking without plans, mixed plan, reference and quotesAt. */
  static LiveRankingJson decoded(String scenario, Piece rest, List<Piece> plans, Piece mixed, Piece reference, String quotesAt) {
    return new LiveRankingJson(scenario, null, null, rest, List.copyOf(plans), mixed, reference, quotesAt);
  }

  /** A failure's message, {@code {"type":"error","scenario":id,"status":s,"error":e}}. */
  static LiveRankingJson failure(String scenario, int status, String error) {
    return new LiveRankingJson(scenario, new JsonObject().put("type", "error").put("scenario", scenario).put("status", status)
        .put("error", error).encode(), null, null, List.of(), null, null, null);
  }

  /**
   * The ranking without its plans, mixed plan, reference and quotesAt, with the note comparing #1
   * with the reference (which reads them): what the remainder piece shows.
   */
  static Map<String, Object> remainder(Ranking r) {
    Ranking rest = new Ranking(r.scenario(), r.currency(), r.horizonMonths(), List.of(), Optional.empty(), r.mixedNote(),
        r.unavailable(), r.quotesAt(), Optional.empty(), r.excluded(), r.skipped(), r.apis());
    Map<String, Object> m = rest.toMap();
    m.remove("quotesAt");
    m.put("referenceNote", Localizer.neutral(r.referenceNote()));
    return m;
  }

  /** The message as a dashboard in {@code lang} reads it: every message rendered, "lang" first in the ranking. */
  public String text(Lang lang) {
    String t = get(texts[lang.ordinal()]);
    if (t == null) {
      t = literal != null ? Json.encode(Localizer.render(PlainValues.parse(literal), lang))
          : join(envelope("ranking"), lang, null, false, false);
      texts[lang.ordinal()] = new java.lang.ref.WeakReference<>(t);
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
    Delta d = get(deltas[lang.ordinal()]);
    if (d == null || d.after != previous.serial) {
      Set<Piece> kept = Collections.newSetFromMap(new IdentityHashMap<>());
      kept.addAll(previous.plans);
      d = new Delta(previous.serial, join(envelope("ranking-delta"), lang, kept, mixed != null && mixed == previous.mixed,
          reference != null && reference == previous.reference));
      deltas[lang.ordinal()] = new java.lang.ref.WeakReference<>(d);
    }
    return d.text;
  }

  /** A failure's message as published (not rendered); null for a ranking. */
  String literal() {
    return literal;
  }

  List<Piece> plans() {
    return plans;
  }

  /** The remainder's neutral JSON. */
  String restJson() {
    return rest.neutral(() -> remainder(ranking));
  }

  /** Plan i's neutral JSON. */
  String planJson(int i) {
    return plans.get(i).neutral(() -> ranking.plans().get(i).toMap());
  }

  /** The mixed plan's neutral JSON, or null when there is none. */
  String mixedJson() {
    return mixed == null ? null : mixed.neutral(() -> ranking.mixed().orElseThrow().toMap());
  }

  /** The reference's neutral JSON, or null when there is none. */
  String referenceJson() {
    return reference == null ? null : reference.neutral(() -> ranking.reference().orElseThrow().toMap());
  }

  String quotesAt() {
    return quotesAt;
  }

  private String envelope(String type) {
    return "{\"type\":\"" + type + "\",\"scenario\":" + Json.encode(scenario) + ",\"ranking\":";
  }

  /**
   * The message: {@code envelope}, then R in {@code lang}, then its closing brace. R: the remainder's fields with each piece's
   * text in its slot, and quotesAt last; in a delta ({@code kept} not null) a plan of {@code kept}
   * as its name, and an unchanged mixed plan or reference as {@link #SAME}. One copy of the text.
   */
  private String join(String envelope, Lang lang, Set<Piece> kept, boolean sameMixed, boolean sameReference) {
    Cut cut = cut(lang);
    // String.join sizes the text once and copies each piece once: a large ranking is not copied twice.
    List<String> out = new ArrayList<>(plans.size() * 2 + 12);
    out.add(envelope);
    for (int i = 0; i < cut.slots().size(); i++) {
      out.add(cut.between().get(i));
      switch (cut.slots().get(i)) {
        case "plans" -> {
          out.add("[");
          for (int p = 0; p < plans.size(); p++) {
            if (p > 0) out.add(",");
            Piece piece = plans.get(p);
            int at = p;
            out.add(kept != null && kept.contains(piece) ? piece.key : piece.text(lang, () -> ranking.plans().get(at).toMap()));
          }
          out.add("]");
        }
        case "mixed" -> out.add(mixed == null ? "null" : sameMixed ? SAME : mixed.text(lang, () -> ranking.mixed().orElseThrow().toMap()));
        default -> out.add(reference == null ? "null" : sameReference ? SAME
            : reference.text(lang, () -> ranking.reference().orElseThrow().toMap()));
      }
    }
    out.add(cut.between().get(cut.slots().size()));
    out.add(",\"quotesAt\":");
    out.add(quotesAt);
    out.add("}}");
    return String.join("", out);
  }

  /** The remainder in {@code lang}, written field by field (as Json.encode writes a map) and cut at each slot. */
  private Cut cut(Lang lang) {
    Cut c = rest.cut(lang);
    if (c != null) return c;
    @SuppressWarnings("unchecked")
    Map<String, Object> page = Localizer.page((Map<String, Object>) PlainValues.parse(restJson()), lang);
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
    c = new Cut(List.copyOf(between), List.copyOf(slots));
    rest.keep(lang, c);
    return c;
  }
}
