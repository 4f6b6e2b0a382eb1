package dev.gpurent.service.live;

import dev.gpurent.cost.ApiComparison;
import dev.gpurent.cost.Ranking;
import dev.gpurent.quote.Money;
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
  public record Standing(String vendor, int rank, BigDecimal monthlyTotal, String currency, boolean dated, boolean complete) {

    /** Whether this is what {@code p} at {@code rank} gives (without making it). */
    boolean reads(Ranking.Standing p, int rank) {
      Money total = p.monthlyTotal();
      return this.rank == rank && vendor.equals(p.vendor()) && dated == p.dated() && complete == p.complete()
          && currency.equals(total.currency()) && (monthlyTotal == total.amount() || monthlyTotal.equals(totalOf(total)));
    }
  }

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
    return of(scenario, r, standings, json, null);
  }

  /**
   * The same, sharing with {@code previous} (the scenario's last update; null for none) the
   * standings and lists that read the same: after one vendor's change a live scenario's update
   * differs from the last in a plan or two, and every live scenario makes one.
   */
  static LiveRankingUpdate of(String scenario, Ranking r, List<Ranking.Standing> standings, LiveRankingJson json,
                              LiveRankingUpdate previous) {
    List<Standing> before = previous == null || previous.failed() ? List.of() : previous.plans;
    // the last list itself while every plan reads as it did; a new one from the first that does not
    List<Standing> plans = before.size() == standings.size() ? before : null;
    for (int at = 0; at < standings.size(); at++) {
      Ranking.Standing p = standings.get(at);
      Standing kept = at < before.size() ? before.get(at) : null;
      if (plans == before && kept.reads(p, at + 1)) continue;
      if (plans == before || plans == null) {
        plans = new ArrayList<>(standings.size());
        plans.addAll(before.subList(0, Math.min(at, before.size())));
      }
      plans.add(kept != null && kept.reads(p, at + 1) ? kept : standing(p, at + 1));
    }
    List<String> unavailable = previous != null && !previous.failed() && sameVendors(r.unavailable(), previous.unavailable)
        ? previous.unavailable : r.unavailable().stream().map(Ranking.Unavailable::vendor).toList();
    List<ApiStanding> apis = apis(r);
    if (previous != null && apis.equals(previous.apis)) apis = previous.apis;
    return new LiveRankingUpdate(scenario, OK, null, r.quotesAt(), r.currency(), plans,
        r.mixed().map(m -> new BigDecimal(m.bill().monthlyTotal().plain())), r.reference().map(p -> standing(Ranking.Standing.of(p), 0)),
        unavailable, apis, json);
  }

  private static boolean sameVendors(List<Ranking.Unavailable> now, List<String> before) {
    if (now.size() != before.size()) return false;
    for (int i = 0; i < before.size(); i++) {
      if (!now.get(i).vendor().equals(before.get(i))) return false;
    }
    return true;
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
    return new Standing(p.vendor(), rank, totalOf(p.monthlyTotal()), p.monthlyTotal().currency(), p.dated(), p.complete());
  }

  /** A total as its plain form reads: one in cents is its own, shared with the plan's draft rather than parsed again. */
  private static BigDecimal totalOf(Money total) {
    return total.amount().scale() == 2 ? total.amount() : new BigDecimal(total.plain());
  }

  /** Each comparison's cheapest API, when it carries the workload and #1 rents it (as the ranking's JSON shows them). */
  private static List<ApiStanding> apis(Ranking r) {
    if (r.apis().isEmpty()) return List.of();
    List<ApiStanding> out = new ArrayList<>();
    for (ApiComparison c : r.apis()) {
      if (c.rented().isEmpty()) continue;
      c.cheapest().filter(ApiComparison.Option::carries).ifPresent(o -> out.add(new ApiStanding(c.workload(), o.quote().provider(),
          new BigDecimal(o.monthly().cents().plain()), new BigDecimal(c.rented().get().plain()), String.valueOf(c.rentedAt()))));
    }
    return out;
  }
}
