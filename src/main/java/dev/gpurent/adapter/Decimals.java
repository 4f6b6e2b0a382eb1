package dev.gpurent.adapter;

import java.math.BigDecimal;

/**
 * The one number parser of the adapters: a price, count or size as the exact {@link BigDecimal}
 * of a JSON or YAML number or of its text, never through a double. Null where there is no
 * number, so that each format says in its own words what was wrong with the field.
 */
final class Decimals {

  private Decimals() {}

  /**
   * A number, or a number's text with spaces around it ("8", " 32.7726000000 "); else null ("",
   * "NA", "1,952"). A Double (Vert.x's JSON reads 16.09 as one) gives its shortest decimal text,
   * which is the payload's.
   */
  static BigDecimal of(Object v) {
    if (v instanceof BigDecimal d) return d;
    if (!(v instanceof Number) && !(v instanceof String)) return null;
    String t = v.toString().trim();
    if (t.isEmpty()) return null;
    try {
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** As {@link #of}, with the commas AWS writes in large figures left out ("1,952" is 1952). */
  static BigDecimal grouped(Object v) {
    return of(v instanceof String s ? s.replace(",", "") : v);
  }
}
