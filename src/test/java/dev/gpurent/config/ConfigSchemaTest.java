package dev.gpurent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one configuration schema: every key of the shipped file known, with the file's default equal to the code's. */
class ConfigSchemaTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> shipped() {
    return (Map<String, Object>) YamlFiles.load(Path.of("config/gpurent.yaml"));
  }

  @Test
  void every_key_of_the_file_is_known_with_the_files_default_equal_to_the_codes() {
    Map<String, Object> leaves = new java.util.LinkedHashMap<>();
    leaves(shipped(), "", leaves);
    assertTrue(leaves.size() > 80, "keys read: " + leaves.keySet());
    List<String> differ = new ArrayList<>();
    leaves.forEach((path, value) -> {
      ConfigSchema.Key k = ConfigSchema.key(path);
      assertNotNull(k, path + " is not in the schema");
      // the two data tables (fallbacks, fx.fallback) have no default: the file is their source
      if (k.dflt() == null) return;
      if (!ConfigSchema.value(path, k.dflt()).equals(ConfigSchema.value(path, value))) {
        differ.add(path + ": file " + value + ", code " + k.dflt());
      }
    });
    assertEquals(List.of(), differ);
    // and the file shows every default the code has, so that it reads as the whole manual
    List<String> missing = new ArrayList<>();
    ConfigSchema.keys().forEach((path, k) -> {
      if (k.dflt() != null && !leaves.containsKey(path)) missing.add(path);
    });
    assertEquals(List.of(), missing);
  }

  @Test
  void the_feeds_default_urls_are_the_ones_their_adapters_name() {
    assertEquals(dev.gpurent.adapter.EcbFxAdapter.DAILY_URL, ConfigSchema.keys().get("fx.source").dflt());
    assertEquals(dev.gpurent.adapter.AwsSpotAdvisorAdapter.URL, ConfigSchema.keys().get("quotes.spotRisk").dflt());
  }

  @Test
  void the_breaker_stays_open_five_minutes_as_the_file_says() {
    // 5m, not the 60 s the code used to fall back to: the shipped file (what every install runs)
    // has said 5m all along, and a vendor down for a minute is usually down for longer.
    assertEquals(Duration.ofMinutes(5), ConfigSchema.value("quotes.breaker.resetTimeout", ConfigSchema.keys()
        .get("quotes.breaker.resetTimeout").dflt()));
  }

  @Test
  void an_unknown_key_is_refused_naming_the_nearest_known_one() {
    Map<String, Object> config = shipped();
    @SuppressWarnings("unchecked") Map<String, Object> http = (Map<String, Object>) config.get("http");
    http.put("prot", 9090);
    assertEquals("http.prot: unknown key; did you mean http.port?",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(config)).getMessage());
    assertEquals("quotes.breaker.resetTimout: unknown key; did you mean quotes.breaker.resetTimeout?",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("quotes", Map.of("breaker",
            Map.of("resetTimout", "5m"))))).getMessage());
    assertEquals("rankng: unknown key; did you mean ranking?",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("rankng", Map.of()))).getMessage());
  }

  @Test
  void a_bad_value_names_the_key_as_written_with_its_range() {
    assertEquals("http.idleTimeout: must look like 500ms, 30s, 5m, 6h or 1d, got 'soon'",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("http", Map.of("idleTimeout", "soon"))))
            .getMessage());
    assertEquals("clients.ipv4Prefix: must be a whole number from 0 to 32, got 33",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("clients", Map.of("ipv4Prefix", 33))))
            .getMessage());
    assertEquals("health.heapAfterGc: must be a number more than 0 and at most 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("health", Map.of("heapAfterGc", 0))))
            .getMessage());
    assertEquals("cluster.failureDetection: must be at least 2s, got 1s",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("cluster", Map.of("failureDetection", "1s"))))
            .getMessage());
    assertEquals("http: must be a section of keys, got 8080",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.check(Map.of("http", 8080))).getMessage());
  }

  @Test
  void the_top_level_keys_have_their_defaults_and_sections_nest() {
    ConfigSchema.Section top = ConfigSchema.root(Map.of("adapters", "my-adapters"));
    assertEquals("my-adapters", top.text("adapters"));
    assertEquals("config/gpus.yaml", top.text("catalog"));
    assertEquals(Duration.ofMinutes(5), top.section("quotes").section("breaker").duration("resetTimeout"));
    assertEquals("adaptres: unknown key; did you mean adapters?",
        assertThrows(IllegalArgumentException.class, () -> ConfigSchema.root(Map.of("adaptres", "x"))).getMessage());
  }

  @Test
  void text_as_the_environment_gives_it_is_read_as_the_keys_kind() {
    assertEquals(9090, ConfigSchema.value("http.port", "9090"));
    assertEquals(false, ConfigSchema.value("ranking.incremental", "false"));
    assertEquals(268435456L * 2, ConfigSchema.value("ranking.memoryBudget", "536870912"));
    assertEquals(0.5, ConfigSchema.value("health.heapAfterGc", "0.5"));
    assertEquals(List.of("a.example", "b.example"), ConfigSchema.value("alerts.allowHosts", "a.example, b.example"));
    assertEquals(Duration.ofMinutes(7), ConfigSchema.value("quotes.breaker.resetTimeout", "7m"));
    assertEquals(new java.math.BigDecimal("1.13"), ConfigSchema.value("fx.fallback.rates.USD", "1.13"));
  }

  @SuppressWarnings("unchecked")
  private static void leaves(Map<String, Object> map, String prefix, Map<String, Object> into) {
    map.forEach((k, v) -> {
      String path = prefix + k;
      if (v instanceof Map<?, ?> m && ConfigSchema.isSection(path)) leaves((Map<String, Object>) m, path + ".", into);
      else into.put(path, v);
    });
  }
}
