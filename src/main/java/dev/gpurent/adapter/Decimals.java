package dev.gpurent.adapter;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * The one number rule of every price format (CSV, JSON, YAML, vendor files): a price, count or
 * size as the exact {@link BigDecimal} of a JSON or YAML number or of its text, never through a
 * double. Text is read the same way whatever the format:
 * <ul>
 *   <li>an optional sign, digits, an optional decimal point and exponent, spaces around ignored
 *       ("8", " 32.7726000000 ", "1e-3");</li>
 *   <li>commas only as thousands separators, between groups of exactly three digits before the
 *       decimal point ("1,952" and "1,123.00" are 1952 and 1123.00, as AWS writes them);</li>
 *   <li>nothing else: a comma anywhere else ("1,5" is one and a half in much of Europe and fifteen
 *       in a feed: it is refused rather than guessed), a currency sign or code ("$1.00",
 *       "1.00 USD": the currency is the vendor's, stated once, which a sign could only contradict),
 *       a percent, a word ("NA").</li>
 * </ul>
 * Null where there is no number, so that each format says in its own words which field was
 * wrong; {@link #why} says what was wrong with the text.
 */
final class Decimals {

  private Decimals() {}

  private static final Pattern GROUPED = Pattern.compile("[+-]?\\d{1,3}(,\\d{3})+(\\.\\d*)?([eE][+-]?\\d+)?");
  private static final Pattern CURRENCY = Pattern.compile(".*(\\p{Sc}|\\b[A-Z]{3}\\b).*");

  /**
   * A number, or a number's text as the class comment reads it; else null ("", "NA", "1,5",
   * "$1.00"). A Double (Vert.x's JSON reads 16.09 as one) gives its shortest decimal text, which is
   * the payload's; a NaN or infinite one is no number.
   */
  static BigDecimal of(Object v) {
    if (v instanceof BigDecimal d) return d;
    if (!(v instanceof Number) && !(v instanceof String)) return null;
    String t = v.toString().trim();
    if (t.isEmpty()) return null;
    if (t.indexOf(',') >= 0) {
      if (!GROUPED.matcher(t).matches()) return null;
      t = t.replace(",", "");
    }
    try {
      return new BigDecimal(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Why {@code v} is not a number by the rule, for a rejected row's reason: "" when it is one. */
  static String why(Object v) {
    if (of(v) != null) return "";
    String t = v == null ? "" : v.toString().trim();
    if (t.isEmpty()) return "empty";
    if (CURRENCY.matcher(t).matches()) return "a currency sign or code in a number cell (the currency is the vendor's)";
    if (t.indexOf(',') >= 0) return "a comma that is no thousands separator";
    return "not a number";
  }

  /** The message of a field that is not a number: "price '$1.00' is not a number (a currency sign ...)". */
  static String notANumber(String field, Object v) {
    String why = why(v);
    return field + " '" + v + "' is not a number" + (why.equals("not a number") || why.isEmpty() ? "" : " (" + why + ")");
  }
}
