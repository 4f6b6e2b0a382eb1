package dev.gpurent.service.live;

import dev.gpurent.cost.Ranking;
import dev.gpurent.service.live.LiveRankingJson.Piece;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes one live scenario's {@link LiveRankingUpdate}s from its rankings, one after another, and
 * says whether each shows something the one before did not. A live ranking gives the very same
 * standing for a plan it kept from one book to the next, and the same mixed plan and reference
 * objects while they stand, so a plan met again (the same standing against the same #1) keeps its
 * {@link Piece}: nothing is built, encoded or compared for it. In a ranking made anew in full, a
 * plan whose vendor's last piece was rendered (a followed scenario) is encoded and keeps that piece
 * when it reads the same; any other new plan is a new piece, built when it is read. The remainder
 * (what is left out, skipped, the notes, the APIs) is compared by value. The quotes' time alone is
 * not a change. Not thread-safe: one ranking at a time.
 */
public final class RankingParts {

  private Piece rest;
  private List<Piece> plans = List.of();
  private Piece mixed;
  private Piece reference;
  private boolean changed;

  /**
   * Takes {@code r} as the scenario's current ranking: its update, whose pieces are the last one's
   * where they show the same. With {@code byContent} (a ranking made anew in full, whose standings
   * are all new) a plan whose standing is new is compared by content with its vendor's last piece
   * when that one was rendered; a live ranking's new standing is a plan priced otherwise, which
   * reads otherwise.
   */
  public LiveRankingUpdate take(String id, Ranking r, boolean byContent) {
    return take(id, r, byContent, null);
  }

  /** The same, sharing with {@code previous} (the scenario's update as last sent; null for none) what reads the same. */
  public LiveRankingUpdate take(String id, Ranking r, boolean byContent, LiveRankingUpdate previous) {
    boolean first = rest == null;
    List<Ranking.Standing> standings = r.standings();
    Ranking.Standing best = standings.isEmpty() ? null : standings.get(0);
    List<Piece> planPieces = new ArrayList<>(standings.size());
    boolean same = !first && plans.size() == standings.size();
    for (Ranking.Standing s : standings) {
      // #1 shows no winsAt; every other plan's reads against #1
      Ranking.Standing against = s == best ? null : best;
      Piece last = lastOf(s.vendor(), planPieces.size());
      int at = planPieces.size();
      Piece piece = last == null || !byContent && !last.shows(s, against) ? Piece.of(s, against, s.vendor())
          : last.or(s, against, s.vendor(), () -> r.plans().get(at).toMap());
      same &= planPieces.size() < plans.size() && plans.get(planPieces.size()) == piece;
      planPieces.add(piece);
    }
    Piece mixedPiece = r.mixed().map(m -> mixed == null || !byContent && !mixed.shows(m, null) ? Piece.of(m, null, null)
        : mixed.or(m, null, null, m::toMap)).orElse(null);
    Piece referencePiece = r.reference().map(p -> reference == null || !byContent && !reference.shows(p, null) ? Piece.of(p, null, null)
        : reference.or(p, null, null, p::toMap)).orElse(null);
    List<Object> remainder = List.of(r.scenario(), r.currency(), r.horizonMonths(), r.mixedNote(), r.unavailable(), r.excluded(),
        r.skipped(), r.apis(), r.referenceNote());
    // after one vendor's change the remainder mostly reads the same: the last one is kept, with its renderings
    Piece restPiece = !first && rest.showsEqual(remainder) ? rest : Piece.of(remainder, null, null);
    changed = !(same && restPiece == rest && mixedPiece == mixed && referencePiece == reference);
    rest = restPiece;
    plans = planPieces;
    mixed = mixedPiece;
    reference = referencePiece;
    return LiveRankingUpdate.of(id, r, standings, LiveRankingJson.of(id, r, restPiece, planPieces, mixedPiece, referencePiece),
        previous);
  }

  /** Vendor {@code v}'s last piece, looked for at {@code at} first: a change moves a plan or two, mostly none. */
  private Piece lastOf(String v, int at) {
    if (at < plans.size() && plans.get(at).vendor.equals(v)) return plans.get(at);
    for (Piece p : plans) {
      if (p.vendor.equals(v)) return p;
    }
    return null;
  }

  /** Whether the ranking last taken shows something the one before did not (all of it but its quotes' time); true for the first. */
  public boolean changed() {
    return changed;
  }
}
