package dev.gpurent.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpurent.text.Lang;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AlertEvaluatorTest {

  static final AlertRule.Target TO = new AlertRule.Target(Channel.JSON, "http://127.0.0.1:1/x", Optional.empty());
  static final AlertRules RULES = new AlertRules(Lang.EN, "team", List.of(
      new AlertRule(0, AlertRule.Kind.WINNER_CHANGED, Optional.empty(), Optional.empty(), Optional.empty(), TO),
      new AlertRule(1, AlertRule.Kind.TOTAL_MOVED_PERCENT, Optional.of(new BigDecimal("10")), Optional.empty(), Optional.empty(), TO),
      new AlertRule(2, AlertRule.Kind.TOTAL_BELOW, Optional.empty(), Optional.of(new BigDecimal("1500")), Optional.empty(), TO),
      new AlertRule(3, AlertRule.Kind.VENDOR_DATED, Optional.empty(), Optional.empty(), Optional.of("vast"), TO),
      new AlertRule(4, AlertRule.Kind.VENDOR_UNAVAILABLE, Optional.empty(), Optional.empty(), Optional.of("lambda"), TO)));

  static RankingSummary.Plan plan(String vendor, String total, boolean dated) {
    return new RankingSummary.Plan(vendor, new BigDecimal(total), dated);
  }

  static RankingSummary ranking(String at, RankingSummary.Plan... plans) {
    return new RankingSummary("USD", at, List.of(plans));
  }

  static List<String> keys(List<AlertEvent> events) {
    return events.stream().map(AlertEvent::key).toList();
  }

  @Test
  void the_first_ranking_fires_only_states_that_already_hold() {
    RankingSummary first = ranking("2026-12-01T00:00:00Z", plan("runpod", "1400.00", false), plan("vast", "1600.00", true));
    List<AlertEvent> events = AlertEvaluator.evaluate("s", RULES, null, first);
    assertEquals(List.of("s:2:baseline", "s:3:baseline", "s:4:baseline"), keys(events));
    assertEquals(true, events.get(0).baseline());
    assertEquals(Optional.empty(), events.get(0).previous());
    RankingSummary fine = ranking("2026-12-01T00:00:00Z", plan("runpod", "1800.00", false), plan("lambda", "1900.00", false));
    assertEquals(List.of(), AlertEvaluator.evaluate("s", RULES, null, fine));
  }

  @Test
  void changes_fire_once_when_they_happen_keyed_by_the_rankings_quote_time() {
    RankingSummary before = ranking("2026-12-01T00:00:00Z", plan("runpod", "1800.00", false), plan("vast", "1900.00", false),
        plan("lambda", "2000.00", false));
    RankingSummary after = ranking("2026-12-01T06:00:00Z", plan("vast", "1450.00", true), plan("runpod", "1800.00", false));
    List<AlertEvent> events = AlertEvaluator.evaluate("s", RULES, before, after);
    String at = ":2026-12-01T06:00:00Z";
    assertEquals(List.of("s:0" + at, "s:1" + at, "s:2" + at, "s:3" + at, "s:4" + at), keys(events));
    assertEquals(Optional.of(new BigDecimal("-19.44")), events.get(1).movedPercent());
    assertEquals("runpod", events.get(0).previous().orElseThrow().vendor());
    assertEquals("vast", events.get(0).current().orElseThrow().vendor());
    // the same states the next time: nothing new
    RankingSummary again = ranking("2026-12-01T12:00:00Z", plan("vast", "1440.00", true), plan("runpod", "1800.00", false));
    assertEquals(List.of(), AlertEvaluator.evaluate("s", RULES, after, again));
    // a move within the percent, and above the amount again, fire nothing; going below again fires again
    RankingSummary up = ranking("2026-12-02T00:00:00Z", plan("vast", "1540.00", true));
    assertEquals(List.of(), AlertEvaluator.evaluate("s", RULES, again, up));
    RankingSummary down = ranking("2026-12-03T00:00:00Z", plan("vast", "1499.99", true));
    assertEquals(List.of("s:2:2026-12-03T00:00:00Z"), keys(AlertEvaluator.evaluate("s", RULES, up, down)));
  }

  @Test
  void the_winner_may_go_and_come_back() {
    RankingSummary some = ranking("t1", plan("runpod", "1800.00", false));
    RankingSummary none = ranking("t2");
    List<AlertEvent> gone = AlertEvaluator.evaluate("s", RULES, some, none);
    assertEquals(List.of("s:0:t2"), keys(gone));
    assertEquals(Optional.empty(), gone.get(0).current());
    List<AlertEvent> back = AlertEvaluator.evaluate("s", RULES, none, some);
    assertEquals(List.of("s:0:t1"), keys(back));
    assertEquals(Optional.empty(), back.get(0).previous());
  }

  @Test
  void the_winner_is_the_cheapest_complete_plan_and_an_incomplete_one_moving_does_not_change_it() {
    RankingSummary before = RankingSummary.of(java.util.Map.of("currency", "USD", "quotesAt", "t0", "plans", List.of(
        java.util.Map.of("vendor", "primeintellect", "monthlyTotal", "3199.69", "complete", false),
        java.util.Map.of("vendor", "azure", "monthlyTotal", "7854.02", "complete", true))));
    assertEquals("azure", before.best().orElseThrow().vendor());
    RankingSummary after = ranking("t1", new RankingSummary.Plan("azure", new BigDecimal("7854.02"), false, true),
        new RankingSummary.Plan("runpod", new BigDecimal("2000.00"), false, false));
    assertEquals(List.of(), keys(AlertEvaluator.evaluate("s", RULES, before, after)), "#1 is azure in both: nothing fires");
    RankingSummary none = ranking("t2", new RankingSummary.Plan("runpod", new BigDecimal("2000.00"), false, false));
    assertEquals("runpod", none.best().orElseThrow().vendor(), "with no complete plan, the cheapest stands first");
  }

  /** A ranking as it travels, with one workload's API comparison: deepinfra at {@code api} a month against {@code rented} at vast. */
  static RankingSummary withApi(String at, String api, String rented) {
    return RankingSummary.of(java.util.Map.of("currency", "USD", "quotesAt", at,
        "plans", List.of(java.util.Map.of("vendor", "vast", "monthlyTotal", rented)),
        "apis", List.of(java.util.Map.of("workload", "chat", "cheapest", "deepinfra", "rented", rented, "rentedAt", "vast",
            "options", List.of(java.util.Map.of("provider", "deepinfra", "monthly", api, "carries", true))))));
  }

  @Test
  void api_cheaper_than_renting_fires_when_it_begins_and_says_both_sides() {
    AlertRules rules = new AlertRules(Lang.EN, "llama chat", List.of(
        new AlertRule(0, AlertRule.Kind.API_CHEAPER, Optional.empty(), Optional.empty(), Optional.empty(), TO)));
    // The sample root's Llama-3.1-70B chat: deepinfra 788.40 against 467.20 of rented RTX 3090s: renting wins, nothing fires.
    RankingSummary renting = withApi("t1", "788.40", "467.20");
    assertEquals(List.of(), AlertEvaluator.evaluate("s", rules, null, renting));
    RankingSummary api = withApi("t2", "788.40", "900.00");
    List<AlertEvent> fired = AlertEvaluator.evaluate("s", rules, renting, api);
    assertEquals(List.of("s:0:t2"), keys(fired));
    assertEquals("gpurent: for \"llama chat\", calling deepinfra for chat costs 788.40 USD a month, less than the 900.00 USD"
        + " of GPUs rented at vast.", dev.gpurent.text.Messages.of("alerts", Lang.EN).render(fired.get(0).message()));
    assertEquals(List.of(), AlertEvaluator.evaluate("s", rules, api, withApi("t3", "788.40", "901.00")), "still cheaper: told once");
    assertEquals(List.of("s:0:baseline"), keys(AlertEvaluator.evaluate("s", rules, null, api)), "already cheaper at the start");
    assertEquals(List.of(), RankingSummary.of(java.util.Map.of("currency", "USD", "plans", List.of())).apis(),
        "a ranking without apis compares nothing");
  }
}
