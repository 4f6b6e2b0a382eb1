package dev.gpurent.service;

import dev.gpurent.cost.Ranking;
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
    m.put("referenceNote", r.referenceNote());
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
    int size = rest.length() + 64 + plans.stream().mapToInt(p -> p.json.length() + 1).sum()
        + (mixed == null ? 0 : mixed.json.length()) + (reference == null ? 0 : reference.json.length());
    StringBuilder sb = new StringBuilder(size).append("{\"type\":\"ranking\",\"scenario\":").append(Json.encode(scenarioId))
        .append(",\"ranking\":");
    int from = 0;
    from = splice(sb, from, "\"plans\":[]", "\"plans\":[", plans, "]");
    from = splice(sb, from, "\"mixed\":null", "\"mixed\":", mixed == null ? null : List.of(mixed), "");
    from = splice(sb, from, "\"reference\":null", "\"reference\":", reference == null ? null : List.of(reference), "");
    sb.append(rest, from, rest.length() - 1).append(",\"quotesAt\":").append(quotesAt).append("}}");
    return sb.toString();
  }

  /**
   * Copies the remainder from {@code from} up to its key {@code empty}, then the key with the parts
   * ({@code empty} as it stands when there are none); returns where the remainder goes on. Keys are
   * found by their quoted name: inside a JSON string a quote is escaped, so it matches only the key.
   */
  private int splice(StringBuilder sb, int from, String empty, String open, List<Part> parts, String close) {
    int at = rest.indexOf(empty, from);
    if (at < 0) throw new IllegalStateException("the ranking's JSON has no " + empty);
    sb.append(rest, from, at);
    if (parts == null) {
      sb.append(empty);
    } else {
      sb.append(open);
      for (int i = 0; i < parts.size(); i++) {
        if (i > 0) sb.append(',');
        sb.append(parts.get(i).json);
      }
      sb.append(close);
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
