package dev.gpurent.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gpurent.quote.Money;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalizerTest {

  static final Message NOTE = Message.of("seq", "parts", List.of(
      Message.of("note.gpu.hours", "mode", Message.of("billing.on-demand"), "cards", 1, "hours", 100.0),
      Message.of("note.part", "text", Message.of("spot.default", "share", 10L))));

  @Test
  void renders_a_message_in_each_language_with_nested_words_from_another_bundle() {
    assertEquals("on-demand, 1 card(s) x 100 h a month; + 10% for interruptions (no published interruption rate)", Localizer.en(NOTE));
    assertEquals("按量计费，1 卡 x 每卡每月 100 小时；中断损耗另加 10%（无公开的中断率）", Localizer.text(NOTE, Lang.ZH));
  }

  @Test
  void the_neutral_form_survives_json_and_renders_to_the_same_text() {
    Message warning = Message.of("warn.bandwidth", "cost", Money.of("16000.00", "CNY"));
    Map<String, Object> tree = Map.of("plans", List.of(Map.of("vendor", "a", "note", Localizer.neutral(NOTE),
        "warnings", Localizer.neutral(List.of(warning)))));
    // as it travels on the event bus: encoded, decoded, then rendered at the edge
    Object decoded = dev.gpurent.config.PlainValues.of(new JsonObject(Json.encode(tree)));
    assertEquals(Map.of("plans", List.of(Map.of("vendor", "a", "note", Localizer.text(NOTE, Lang.ZH),
        "warnings", List.of("带宽费（每月 ¥16,000.00）比 GPU 还贵：请压缩并缓存 API 返回内容（指南 4.4）")))), Localizer.render(decoded, Lang.ZH));
    assertEquals(Map.of("plans", List.of(Map.of("vendor", "a", "note", Localizer.en(NOTE), "warnings", List.of(
        "bandwidth (16000.00 CNY/month) costs more than the GPUs: compress and cache API responses (guide 4.4)")))),
        Localizer.render(decoded, Lang.EN));
  }

  @Test
  void a_page_says_its_language_first_and_keeps_every_other_field() {
    Map<String, Object> page = Localizer.page(Map.of("note", Localizer.neutral(Message.of("billing.monthly"))), Lang.ZH);
    assertEquals(List.of("lang", "note"), List.copyOf(page.keySet()));
    assertEquals("包月", page.get("note"));
  }

  @Test
  void writes_money_as_each_language_does() {
    assertEquals("5000.00 CNY", Localizer.money(Money.of("5000", "CNY"), Lang.EN));
    assertEquals("¥5,000.00", Localizer.money(Money.of("5000", "CNY"), Lang.ZH));
    assertEquals("US$1,234.5678", Localizer.money(Money.of("1234.5678", "USD"), Lang.ZH));
    assertEquals("12.00 GBP", Localizer.money(Money.of("12", "GBP"), Lang.ZH));
  }

  @Test
  void an_unknown_code_names_the_bundles_it_was_looked_for_in() {
    assertEquals("no message 'no.such' in [engine, report, common, sheet] (zh)",
        assertThrows(IllegalArgumentException.class, () -> Localizer.text(Message.of("no.such"), Lang.ZH)).getMessage());
  }
}
