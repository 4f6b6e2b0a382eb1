package dev.gpurent.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class MessagesTest {

  @Test
  void every_bundle_has_the_same_codes_and_arguments_in_each_language() throws IOException {
    List<String> bundles;
    try (Stream<Path> files = Files.list(Path.of("src/main/resources/messages"))) {
      bundles = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("_en.properties"))
          .map(n -> n.substring(0, n.length() - "_en.properties".length())).sorted().toList();
    }
    assertTrue(bundles.contains("common"), bundles.toString());
    for (String b : bundles) {
      Messages en = Messages.of(b, Lang.EN);
      Messages zh = Messages.of(b, Lang.ZH);
      assertEquals(new TreeSet<>(en.codes()), new TreeSet<>(zh.codes()), b);
      for (String code : en.codes()) {
        // "detail" (a lower layer's own diagnostics, in English) may be left out of a translation, nothing else.
        TreeSet<String> inEn = new TreeSet<>(en.argumentsOf(code)), inZh = new TreeSet<>(zh.argumentsOf(code));
        if (!inZh.contains("detail")) inEn.remove("detail");
        assertEquals(inEn, inZh, b + ": " + code);
      }
    }
  }

  @Test
  void renders_nested_messages_lists_and_numbers_in_the_language_asked() {
    Messages zh = Messages.of("common", Lang.ZH);
    assertEquals("竞价实例", zh.render(Message.of("billing.spot")));
    assertEquals("monthly", Messages.of("common", Lang.EN).text("billing.monthly"));
    assertEquals("1.5", Messages.number(1.5));
    assertEquals("0.25", Messages.number(0.25));
    assertEquals("12", Messages.number(12.0));
    assertEquals("-0.05", Messages.number(-0.05));
  }

  @Test
  void a_missing_code_or_argument_fails_loudly() {
    Messages en = Messages.of("common", Lang.EN);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> en.text("no.such"));
    assertEquals("no message 'no.such' in common_en", e.getMessage());
  }

  @Test
  void languages_are_read_as_users_write_them() {
    assertEquals(Lang.ZH, Lang.of("zh-CN"));
    assertEquals(Lang.ZH, Lang.of("zh_CN.UTF-8"));
    assertEquals(Lang.EN, Lang.of("EN-us"));
    assertEquals("unknown language 'fr'; known: en, zh",
        assertThrows(IllegalArgumentException.class, () -> Lang.of("fr")).getMessage());
    assertEquals(Lang.ZH, Lang.fromAcceptLanguage("fr-FR, zh-CN;q=0.8, en;q=0.5"));
    assertEquals(Lang.EN, Lang.fromAcceptLanguage("zh;q=0.2, en-GB;q=0.9"));
    assertEquals(Lang.EN, Lang.fromAcceptLanguage("de"));
    assertEquals(Lang.EN, Lang.fromAcceptLanguage(null));
    assertEquals(Lang.ZH, Lang.fromEnvironment("zh_CN.UTF-8"));
    assertEquals(Lang.EN, Lang.fromEnvironment("C.UTF-8"));
    assertEquals(Lang.EN, Lang.fromEnvironment(null));
  }
}
