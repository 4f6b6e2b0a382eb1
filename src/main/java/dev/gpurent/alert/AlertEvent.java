package dev.gpurent.alert;

import dev.gpurent.text.Lang;
import dev.gpurent.text.Message;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One firing of one rule on one ranking. Its {@code key} is the same on every node that sees the
 * same ranking, so that a cluster delivers it once: {@code <scenario>:<rule>:<quotesAt>}, or
 * {@code <scenario>:<rule>:baseline} for a state already true on the scenario's first ranking.
 *
 * @param at        the ranking's {@code quotesAt} (null when it had none)
 * @param previous  the #1 before (empty on the first ranking, or when no vendor could carry it)
 * @param current   the #1 now (empty when no vendor can carry the scenario)
 * @param threshold the rule's percent or amount
 * @param movedPercent how far the best total moved, in percent, signed (totalMovedPercent only)
 * @param api       the workload whose API is cheaper than renting (apiCheaper only)
 */
public record AlertEvent(String key, String scenario, String name, AlertRule rule, boolean baseline, String at,
                         String currency, Optional<RankingSummary.Plan> previous, Optional<RankingSummary.Plan> current,
                         Optional<BigDecimal> movedPercent, Optional<RankingSummary.Api> api) {

  /** An event of a rule that is not about APIs. */
  public AlertEvent(String key, String scenario, String name, AlertRule rule, boolean baseline, String at, String currency,
                    Optional<RankingSummary.Plan> previous, Optional<RankingSummary.Plan> current, Optional<BigDecimal> movedPercent) {
    this(key, scenario, name, rule, baseline, at, currency, previous, current, movedPercent, Optional.empty());
  }

  /** The event's text, not yet in a language (bundle {@code alerts}). */
  public Message message() {
    String to = current.map(RankingSummary.Plan::vendor).orElse(null);
    String total = current.map(p -> p.monthlyTotal().toPlainString()).orElse(null);
    String from = previous.map(RankingSummary.Plan::vendor).orElse(null);
    return switch (rule.when()) {
      case WINNER_CHANGED -> from == null ? Message.of("alert.winner-back", "name", name, "to", to, "total", total, "currency", currency)
          : to == null ? Message.of("alert.winner-gone", "name", name, "from", from)
          : Message.of("alert.winner-changed", "name", name, "from", from, "to", to, "total", total, "currency", currency);
      case TOTAL_MOVED_PERCENT -> Message.of(movedPercent.orElseThrow().signum() > 0 ? "alert.total-up" : "alert.total-down",
          "name", name, "percent", movedPercent.get().abs().toPlainString(),
          "from", previous.orElseThrow().monthlyTotal().toPlainString(), "to", total, "currency", currency, "vendor", to);
      case TOTAL_BELOW -> Message.of("alert.total-below", "name", name, "total", total, "currency", currency, "vendor", to,
          "threshold", rule.amount().orElseThrow().toPlainString());
      case VENDOR_DATED -> Message.of("alert.vendor-dated", "name", name, "vendor", rule.vendor().orElseThrow());
      case VENDOR_UNAVAILABLE -> Message.of("alert.vendor-unavailable", "name", name, "vendor", rule.vendor().orElseThrow());
      case API_CHEAPER -> Message.of("alert.api-cheaper", "name", name, "workload", api.orElseThrow().workload(),
          "provider", api.get().provider(), "monthly", api.get().monthly().toPlainString(), "rented", api.get().rented().toPlainString(),
          "vendor", api.get().vendor(), "currency", currency);
    };
  }

  /**
   * The event as the plain {@code json} webhook receives it and the delivery log shows it (no
   * URL, no secret): {@code {source, key, scenario, name, rule, when, baseline, at, currency,
   * previous, current, vendor, threshold, movedPercent, lang, text}}, every field always present.
   */
  public Map<String, Object> toMap(Lang lang, String text) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", "gpurent");
    m.put("key", key);
    m.put("scenario", scenario);
    m.put("name", name);
    m.put("rule", rule.index());
    m.put("when", rule.when().wire());
    m.put("baseline", baseline);
    m.put("at", at);
    m.put("currency", currency);
    m.put("previous", previous.map(AlertEvent::plan).orElse(null));
    m.put("current", current.map(AlertEvent::plan).orElse(null));
    m.put("vendor", rule.vendor().orElse(null));
    m.put("threshold", rule.percent().or(rule::amount).map(BigDecimal::toPlainString).orElse(null));
    m.put("movedPercent", movedPercent.map(BigDecimal::toPlainString).orElse(null));
    m.put("lang", lang.tag());
    m.put("text", text);
    return m;
  }

  private static Map<String, Object> plan(RankingSummary.Plan p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("vendor", p.vendor());
    m.put("monthlyTotal", p.monthlyTotal().toPlainString());
    m.put("dated", p.dated());
    return m;
  }
}
