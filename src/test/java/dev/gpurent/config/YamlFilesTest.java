package dev.gpurent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bounds every YAML file of gpurent is read under: cycles, expansion, duplicate keys. */
class YamlFilesTest {

  static String refusal(String yaml) {
    return assertThrows(IllegalArgumentException.class, () -> YamlFiles.parse(new StringReader(yaml), "adapters/x.yaml")).getMessage();
  }

  @Test
  void a_recursive_alias_is_refused_in_one_line_naming_the_file() {
    assertEquals("adapters/x.yaml: refused: a value holds itself (a recursive alias such as &a [*a])", refusal("x: &a [*a]"));
    assertEquals("adapters/x.yaml: refused: a value holds itself (a recursive alias such as &a [*a])",
        refusal("x: &a {k: [1, {deeper: *a}]}"));
  }

  @Test
  void an_alias_used_twice_without_a_cycle_is_read() {
    Object doc = YamlFiles.parse(new StringReader("a: &a [1, 2]\nb: [*a, *a]\n"), "x.yaml");
    assertEquals(Map.of("a", List.of(1, 2), "b", List.of(List.of(1, 2), List.of(1, 2))), doc);
    // the document, 2 keys, the list a and its 2 numbers, the list b and its 2 lists of 2 numbers: 13 values
    assertEquals(13, YamlFiles.count(doc, 1000));
  }

  @Test
  void the_count_stops_at_its_budget_and_needs_no_stack_for_depth() {
    Object deep = List.of();
    for (int i = 0; i < 100_000; i++) deep = List.of(deep);
    assertEquals(100_001, YamlFiles.count(deep, 1_000_000));
    assertEquals(11, YamlFiles.count(deep, 10));
  }

  @Test
  void an_alias_bomb_and_a_duplicate_key_are_refused() {
    // 45 aliases (SnakeYAML's own cap is 50) that expand to 649,000 values
    StringBuilder bomb = new StringBuilder("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
    for (char c = 'b'; c <= 'f'; c++) bomb.append(c).append(": &").append(c).append(" [").append(("*" + (char) (c - 1) + ",").repeat(8))
        .append('*').append((char) (c - 1)).append("]\n");
    assertEquals("adapters/x.yaml: refused: the document expands to more than 100000 values (aliases repeat what they name)",
        refusal(bomb.toString()));
    assertEquals(true, refusal("a: 1\nb: 2\na: 3\n").contains("duplicate key a"), refusal("a: 1\nb: 2\na: 3\n"));
  }
}
