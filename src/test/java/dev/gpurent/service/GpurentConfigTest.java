package dev.gpurent.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.config.ConfigSchema;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration's layers (file, -D, GPURENT_*), each checked against the schema, a fault named as the user wrote it. */
class GpurentConfigTest {

  private static final Path SHIPPED = Path.of("config/gpurent.yaml");

  @TempDir
  Path dir;

  private Path fileWith(String from, String to) throws IOException {
    Path file = dir.resolve("gpurent.yaml");
    String text = Files.readString(SHIPPED);
    if (!text.contains(from)) throw new AssertionError(from);
    Files.writeString(file, text.replace(from, to));
    return file;
  }

  @Test
  void http_prot_in_the_file_is_refused_naming_http_port() throws IOException {
    Path file = fileWith("  port: 8080\n", "  prot: 9090\n");
    assertEquals(file + ": http.prot: unknown key; did you mean http.port?", assertThrows(IllegalArgumentException.class,
        () -> GpurentConfig.layered(file, new Properties(), Map.of())).getMessage());
  }

  @Test
  void a_bad_http_idle_timeout_is_named_http_idle_timeout_not_quotes() throws IOException {
    Path file = fileWith("  idleTimeout: 60s ", "  idleTimeout: soon ");
    assertEquals(file + ": http.idleTimeout: must look like 500ms, 30s, 5m, 6h or 1d, got 'soon'",
        assertThrows(IllegalArgumentException.class, () -> GpurentConfig.layered(file, new Properties(), Map.of())).getMessage());
    // and read on its own, as tests and the CLI do
    assertEquals("http.idleTimeout: must look like 500ms, 30s, 5m, 6h or 1d, got 'soon'", assertThrows(IllegalArgumentException.class,
        () -> HttpSettings.from(new JsonObject().put("idleTimeout", "soon"), k -> null)).getMessage());
  }

  @Test
  void every_key_has_its_environment_variable_nested_ones_too() {
    List<String> unmatched = new ArrayList<>();
    for (String key : ConfigSchema.keys().keySet()) {
      String concrete = key.replace("*", "USD");
      String variable = "GPURENT_" + concrete.replace('.', '_').toUpperCase(java.util.Locale.ROOT);
      String found = GpurentConfig.environmentKey(variable);
      if (!concrete.equalsIgnoreCase(String.valueOf(found))) unmatched.add(variable + " -> " + found);
    }
    assertEquals(List.of(), unmatched);
    // underscores between words are allowed, and a variable outside gpurent's sections is not ours
    assertEquals("quotes.breaker.resetTimeout", GpurentConfig.environmentKey("GPURENT_QUOTES_BREAKER_RESET_TIMEOUT"));
    assertEquals("fx.fallback.rates.USD", GpurentConfig.environmentKey("GPURENT_FX_FALLBACK_RATES_USD"));
    assertNull(GpurentConfig.environmentKey("GPURENT_ADMIN_TOKEN"));
    assertNull(GpurentConfig.environmentKey("GPURENT_BENCH_PORT"));
  }

  @Test
  void system_properties_then_the_environment_override_nested_keys() {
    Properties system = new Properties();
    system.setProperty("quotes.breaker.resetTimeout", "9m");
    system.setProperty("store.retention.maxDays", "365");
    system.setProperty("http.port", "9090");
    JsonObject c = GpurentConfig.layered(SHIPPED, system, Map.of("GPURENT_QUOTES_BREAKER_RESETTIMEOUT", "7m",
        "GPURENT_ALERTS_ALLOWHOSTS", "chat.intranet.example", "GPURENT_FX_FALLBACK_RATES_USD", "1.2"));
    assertEquals(Duration.ofMinutes(7), QuoteSettings.from(c.getJsonObject("quotes")).resetTimeout());  // the environment wins
    assertEquals(9090, HttpSettings.from(c.getJsonObject("http"), k -> null).port());
    assertEquals(365, dev.gpurent.store.Retention.from(c.getJsonObject("store").getJsonObject("retention"),
        java.time.ZoneOffset.UTC).maxDays());
    assertEquals(java.util.Set.of("chat.intranet.example"), AlertSettings.from(c.getJsonObject("alerts")).allowHosts());
    assertEquals("1.2", c.getJsonObject("fx").getJsonObject("fallback").getJsonObject("rates").getString("USD"));
    assertEquals(8.1470, c.getJsonObject("fx").getJsonObject("fallback").getJsonObject("rates").getDouble("CNY"));  // the rest stays
  }

  @Test
  void an_unknown_or_bad_override_is_refused_naming_the_property_or_variable() {
    Properties typo = new Properties();
    typo.setProperty("http.prot", "9090");
    assertEquals("-Dhttp.prot: http.prot: unknown key; did you mean http.port?", assertThrows(IllegalArgumentException.class,
        () -> GpurentConfig.layered(SHIPPED, typo, Map.of())).getMessage());
    assertEquals("GPURENT_HTTP_IDLETIMEOUT: http.idleTimeout: must look like 500ms, 30s, 5m, 6h or 1d, got 'soon'",
        assertThrows(IllegalArgumentException.class,
            () -> GpurentConfig.layered(SHIPPED, new Properties(), Map.of("GPURENT_HTTP_IDLETIMEOUT", "soon"))).getMessage());
    assertEquals("GPURENT_HTTP_PROT: http.prot: unknown key; did you mean http.port?", assertThrows(IllegalArgumentException.class,
        () -> GpurentConfig.layered(SHIPPED, new Properties(), Map.of("GPURENT_HTTP_PROT", "9090"))).getMessage());
    // the JVM's own properties, even under http., and other programs' variables pass untouched
    Properties jvm = new Properties();
    jvm.setProperty("http.proxyHost", "proxy.example");
    jvm.setProperty("java.version", "17");
    JsonObject c = GpurentConfig.layered(SHIPPED, jvm, Map.of("GPURENT_BENCH_PORT", "18089", "GPURENT_ADMIN_TOKEN", "x"));
    assertNull(c.getJsonObject("http").getValue("proxyHost"));
    // nor is the admin token's variable, even one named like a key of a section
    Properties named = new Properties();
    named.setProperty("http.adminTokenEnv", "GPURENT_HTTP_SECRET");
    assertEquals("GPURENT_HTTP_SECRET", GpurentConfig.layered(SHIPPED, named, Map.of("GPURENT_HTTP_SECRET", "s3cret-token-123456"))
        .getJsonObject("http").getString("adminTokenEnv"));
  }
}
