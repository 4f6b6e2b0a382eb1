package dev.gpurent.alert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.cost.InvalidInputException;
import dev.gpurent.text.Lang;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AlertRulesTest {

  static final WebhookHosts PUBLIC_ONLY = WebhookHostsTest.PUBLIC_ONLY;
  /** What the service tests' configuration allows: their fake webhooks listen on 127.0.0.1. */
  static final WebhookHosts LOOPBACK_ALLOWED = new WebhookHosts(Set.of("127.0.0.1"), new AddressClassifier(Set.of()));

  private static Map<String, Object> slack() {
    return Map.of("type", "slack", "url", "https://hooks.slack.com/services/T0/B0/x");
  }

  @Test
  void reads_every_kind_of_rule_with_its_language_and_the_scenario_name() {
    AlertRules r = AlertRules.read(Map.of("name", "team", "lang", "zh", "workloads", List.of(), "alerts", List.of(
        Map.of("when", "winnerChanged", "to", slack()),
        Map.of("when", "totalMovedPercent", "percent", 5, "to", Map.of("type", "json", "url", "http://127.0.0.1:9/hook")),
        Map.of("when", "totalBelow", "amount", "1500.50", "to", Map.of("type", "feishu", "url", "https://open.feishu.cn/x", "secret", "s")),
        Map.of("when", "vendorDated", "vendor", "runpod", "to", Map.of("type", "dingtalk", "url", "https://oapi.dingtalk.com/robot/send?access_token=t")),
        Map.of("when", "vendorUnavailable", "vendor", "vast", "to", Map.of("type", "wecom", "url", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k")),
        Map.of("when", "apiCheaper", "to", slack()))),
        LOOPBACK_ALLOWED);
    assertEquals(Lang.ZH, r.lang());
    assertEquals("team", r.name());
    assertEquals(6, r.rules().size());
    assertEquals(AlertRule.Kind.API_CHEAPER, r.rules().get(5).when());
    assertEquals(new AlertRule(1, AlertRule.Kind.TOTAL_MOVED_PERCENT, Optional.of(new BigDecimal("5")), Optional.empty(),
        Optional.empty(), new AlertRule.Target(Channel.JSON, "http://127.0.0.1:9/hook", Optional.empty())), r.rules().get(1));
    assertEquals(Optional.of(new BigDecimal("1500.5")), r.rules().get(2).amount());
    assertEquals(Optional.of("s"), r.rules().get(2).to().secret());
    assertEquals(Optional.of("vast"), r.rules().get(4).vendor());
    AlertRules none = AlertRules.read(Map.of("workloads", List.of()), PUBLIC_ONLY);
    assertEquals(new AlertRules(Lang.EN, "scenario", List.of()), none);
  }

  @Test
  void names_every_bad_field_with_its_range() {
    InvalidInputException e = assertThrows(InvalidInputException.class, () -> AlertRules.read(Map.of("lang", "fr", "alerts", List.of(
        Map.of("when", "totalBelow", "to", slack()),
        Map.of("when", "totalMovedPercent", "percent", 0, "vendor", "aws", "to", slack()),
        Map.of("when", "sometimes", "to", Map.of("type", "teams", "url", "ftp://x/y")),
        Map.of("when", "vendorDated", "vendor", "Run Pod", "to", Map.of("type", "slack", "url", "https://h.example/x", "secret", "s", "tls", 1)),
        "every hour",
        Map.of("when", "winnerChanged", "to", Map.of("type", "json", "url", "https://user:pw@example.com/x")),
        Map.of("when", "winnerChanged"))), PUBLIC_ONLY));
    assertEquals(List.of(
        "lang: must be en or zh, got 'fr'",
        "alerts[0].amount: is required for totalBelow",
        "alerts[1].percent: must be > 0 and at most 1000, got 0",
        "alerts[1].vendor: only vendorDated and vendorUnavailable takes it",
        "alerts[2].when: must be one of winnerChanged, totalMovedPercent, totalBelow, vendorDated, vendorUnavailable, apiCheaper, got 'sometimes'",
        "alerts[2].to.type: unknown, got 'teams'; one of feishu, dingtalk, wecom, slack, json",
        "alerts[2].to.url: must be an http:// or https:// URL with a host, got 'ftp://x/y'",
        "alerts[3].vendor: must be a vendor id (lowercase letters, digits, . _ -; at most 64), got 'Run Pod'",
        "alerts[3].to.tls: unknown field; known here: secret, type, url",
        "alerts[3].to.secret: only feishu and dingtalk sign their messages",
        "alerts[4]: must be an object",
        "alerts[5].to.url: must be an http:// or https:// URL with a host, got 'https://user:pw@example.com/x'",
        "alerts[6].to: is required: {type, url, secret?}"), e.problems().stream().map(Object::toString).toList());
  }

  @Test
  void refuses_more_than_twenty_rules_and_a_list_that_is_none() {
    List<Object> many = new ArrayList<>();
    for (int i = 0; i < 21; i++) many.add(Map.of("when", "winnerChanged", "to", slack()));
    assertEquals("alerts: at most 20 rules, got 21",
        assertThrows(InvalidInputException.class, () -> AlertRules.read(Map.of("alerts", many), PUBLIC_ONLY)).getMessage());
    assertEquals("alerts: must be a list of rules",
        assertThrows(InvalidInputException.class, () -> AlertRules.read(Map.of("alerts", "all"), PUBLIC_ONLY)).getMessage());
  }

  @Test
  void refuses_a_webhook_to_a_loopback_private_or_local_host_with_one_neutral_reason() {
    List<Object> rules = new ArrayList<>();
    for (String url : List.of("http://127.0.0.1:8080/api/admin/reload", "http://[::1]/", "http://localhost:8080/", "https://LOCALHOST./x",
        "http://169.254.169.254/latest/meta-data/", "http://10.0.0.5/hook", "http://[fd00::1]/", "http://[::ffff:127.0.0.1]:8080/",
        "http://2130706433:8080/", "http://metadata/computeMetadata/v1/", "http://db.internal/hook", "http://0.0.0.0:8080/")) {
      rules.add(Map.of("when", "winnerChanged", "to", Map.of("type", "json", "url", url)));
    }
    rules.add(Map.of("when", "winnerChanged", "to", Map.of("type", "json", "url", "https://internal.test/hook")));
    InvalidInputException e = assertThrows(InvalidInputException.class, () -> AlertRules.read(Map.of("alerts", rules), PUBLIC_ONLY));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 12; i++) expected.add("alerts[" + i + "].to.url: " + WebhookHosts.REFUSED);
    assertEquals(expected, e.problems().stream().map(Object::toString).toList(), "a name is looked up at each try, not here");
    assertEquals("http://127.0.0.1:8080/api/admin/reload", AlertRules.read(Map.of("alerts", rules.subList(0, 1)), LOOPBACK_ALLOWED)
        .rules().get(0).to().url(), "unless the operator allows the host");
  }
}
