package dev.gpurent.adapter;

import dev.gpurent.quote.Billing;
import dev.gpurent.quote.PriceUnit;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an OpenComputePrices row is billed: its {@code pricing_type}, and for a commitment its term,
 * which the feed keeps in three places (PROVENANCE.md 10a):
 * <ul>
 *   <li>{@code commitment_period} ("1yr", "3yr"), empty on every row of the recorded day;</li>
 *   <li>getdeploying's {@code raw_extra.billing} text: "Reserved (12mo) 12-month contract:
 *       $27,999/month" (the month's price for the whole offer, which is the quote's price) or
 *       "Reserved (1mo) Reserved capacity with a 1-month minimum commitment." (the hourly price
 *       stands, billed for the whole term);</li>
 *   <li>E2E's {@code raw_extra} {@code monthly} and {@code annual}, prices of a month and of a year
 *       beside the hourly one, and not derived from it (B200: 4.9/h, 3431.0 a month, 34164.0 a
 *       year, where 4.9 x 730 = 3577): each is a commitment quote of its own.</li>
 * </ul>
 * And in one more, with no column saying so: Azure's Retail Prices API gives a reservation's price
 * as the TOTAL of its term, which the collector wrote as an on-demand "hourly" price
 * ({@link #reservations}).
 */
final class FeedTerms {

  private FeedTerms() {}

  /** A price of a row in one billing mode. */
  record Term(Billing billing, BigDecimal price, PriceUnit unit, String note) {}

  private static final Pattern RESERVED = Pattern.compile("Reserved \\((\\d+)\\s*mo\\)(?:.*?\\$([\\d,]+(?:\\.\\d+)?)/month)?.*");
  private static final Pattern PERIOD = Pattern.compile("(\\d+)\\s*(yr|y|year|years|mo|month|months|wk|week)");

  /** The row's pricing_type as a billing mode with its price; IllegalArgumentException with the reason otherwise. */
  static Term of(FeedRow r, BigDecimal hourly) {
    String type = r.get("pricing_type");
    switch (type) {
      case "on_demand":
        return new Term(Billing.ON_DEMAND, hourly, PriceUnit.HOUR, "");
      case "spot", "preemptible", "interruptible":
        return new Term(Billing.SPOT, hourly, PriceUnit.HOUR, "");
      case "reserved", "committed":
        return commitment(r, hourly);
      default:
        throw new IllegalArgumentException("pricing_type '" + type + "' is no billing mode");
    }
  }

  private static Term commitment(FeedRow r, BigDecimal hourly) {
    String period = r.get("commitment_period").toLowerCase(java.util.Locale.ROOT);
    Matcher p = PERIOD.matcher(period);
    if (!period.isEmpty() && p.find()) {
      int n = Integer.parseInt(p.group(1));
      String u = p.group(2);
      if (u.startsWith("w")) throw new IllegalArgumentException("a " + period + " term, shorter than any billing mode gpurent plans");
      return new Term(months(u.startsWith("y") ? 12 * n : n, period), hourly, PriceUnit.HOUR, "commitment_period " + period);
    }
    String billing = r.extra("billing");
    Matcher m = RESERVED.matcher(billing);
    if (!m.matches()) {
      throw new IllegalArgumentException("pricing_type " + r.get("pricing_type") + " with no term: commitment_period is empty and "
          + "raw_extra.billing '" + billing + "' names none");
    }
    Billing b = months(Integer.parseInt(m.group(1)), m.group(1) + "mo");
    if (m.group(2) != null) {
      return new Term(b, Decimals.of(m.group(2)), PriceUnit.MONTH, "raw_extra.billing " + m.group(1) + "mo at " + m.group(2) + "/month");
    }
    return new Term(b, hourly, PriceUnit.HOUR, "raw_extra.billing " + m.group(1) + "mo");
  }

  private static Billing months(int months, String written) {
    for (Billing b : Billing.values()) if (b.commitmentMonths() == months) return b;
    throw new IllegalArgumentException("a " + written + " term: gpurent has no billing mode of " + months + " months");
  }

  /**
   * E2E's monthly and annual prices in raw_extra ({@code {"monthly":3431.0,"annual":34164.0}}):
   * a MONTHLY quote per month and a YEARLY quote per year; none when the row has neither.
   */
  static List<Term> extraCommitments(FeedRow r) {
    List<Term> out = new ArrayList<>();
    for (Map.Entry<String, Billing> e : Map.of("monthly", Billing.MONTHLY, "annual", Billing.YEARLY).entrySet()) {
      String v = r.extra(e.getKey());
      if (v.isEmpty()) continue;
      BigDecimal d = Decimals.of(v);
      if (d == null || d.signum() <= 0) throw new IllegalArgumentException("raw_extra." + e.getKey() + " '" + v + "' is no price");
      out.add(new Term(e.getValue(), d, e.getValue() == Billing.MONTHLY ? PriceUnit.MONTH : PriceUnit.YEAR, "raw_extra." + e.getKey()));
    }
    out.sort(Comparator.comparing(Term::billing));
    return out;
  }

  /** One "hourly" price of a group of rows of one offer and region (same instance_type, region, os, gpu_count). */
  record Priced(int line, BigDecimal price) {}

  /**
   * Which of a group's on-demand prices are reservation totals, and of which term. A price above
   * a month (730 h) of the group's lowest price is no hourly price. Azure lists a size's 1-year and
   * 3-year reservations as two such totals beside the pay-as-you-go rate, so when a group has
   * exactly two, the smaller is read as the 1-year total and the larger as the 3-year one, and
   * only if that reading holds: each spread over its term (8,760 and 26,280 h) is below the
   * hourly rate, the 3-year below the 1-year (NC48ads_A100_v4 eastus2: 42,066 / 8,760 = 4.80 and
   * 71,642 / 26,280 = 2.73 beside 7.346). Any other total is refused with the figures.
   *
   * @return line -> its term (YEARLY per year, THREE_YEARS per year of its three), or a String reason
   */
  static Map<Integer, Object> reservations(List<Priced> group) {
    Map<Integer, Object> out = new java.util.HashMap<>();
    if (group.size() < 2) return out;
    BigDecimal hourly = group.stream().map(Priced::price).min(Comparator.naturalOrder()).orElseThrow();
    BigDecimal month = hourly.multiply(PriceUnit.HOURS_PER_MONTH);
    List<Priced> totals = group.stream().filter(p -> p.price().compareTo(month) > 0).sorted(Comparator.comparing(Priced::price)).toList();
    if (totals.isEmpty()) return out;
    if (totals.size() == 2) {
      BigDecimal one = totals.get(0).price(), three = totals.get(1).price();
      BigDecimal perHour1 = one.divide(BigDecimal.valueOf(8760), 6, RoundingMode.HALF_UP);
      BigDecimal perHour3 = three.divide(BigDecimal.valueOf(26280), 6, RoundingMode.HALF_UP);
      if (perHour1.compareTo(hourly) < 0 && perHour3.compareTo(perHour1) < 0) {
        String why = "a reservation total written as an hourly price beside the pay-as-you-go " + hourly.toPlainString() + "/h";
        out.put(totals.get(0).line(), new Term(Billing.YEARLY, one, PriceUnit.YEAR,
            why + ": read as the 1-year term (" + one.toPlainString() + " / 8,760 h = " + perHour1.setScale(2, RoundingMode.HALF_UP) + "/h)"));
        out.put(totals.get(1).line(), new Term(Billing.THREE_YEARS, three.divide(BigDecimal.valueOf(3), 6, RoundingMode.HALF_UP),
            PriceUnit.YEAR, why + ": read as the 3-year term (" + three.toPlainString() + " / 26,280 h = "
            + perHour3.setScale(2, RoundingMode.HALF_UP) + "/h)"));
        return out;
      }
    }
    for (Priced t : totals) {
      out.put(t.line(), "price_per_hour " + t.price().toPlainString() + " is more than a month (730 h) of the same offer's "
          + hourly.toPlainString() + "/h: a reservation total whose term the rows do not tell (" + totals.size()
          + " such prices in the group), not an hourly price");
    }
    return out;
  }
}
