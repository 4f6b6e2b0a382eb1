package dev.gpurent.service.live;

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
 * Makes one live scenario's {@link RankingText}s from its rankings, one after another. A live
 * ranking keeps the plans of vendors that did not change as the very same objects, so a plan met
 * again (by identity) keeps its {@link RankingText.Part}, not encoded again and with its
 * renderings (and so does a remainder that reads the same): after one vendor's change only its
 * plan and the ranking's short remainder are encoded. The
 * digest that decides whether the ranking changed is taken over the remainder's text and each
 * plan's own digest, so it changes exactly when the text (without {@code quotesAt}) does. The
 * neutral text equals {@code Json.encode} of {@link Ranking#toMap()} with quotesAt moved last
 * ({@code RankingMessageTest}). Not thread-safe: one ranking at a time.
 */
public final class RankingMessage {

  private Map<Object, RankingText.Part> parts = new IdentityHashMap<>();
  private RankingText.Rest rest;
  private RankingText text;

  /**
   * Takes {@code r} as the scenario's current ranking.
   *
   * @return the digest of what the ranking shows (all of it but its quotes' time)
   */
  public byte[] take(String id, Ranking r) {
    Map<Object, RankingText.Part> now = new IdentityHashMap<>();
    List<RankingText.Part> planParts = new ArrayList<>(r.plans().size());
    for (var p : r.plans()) planParts.add(part(p, p.vendor(), p::toMap, now));
    RankingText.Part mixedPart = r.mixed().map(m -> part(m, null, m::toMap, now)).orElse(null);
    RankingText.Part referencePart = r.reference().map(p -> part(p, null, p::toMap, now)).orElse(null);
    // The remainder without the plans, whose text is put in from the parts; the note comparing #1 with the reference is the ranking's own.
    Ranking remainder = new Ranking(r.scenario(), r.currency(), r.horizonMonths(), List.of(), Optional.empty(), r.mixedNote(),
        r.unavailable(), r.quotesAt(), Optional.empty(), r.excluded());
    Map<String, Object> m = remainder.toMap();
    Object at = m.remove("quotesAt");
    m.put("referenceNote", Localizer.neutral(r.referenceNote()));
    String restJson = Json.encode(m);
    MessageDigest d = sha256();
    d.update(restJson.getBytes(StandardCharsets.UTF_8));
    for (RankingText.Part p : planParts) d.update(p.digest);
    d.update((byte) (mixedPart == null ? 0 : 1));
    if (mixedPart != null) d.update(mixedPart.digest);
    d.update((byte) (referencePart == null ? 0 : 1));
    if (referencePart != null) d.update(referencePart.digest);
    byte[] digest = d.digest();
    parts = now;
    // after one vendor's change the remainder mostly reads the same: its renderings are kept
    if (rest == null || !rest.json.equals(restJson)) rest = new RankingText.Rest(restJson);
    text = RankingText.of(id, rest, planParts, mixedPart, referencePart, Json.encode(at), digest);
    return digest;
  }

  /** The message of the ranking last taken. */
  public RankingText text() {
    return text;
  }

  private RankingText.Part part(Object value, String vendor, Supplier<Map<String, Object>> map, Map<Object, RankingText.Part> now) {
    RankingText.Part p = parts.get(value);
    if (p == null) {
      String json = Json.encode(map.get());
      p = new RankingText.Part(json, sha256().digest(json.getBytes(StandardCharsets.UTF_8)), vendor);
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
