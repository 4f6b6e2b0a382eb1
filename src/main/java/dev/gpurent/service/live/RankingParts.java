package dev.gpurent.service.live;

import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.VendorPlan;
import dev.gpurent.service.live.LiveRankingJson.Piece;
import dev.gpurent.text.Localizer;
import io.vertx.core.json.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Makes one live scenario's {@link LiveRankingUpdate}s from its rankings, one after another, and
 * says whether each shows something the one before did not. A live ranking keeps the plans of
 * vendors that did not change as the very same objects, so a plan met again (by identity) keeps its
 * {@link Piece}, with its renderings, and nothing is encoded for it; a new plan object that reads
 * the same as the vendor's last one (the same digest) takes over that one's piece. The quotes' time
 * alone is not a change. Not thread-safe: one ranking at a time.
 */
public final class RankingParts {

  private Piece rest;
  private List<Piece> plans = List.of();
  private Piece mixed;
  private Piece reference;
  private boolean changed;

  /** Takes {@code r} as the scenario's current ranking: its update, whose pieces are the last one's where they read the same. */
  public LiveRankingUpdate take(String id, Ranking r) {
    boolean first = rest == null;
    Map<String, Piece> byVendor = new HashMap<>();
    for (Piece p : plans) byVendor.put(p.vendor, p);
    List<Piece> planPieces = new ArrayList<>(r.plans().size());
    boolean same = !first && plans.size() == r.plans().size();
    for (VendorPlan p : r.plans()) {
      Piece piece = piece(p, p::toMap, p.vendor(), byVendor.get(p.vendor()));
      same &= samePlace(piece, planPieces.size());
      planPieces.add(piece);
    }
    Piece mixedPiece = r.mixed().map(m -> piece(m, m::toMap, null, mixed)).orElse(null);
    Piece referencePiece = r.reference().map(p -> piece(p, p::toMap, null, reference)).orElse(null);
    // The remainder without the pieces, whose texts go in its slots; the note comparing #1 with the reference is the ranking's own.
    Ranking remainder = new Ranking(r.scenario(), r.currency(), r.horizonMonths(), List.of(), Optional.empty(), r.mixedNote(),
        r.unavailable(), r.quotesAt(), Optional.empty(), r.excluded(), r.skipped(), r.apis());
    dev.gpurent.text.Message note = r.referenceNote();  // not r itself: a kept remainder must not hold an old ranking's plans
    Piece restPiece = Piece.of(remainder, () -> {
      Map<String, Object> m = remainder.toMap();
      m.remove("quotesAt");
      m.put("referenceNote", Localizer.neutral(note));
      return m;
    }, null);
    // after one vendor's change the remainder mostly reads the same: the last one is kept, with its renderings
    if (!first && restPiece.sameAs(rest)) restPiece = rest;
    changed = !(same && restPiece == rest && mixedPiece == mixed && referencePiece == reference);
    rest = restPiece;
    plans = planPieces;
    mixed = mixedPiece;
    reference = referencePiece;
    String at = Json.encode(r.quotesAt() == null ? null : r.quotesAt().toString());
    return LiveRankingUpdate.of(id, r, LiveRankingJson.of(id, restPiece, planPieces, mixedPiece, referencePiece, at));
  }

  /** Whether the ranking last taken shows something the one before did not (all of it but its quotes' time); true for the first. */
  public boolean changed() {
    return changed;
  }

  private boolean samePlace(Piece piece, int index) {
    return index < plans.size() && plans.get(index) == piece;
  }

  /** {@code value}'s piece: the vendor's last one when it is the same value or reads the same, else a new one. */
  private static Piece piece(Object value, java.util.function.Supplier<Map<String, Object>> map, String vendor, Piece last) {
    if (last != null && last.origin == value) return last;
    Piece p = Piece.of(value, map, vendor);
    if (last == null || !p.sameAs(last)) return p;
    last.origin = value;  // met again next time by identity, not encoded again
    return last;
  }
}
