package dev.gpurent.alert;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which rules a new ranking fires, from the scenario's previous ranking and the new one; pure, so
 * that every node seeing the same two rankings finds the same events with the same keys.
 *
 * <p>The first ranking of a scenario (no previous one) is its baseline: the change rules
 * (winnerChanged, totalMovedPercent) need a previous ranking and fire nothing; the state rules
 * (totalBelow, vendorDated, vendorUnavailable, apiCheaper) fire when their state holds already, under the
 * key {@code <scenario>:<rule>:baseline}, so that a restart, which starts from a baseline again,
 * does not tell it twice. Afterwards a state rule fires when its state begins (the total goes
 * from at or above the amount to below it; the vendor's plan becomes dated; the vendor's plan
 * goes), and again each time it begins anew.
 */
public final class AlertEvaluator {

  private AlertEvaluator() {}

  /**
   * @param previous the scenario's last ranking, or null for its first
   */
  public static List<AlertEvent> evaluate(String scenario, AlertRules setup, RankingSummary previous, RankingSummary current) {
    List<AlertEvent> events = new ArrayList<>();
    boolean baseline = previous == null;
    Optional<RankingSummary.Plan> before = baseline ? Optional.empty() : previous.best();
    Optional<RankingSummary.Plan> now = current.best();
    String stamp = baseline ? "baseline" : current.quotesAt() != null ? current.quotesAt() : "sha-" + digest(current);
    for (AlertRule rule : setup.rules()) {
      Optional<BigDecimal> moved = Optional.empty();
      boolean fired = switch (rule.when()) {
        case WINNER_CHANGED -> !baseline && !Objects.equals(before.map(RankingSummary.Plan::vendor), now.map(RankingSummary.Plan::vendor));
        case TOTAL_MOVED_PERCENT -> {
          moved = before.filter(b -> b.monthlyTotal().signum() > 0).flatMap(b -> now.map(n -> percent(b.monthlyTotal(), n.monthlyTotal())));
          yield moved.isPresent() && moved.get().abs().compareTo(rule.percent().orElseThrow()) > 0;
        }
        case TOTAL_BELOW -> {
          BigDecimal amount = rule.amount().orElseThrow();
          yield now.isPresent() && now.get().monthlyTotal().compareTo(amount) < 0
              && (before.isEmpty() || before.get().monthlyTotal().compareTo(amount) >= 0);
        }
        case VENDOR_DATED -> {
          String v = rule.vendor().orElseThrow();
          yield dated(current, v) && (baseline || !dated(previous, v));
        }
        case VENDOR_UNAVAILABLE -> {
          String v = rule.vendor().orElseThrow();
          yield current.plan(v).isEmpty() && (baseline || previous.plan(v).isPresent());
        }
        case API_CHEAPER -> current.cheaperApi().isPresent() && (baseline || previous.cheaperApi().isEmpty());
      };
      if (fired) {
        events.add(new AlertEvent(scenario + ":" + rule.index() + ":" + stamp, scenario, setup.name(), rule, baseline,
            current.quotesAt(), current.currency(), before, now, moved,
            rule.when() == AlertRule.Kind.API_CHEAPER ? current.cheaperApi() : Optional.empty()));
      }
    }
    return events;
  }

  private static boolean dated(RankingSummary r, String vendor) {
    return r.plan(vendor).map(RankingSummary.Plan::dated).orElse(false);
  }

  /** (to - from) / from in percent, to two decimals. */
  private static BigDecimal percent(BigDecimal from, BigDecimal to) {
    return to.subtract(from).multiply(BigDecimal.valueOf(100)).divide(from, 2, RoundingMode.HALF_UP);
  }

  /** Stands in for a missing quotesAt: the same ranking gives the same key on every node. */
  private static String digest(RankingSummary r) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(r.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
