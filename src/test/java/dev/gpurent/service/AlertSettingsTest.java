package dev.gpurent.service;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AlertSettingsTest {

  @Test
  void waits_double_up_to_the_cap_and_jitter_only_shortens_them() {
    AlertSettings s = AlertSettings.DEFAULTS;
    assertEquals(List.of(2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 300L, 300L),
        IntStream.rangeClosed(2, 11).mapToObj(n -> s.delayBefore(n, 0).toSeconds()).toList());
    assertEquals(Duration.ofMillis(1600), s.delayBefore(2, 1.0), "at most jitter (0.2) of the wait is taken off");
    assertEquals(Duration.ofMinutes(4), s.delayBefore(40, 1.0), "the cap, shortened");
  }

  @Test
  void a_bad_setting_is_named_with_its_range() {
    assertEquals("alerts.attempts: must be a whole number from 1 to 20, got 0",
        assertThrows(IllegalArgumentException.class, () -> AlertSettings.from(new JsonObject().put("attempts", 0))).getMessage());
    assertEquals("alerts.jitter: must be a number from 0 to 1, got 2",
        assertThrows(IllegalArgumentException.class, () -> AlertSettings.from(new JsonObject().put("jitter", 2))).getMessage());
    assertEquals("alerts.maxBackoff: must be at least alerts.backoff (PT1M), got PT30S", assertThrows(IllegalArgumentException.class,
        () -> AlertSettings.from(new JsonObject().put("backoff", "1m").put("maxBackoff", "30s"))).getMessage());
  }

  @Test
  void webhooks_reach_public_hosts_only_at_a_bounded_rate_by_default_and_the_operator_names_the_exceptions() {
    AlertSettings d = AlertSettings.DEFAULTS;
    assertEquals(List.of(Set.of(), Duration.ofSeconds(2), Duration.ofSeconds(5), 4, 20, 60),
        List.of(d.allowHosts(), d.connectTimeout(), d.timeout(), d.connectionsPerHost(), d.perUrlPerMinute(), d.perClientPerMinute()));
    assertEquals(Set.of("chat.intranet.example", "127.0.0.1", "::1"),
        AlertSettings.from(new JsonObject().put("allowHosts", new JsonArray().add("Chat.Intranet.Example.").add("127.0.0.1").add("[::1]")))
            .allowHosts());
    assertEquals(Set.of("a.example", "b.example"), AlertSettings.from(new JsonObject().put("allowHosts", "a.example, b.example")).allowHosts(),
        "as an environment variable gives it");
    assertEquals("alerts.allowHosts: must be a list of host names, got http://a.example/", assertThrows(IllegalArgumentException.class,
        () -> AlertSettings.from(new JsonObject().put("allowHosts", new JsonArray().add("http://a.example/")))).getMessage());
    assertEquals("alerts.perUrlPerMinute: must be a whole number from 1 to 100000, got 0", assertThrows(IllegalArgumentException.class,
        () -> AlertSettings.from(new JsonObject().put("perUrlPerMinute", 0))).getMessage());
  }

  /** config/gpurent.yaml and the record say the same: the file's section reads to the defaults. */
  @Test
  void the_shipped_file_holds_the_defaults() {
    JsonObject file = new JsonObject(ServiceFixtures.castMap(dev.gpurent.config.YamlFiles.load(java.nio.file.Path.of("config/gpurent.yaml"))));
    assertEquals(AlertSettings.DEFAULTS, AlertSettings.from(file.getJsonObject("alerts")));
  }
}
