package dev.gpurent.service.live;

import dev.gpurent.cost.ApiComparison;
import dev.gpurent.cost.Ranking;
import dev.gpurent.text.Lang;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A live scenario's ranking as it travels from the RankingVerticle to the HTTP verticles (their
 * cache, their dashboards) and the AlertVerticle ({@code gpurent.rankings.changed}), or why it
 * failed. What the consumers read is typed: the scenario, the quotes' time, each plan's vendor,
 * rank, monthly total, currency and status (dated, complete), the mixed plan's and the reference's
 * totals, the vendors left out, and each inference workload's cheapest API against #1. The JSON
 * clients receive is rendered from {@link #json()} at the edge, once per language, when first asked
 * for ({@link LiveRankingJson}); the codec {@link LiveRankingCodec} carries both across nodes.
 *
 * @param status      200 for a ranking; a failure's HTTP status (503: no quotes yet; 500: the ranking failed)
 * @param error       why it failed; null for a ranking
 * @param quotesAt    the book's time the ranking was made on; null for a failure, or a book that states none
 * @param currency    the scenario's currency, every total's; null for a failure
 * @param plans       each vendor's plan in the ranking's order (#1 first)
 * @param mixedTotal  the mixed plan's monthly total, when the ranking has one
 * @param reference   the reference sheet's plan (rank 0), shown beside the ranking, never in it
 * @param unavailable the vendors that cannot carry the scenario
 * @param apis        each inference workload's cheapest per-token API that carries it, against what #1 rents it for
 * @param json        its JSON per language; null only for an update made by hand (tests), which cannot be rendered
 */
public record LiveRankingUpdate(String scenario, int status, String error, Instant quotesAt, String currency, List<Standing> plans,
                                Optional<BigDecimal> mixedTotal, Optional<Standing> reference, List<String> unavailable,
                                List<ApiStanding> apis, LiveRankingJson json) {

  /** The HTTP status of a ranking. */
  public static final int OK = 200;

  /**
   * One vendor's plan as alerts and summaries read it.
   *
   * @param rank     its place, #1 first (0 for the reference)
   * @param dated    its prices are older than the allowed age
   * @param complete every line at the vendor's own stated price
   */
  public record Standing(String vendor, int rank, BigDecimal monthlyTotal, String currency, boolean dated, boolean complete) {}

  /** An inference workload's cheapest API that carries it: {@code monthly} there against {@code rented} at #1 ({@code vendor}). */
  public record ApiStanding(String workload, String provider, BigDecimal monthly, BigDecimal rented, String vendor) {}

  public LiveRankingUpdate {
    Objects.requireNonNull(scenario, "scenario");
    plans = List.copyOf(plans);
    unavailable = List.copyOf(unavailable);
    apis = List.copyOf(apis);
  }

  /** The update of ranking {@code r} of {@code scenario}, rendered from {@code json}. */
  static LiveRankingUpdate of(String scenario, Ranking r, List<Ranking.Standing> standings, LiveRankingJson json) {
    List<Standing> plans = new ArrayList<>(standings.size());
    for (Ranking.Standing p : standings) plans.add(standing(p, plans.size() + 1));
    return new LiveRankingUpdate(scenario, OK, null, r.quotesAt(), r.currency(), plans,
        r.mixed().map(m -> new BigDecimal(m.bill().monthlyTotal().plain())), r.reference().map(p -> standing(Ranking.Standing.of(p), 0)),
        r.unavailable().stream().map(Ranking.Unavailable::vendor).toList(), apis(r), json);
  }

  /** A failure: {@code status} and why. */
  public static LiveRankingUpdate failure(String scenario, int status, String error) {
    return new LiveRankingUpdate(scenario, status, error, null, null, List.of(), Optional.empty(), Optional.empty(), List.of(), List.of(),
        LiveRankingJson.failure(scenario, status, error));
  }

  /** Whether this says why the ranking failed rather than giving one. */
  public boolean failed() {
    return status != OK;
  }

  /** Whether {@code other} shows the same: this very update (published again), or the same failure. */
  public boolean sameAs(LiveRankingUpdate other) {
    return other == this || other != null && failed() && other.failed() && status == other.status && Objects.equals(error, other.error);
  }

  /** The dashboards' message in {@code lang}: {@code {"type":"ranking","scenario":id,"ranking":R}}, or the failure's. */
  public String text(Lang lang) {
    return json.text(lang);
  }

  /** The REST body in {@code lang}: R alone, as {@code POST /api/rank} answers it; a failure's message as it is. */
  public String ranking(Lang lang) {
    return json.ranking(lang);
  }

  /** The message for a dashboard whose last message of this scenario was {@code previous}: a delta when it can be ({@link LiveRankingJson#textAfter}). */
  public String textAfter(LiveRankingUpdate previous, Lang lang) {
    return json.textAfter(previous == null ? null : previous.json, lang);
  }

  private static Standing standing(Ranking.Standing p, int rank) {
    // a total in cents is its own plain form: shared with the plan's draft rather than parsed again
    BigDecimal total = p.monthlyTotal().amount().scale() == 2 ? p.monthlyTotal().amount() : new BigDecimal(p.monthlyTotal().plain());
    return new Standing(p.vendor(), rank, total, p.monthlyTotal().currency(), p.dated(), p.complete());
  }

  /** Each comparison's cheapest API, when it carries the workload and #1 rents it (as the ranking's JSON shows them). */
  private static List<ApiStanding> apis(Ranking r) {
    List<ApiStanding> out = new ArrayList<>();
    for (ApiComparison c : r.apis()) {
      if (c.rented().isEmpty()) continue;
      c.cheapest().filter(ApiComparison.Option::carries).ifPresent(o -> out.add(new ApiStanding(c.workload(), o.quote().provider(),
          new BigDecimal(o.monthly().cents().plain()), new BigDecimal(c.rented().get().plain()), String.valueOf(c.rentedAt()))));
    }
    return out;
  }
}
