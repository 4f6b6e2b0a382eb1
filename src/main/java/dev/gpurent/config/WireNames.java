package dev.gpurent.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How enum constants are named in YAML, JSON, URLs and on the command line, and read back: one
 * helper for every enum with a wire name, so that a name and its parse cannot drift apart. Pure.
 */
public final class WireNames {

  private WireNames() {}

  /** A constant's name in camelCase: {@code TOTAL_MOVED_PERCENT} is {@code totalMovedPercent}, {@code EN} is {@code en}. */
  public static String camel(Enum<?> e) {
    String[] words = e.name().toLowerCase(Locale.ROOT).split("_");
    StringBuilder b = new StringBuilder(words[0]);
    for (int i = 1; i < words.length; i++) b.append(Character.toUpperCase(words[i].charAt(0))).append(words[i], 1, words[i].length());
    return b.toString();
  }

  /** The constant whose wire name is {@code text}, exactly, or null. */
  public static <E extends Enum<E>> E find(E[] values, Function<E, String> wire, String text) {
    for (E e : values) {
      if (wire.apply(e).equals(text)) return e;
    }
    return null;
  }

  /** The wire names, "a, b, c", for a refusal that names the known ones. */
  public static <E extends Enum<E>> String known(E[] values, Function<E, String> wire) {
    return Arrays.stream(values).map(wire).collect(Collectors.joining(", "));
  }
}
