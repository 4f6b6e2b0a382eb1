package dev.gpurent.service;

import dev.gpurent.cost.Ranking;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One live scenario's ranking as dashboards receive it ({@code {"type":"ranking","scenario":id,
 * "ranking":{...}}}, the ranking's {@code quotesAt} last), put together from each plan's encoded
 * text. A live ranking keeps the plans of vendors that did not change as the very same objects, so
 * a plan met again (by identity) is not encoded again: after one vendor's change only its plan and
 * the ranking's short remainder are. The digest that decides whether the ranking changed is taken
 * over the remainder's text and each plan's own digest, so it changes exactly when the text
 * (without {@code quotesAt}) does. The text equals {@code Json.encode} of {@link Ranking#toMap()}
 * with quotesAt moved last ({@code RankingMessageTest}). Not thread-safe: one ranking at a time.
 */
final class RankingMessage {

  /** One plan's text and its digest. */
  private record Part(String json, byte[] digest) {}

  private Map<Object, Part> parts = new IdentityHashMap<>();
  private String scenarioId;
  private String rest;
  private List<Part> plans = List.of();
  private Part mixed;
  private Part reference;
  private String quotesAt;

  /**
   * Takes {@code r} as the scenario's current ranking.
   *
   * @return the digest of what the ranking shows (all of it but its quotes' time)
   */
  byte[] take(String id, Ranking r) {
    Map<Object, Part> now = new IdentityHashMap<>();
    List<Part> planParts = new ArrayList<>(r.plans().size());
    for (var p : r.plans()) planParts.add(part(p, p::toMap, now));
    Part mixedPart = r.mixed().map(m -> part(m, m::toMap, now)).orElse(null);
    Part referencePart = r.reference().map(p -> part(p, p::toMap, now)).orElse(null);
    // The remainder without the plans, whose text is put in from the parts; the note comparing #1 with the reference is the ranking's own.
    Ranking remainder = new Ranking(r.scenario(), r.currency(), r.horizonMonths(), List.of(), Optional.empty(), r.mixedNote(),
        r.unavailable(), r.quotesAt(), Optional.empty(), r.excluded());
    Map<String, Object> m = remainder.toMap();
    Object at = m.remove("quotesAt");
    m.put("referenceNote", Localizer.neutral(r.referenceNote()));
    String text = Json.encode(m);
    MessageDigest d = sha256();
    d.update(text.getBytes(StandardCharsets.UTF_8));
    for (Part p : planParts) d.update(p.digest);
    d.update((byte) (mixedPart == null ? 0 : 1));
    if (mixedPart != null) d.update(mixedPart.digest);
    d.update((byte) (referencePart == null ? 0 : 1));
    if (referencePart != null) d.update(referencePart.digest);
    parts = now;
    scenarioId = id;
    rest = text;
    plans = planParts;
    mixed = mixedPart;
    reference = referencePart;
    quotesAt = Json.encode(at);
    return d.digest();
  }

  /** The message of the ranking last taken. */
  String message() {
    // String.join sizes the text once and copies each piece once: a large ranking is not copied twice.
    List<String> pieces = new ArrayList<>(plans.size() * 2 + 16);
    pieces.add("{\"type\":\"ranking\",\"scenario\":" + Json.encode(scenarioId) + ",\"ranking\":");
    int from = 0;
    from = splice(pieces, from, "\"plans\":[]", "\"plans\":[", plans, "]");
    from = splice(pieces, from, "\"mixed\":null", "\"mixed\":", mixed == null ? null : List.of(mixed), "");
    from = splice(pieces, from, "\"reference\":null", "\"reference\":", reference == null ? null : List.of(reference), "");
    pieces.add(rest.substring(from, rest.length() - 1));
    pieces.add(",\"quotesAt\":" + quotesAt + "}}");
    return String.join("", pieces);
  }

  /**
   * Adds the remainder from {@code from} up to its key {@code empty}, then the key with the parts
   * ({@code empty} as it stands when there are none); returns where the remainder goes on. Keys are
   * found by their quoted name: inside a JSON string a quote is escaped, so it matches only the key.
   */
  private int splice(List<String> pieces, int from, String empty, String open, List<Part> parts, String close) {
    int at = rest.indexOf(empty, from);
    if (at < 0) throw new IllegalStateException("the ranking's JSON has no " + empty);
    pieces.add(rest.substring(from, at));
    if (parts == null) {
      pieces.add(empty);
    } else {
      pieces.add(open);
      for (int i = 0; i < parts.size(); i++) {
        if (i > 0) pieces.add(",");
        pieces.add(parts.get(i).json);
      }
      pieces.add(close);
    }
    return at + empty.length();
  }

  private Part part(Object value, Supplier<Map<String, Object>> map, Map<Object, Part> now) {
    Part p = parts.get(value);
    if (p == null) {
      String json = Json.encode(map.get());
      p = new Part(json, sha256().digest(json.getBytes(StandardCharsets.UTF_8)));
    }
    now.put(value, p);
    return p;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
