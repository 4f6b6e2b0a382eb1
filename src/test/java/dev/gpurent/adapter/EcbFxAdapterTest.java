package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import dev.gpurent.quote.FxHistory;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class EcbFxAdapterTest {

  static final Path DAILY = Path.of("../shared/data/ecb/eurofxref-daily.2025-05-09.xml");
  static final Path HIST = Path.of("../shared/data/ecb/eurofxref-hist-90d.2016-12-05_2017-03-03.xml");

  static FxHistory parse(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return EcbFxAdapter.parse(in, file.toString());
    }
  }

  static FxHistory parse(String text) {
    return EcbFxAdapter.parse(Buffer.buffer(text, "UTF-8"), "test");
  }

  static String dailyText() throws IOException {
    return Files.readString(DAILY, StandardCharsets.UTF_8);
  }

  static void assertDaily(FxHistory h) {
    assertEquals(1, h.days().size());
    assertEquals(LocalDate.parse("2025-05-09"), h.firstDay());
    assertEquals(LocalDate.parse("2025-05-09"), h.lastDay());
    assertTrue(h.rejected().isEmpty(), h.rejected().toString());
    Map<String, BigDecimal> day = h.days().get(LocalDate.parse("2025-05-09"));
    assertEquals(30, day.size());
    FxRates fx = h.latest();
    assertEquals("EUR", fx.base());
    assertEquals(LocalDate.parse("2025-05-09"), fx.asOf());
    assertEquals(31, fx.currencies().size(), "30 currencies + EUR itself");
    assertEquals(0, new BigDecimal("1.1252").compareTo(fx.rate("EUR", "USD").orElseThrow()));
    assertEquals(0, new BigDecimal("8.1470").compareTo(fx.rate("EUR", "CNY").orElseThrow()));
    assertEquals(0, new BigDecimal("0.84770").compareTo(fx.rate("EUR", "GBP").orElseThrow()));
    assertEquals(0, new BigDecimal("18606.59").compareTo(fx.rate("EUR", "IDR").orElseThrow()));
    assertEquals(0, new BigDecimal("20.4835").compareTo(fx.rate("EUR", "ZAR").orElseThrow()));
  }

  @Test
  void parses_daily_file() throws IOException {
    FxHistory h = parse(DAILY);
    assertDaily(h);
    assertEquals("ECB euro reference rates 2025-05-09", h.latest().source());
    assertFalse(h.days().get(LocalDate.parse("2025-05-09")).containsKey("HRK"));
  }

  @Test
  void converts_usd_to_cny_with_rate_and_date() throws IOException {
    FxRates fx = parse(DAILY).latest();
    FxRates.Conversion c = fx.convert(Money.of("100", "USD"), "CNY");
    BigDecimal rate = new BigDecimal("8.1470").divide(new BigDecimal("1.1252"), MathContext.DECIMAL64);
    assertEquals(0, rate.compareTo(c.rate()));
    assertEquals(0, new BigDecimal("7.240490579452542").compareTo(c.rate()));
    assertEquals(new Money(new BigDecimal("100").multiply(rate, MathContext.DECIMAL64), "CNY"), c.money());
    assertEquals(Money.of("724.0490579452542", "CNY"), c.money());
    assertEquals(LocalDate.parse("2025-05-09"), c.asOf());
    assertTrue(c.source().startsWith("ECB euro reference rates 2025-05-09"), c.source());
    assertFalse(c.isIdentity());
  }

  @Test
  void parses_90_day_history_newest_first() throws IOException {
    FxHistory h = parse(HIST);
    assertEquals(64, h.days().size());
    assertTrue(h.rejected().isEmpty(), h.rejected().toString());
    assertEquals(LocalDate.parse("2016-12-05"), h.firstDay());
    assertEquals(LocalDate.parse("2017-03-03"), h.lastDay());
    assertEquals(LocalDate.parse("2017-03-03"), h.latest().asOf());
    assertEquals(0, new BigDecimal("1.0565").compareTo(h.latest().rate("EUR", "USD").orElseThrow()));
    // every day of that period lists 31 currencies: HRK and RUB in, ISK not
    h.days().values().forEach(day -> assertEquals(31, day.size()));

    FxRates mid = h.on(LocalDate.parse("2017-01-16")).orElseThrow();
    assertEquals(LocalDate.parse("2017-01-16"), mid.asOf());
    assertEquals(0, new BigDecimal("0.87808").compareTo(mid.rate("EUR", "GBP").orElseThrow()));
    assertEquals(0, new BigDecimal("120.91").compareTo(mid.rate("EUR", "JPY").orElseThrow()));

    FxRates oldest = h.on(LocalDate.parse("2016-12-05")).orElseThrow();
    assertEquals(0, new BigDecimal("7.5356").compareTo(oldest.rate("EUR", "HRK").orElseThrow()));
    assertEquals(0, new BigDecimal("68.1175").compareTo(oldest.rate("EUR", "RUB").orElseThrow()));
    assertEquals(0, new BigDecimal("1.0702").compareTo(oldest.rate("EUR", "USD").orElseThrow()));
  }

  @Test
  void uses_previous_business_day_on_weekends_and_holidays() throws IOException {
    FxHistory h = parse(HIST);
    LocalDate saturday = LocalDate.parse("2017-02-25");
    assertEquals(DayOfWeek.SATURDAY, saturday.getDayOfWeek());
    FxRates fx = h.on(saturday).orElseThrow();
    assertEquals(LocalDate.parse("2017-02-24"), fx.asOf());
    assertEquals(0, new BigDecimal("1.0609").compareTo(fx.rate("EUR", "USD").orElseThrow()));
    assertEquals(LocalDate.parse("2017-02-24"), h.on(LocalDate.parse("2017-02-26")).orElseThrow().asOf());
    // 2016-12-26 (Monday, TARGET holiday) is not in the file: Friday 2016-12-23 applies
    assertFalse(h.days().containsKey(LocalDate.parse("2016-12-26")));
    assertEquals(LocalDate.parse("2016-12-23"), h.on(LocalDate.parse("2016-12-26")).orElseThrow().asOf());
    // after the newest day: the newest rates; before the oldest: none
    assertEquals(LocalDate.parse("2017-03-03"), h.on(LocalDate.parse("2017-03-05")).orElseThrow().asOf());
    assertTrue(h.on(LocalDate.parse("2016-12-04")).isEmpty());
  }

  @Test
  void parses_single_line_variant() throws IOException {
    String oneLine = dailyText().replace("\r", "").replace("\n", "").replace("\t", "");
    assertFalse(oneLine.contains("\n"));
    assertDaily(parse(oneLine));
  }

  @Test
  void parses_double_quote_variant() throws IOException {
    String dq = dailyText().replace('\'', '"');
    assertFalse(dq.contains("'"));
    assertDaily(parse(dq));
  }

  @Test
  void rejects_garbage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("this is not xml"));
    assertTrue(e.getMessage().contains("not readable as ECB reference-rates XML"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> parse(""));
    assertThrows(IllegalArgumentException.class, () -> parse("{\"USD\": 1.1252}"));
  }

  @Test
  void rejects_truncated_file() throws IOException {
    String text = dailyText();
    String cut = text.substring(0, text.indexOf("<Cube currency='JPY'") + 10);
    assertThrows(IllegalArgumentException.class, () -> parse(cut));
  }

  @Test
  void rejects_xml_without_dated_cube() throws IOException {
    String noTime = dailyText().replace("time='2025-05-09'", "");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(noTime));
    assertTrue(e.getMessage().contains("no <Cube time="), e.getMessage());
  }

  @Test
  void does_not_resolve_external_entities() throws IOException {
    Path secret = Files.createTempFile("ecb-xxe-", ".txt");
    try {
      Files.writeString(secret, "9.99");
      String xxe = dailyText()
          .replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?><!DOCTYPE e [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>")
          .replace("rate='1.1252'", "rate='&x;'");
      // DTDs are off: the entity stays undeclared and the document is refused, the file never read
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(xxe));
      assertFalse(e.getMessage().contains("9.99"), e.getMessage());
    } finally {
      Files.deleteIfExists(secret);
    }
  }

  @Test
  void reads_source_from_config() {
    @SuppressWarnings("unchecked")
    Map<String, Object> cfg = (Map<String, Object>) YamlFiles.load(Path.of("config/gpurent.yaml"));
    @SuppressWarnings("unchecked")
    JsonObject fx = new JsonObject((Map<String, Object>) cfg.get("fx"));
    assertEquals(EcbFxAdapter.DAILY_URL, EcbFxAdapter.source(null, fx).describe());
    assertEquals(EcbFxAdapter.DAILY_URL, EcbFxAdapter.source(null, new JsonObject()).describe());
    // the fallback table next to it still loads
    @SuppressWarnings("unchecked")
    FxRates fallback = FxRates.fallback((Map<String, Object>) ((Map<String, Object>) cfg.get("fx")).get("fallback"));
    assertEquals(0, new BigDecimal("8.1470").compareTo(fallback.rate("EUR", "CNY").orElseThrow()));
    assertThrows(IllegalArgumentException.class,
        () -> EcbFxAdapter.source(null, new JsonObject().put("timeout", "soon")));
  }

  @Test
  void fetches_daily_file_through_vertx(Vertx vertx, VertxTestContext ctx) {
    JsonObject fx = new JsonObject().put("source", DAILY.toString()).put("timeout", "10s");
    EcbFxAdapter.fetch(vertx, fx).onComplete(ctx.succeeding(h -> ctx.verify(() -> {
      assertDaily(h);
      assertEquals(DAILY.toString(), h.where());
      ctx.completeNow();
    })));
  }

  @Test
  void fetch_fails_on_missing_file(Vertx vertx, VertxTestContext ctx) {
    JsonObject fx = new JsonObject().put("source", "../shared/data/ecb/no-such-file.xml");
    EcbFxAdapter.fetch(vertx, fx).onComplete(ctx.failing(e -> ctx.completeNow()));
  }
}
