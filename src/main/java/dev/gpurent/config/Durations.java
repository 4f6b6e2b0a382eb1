package dev.gpurent.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one way configuration spells a duration: 500ms, 30s, 5m, 6h, 30d. Pure: no Vert.x. */
public final class Durations {

  private static final Pattern FORM = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /** Parses {@code text}; a bad one fails naming {@code field}. */
  public static Duration parse(String field, String text) {
    Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(field + ": must look like 500ms, 30s, 5m, 6h or 1d, got '" + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
