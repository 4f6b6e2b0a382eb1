package dev.gpurent.text;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Text not yet in any language: a code naming a template of a bundle, and the values it needs.
 * An argument may be text, a number, another Message or a list of them; {@link Messages} renders
 * each in the language asked for.
 */
public record Message(String code, Map<String, Object> args) {

  public Message {
    // in the order given, immutable, compact: live rankings hold millions of messages
    args = Args.of(args);
  }

  /** A message from its code and name-value pairs: {@code Message.of("gap.notSold", "vendor", v, "item", i)}. */
  public static Message of(String code, Object... nameValues) {
    if (nameValues.length % 2 != 0) throw new IllegalArgumentException(code + ": arguments come in name-value pairs");
    Map<String, Object> args = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) args.put((String) nameValues[i], nameValues[i + 1]);
    return new Message(code, args);
  }
}
