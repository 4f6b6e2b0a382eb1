package dev.gpurent.quote;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses quotes too cheap or too dear to be true, judged against the rest of the book: a
 * placeholder in a vendor's feed (mithril's catalog asks 0.01 an hour per A100) must never win a
 * ranking, and a price a thousand times the market's (a misplaced decimal point, a price per
 * month read as per hour) must never stand in one as if it were a price.
 *
 * <p>The market floor of a card is the median, over the other vendors that sell it, of each
 * vendor's cheapest price per GPU-hour for it (any billing mode, converted to the FX base). A quote
 * whose price per GPU-hour is under {@link #FLOOR_FRACTION} of that floor is refused, with the
 * figures, and listed in its vendor's rejected rows; the vendor's other quotes stay. Cards that
 * fewer than {@link #MIN_OTHER_VENDORS} other vendors sell are not judged, nor are reference sheets
 * (they neither judge nor are judged), nor quotes in a currency the rates do not know.
 *
 * <p>Why the cheapest per vendor and a twentieth: the real low end of the sample book sits well
 * above it. Old cards and spot offers are cheap at every vendor that sells them (a V100 spot at
 * 0.05 through Verda is 0.12 of its floor, RunPod's community V100 32GB spot 0.13, every judged
 * Vast offer 0.4 or more), while the placeholders are 0.2 to 0.6 percent of theirs. The median keeps
 * one vendor's placeholder from lowering the floor it is judged by, and a vendor never judges itself.
 *
 * <p>The other side: a card's market median is the median, over the other vendors that sell it,
 * of each vendor's MEDIAN price per GPU-hour for it; a quote above {@link #CEILING_MULTIPLE} times
 * that is refused the same way, with the figures (3 or more other vendors, as for the floor). The
 * median of each vendor's prices, not its cheapest, so that a hyperscaler's on-demand price is held
 * to what vendors typically ask, not to the cheapest spot market. And whatever the market, a price
 * above {@link PriceCeiling} per GPU-hour is refused with the figure: no GPU rents for that (an
 * adapter's 1e308 an hour is no price), and a card too few vendors sell has no market to judge by.
 *
 * <p>Pure: the same payloads and rates always give the same judgment. It needs the whole book, so
 * it runs where the book is built ({@code QuoteVerticle}), not in {@link QuoteIntegrity}, which
 * sees one vendor's payload at a time.
 */
public final class MarketPlausibility {

  /** A quote under this share of its card's market floor is a placeholder, not a price. */
  public static final double FLOOR_FRACTION = 0.05;
  /** Fewer other vendors selling a card than this, and there is no market to judge by. */
  public static final int MIN_OTHER_VENDORS = 3;
  /** What every refusal's reason says, for status pages and tests to find them by. */
  public static final String REASON = "implausibly cheap against the market";
  /** A quote above this multiple of its card's market median is no price. */
  public static final double CEILING_MULTIPLE = 20;
  /** What every refusal of a quote too dear says. */
  public static final String DEAR_REASON = "implausibly dear against the market";

  private MarketPlausibility() {}

  /**
   * Each vendor's payload with its implausible quotes moved to its rejected rows. A payload with
   * nothing refused is returned as it came (the same object).
   *
   * @param vendors every vendor's payload, by vendor id
   * @param fx      rates into one currency ({@link FxRates#base()}) to compare prices across vendors
   */
  public static Map<String, VendorQuotes> judge(Map<String, VendorQuotes> vendors, FxRates fx) {
    Rates rates = new Rates(fx);
    // card -> vendor -> its prices per GPU-hour (under the absolute ceiling: a 1e308 must not move a median)
    Map<String, Map<String, List<Double>>> prices = new HashMap<>();
    for (VendorQuotes vq : vendors.values()) {
      if (vq.reference()) continue;
      for (Quote q : vq.quotes()) {
        double p = rates.perGpuHour(q);
        if (!Double.isNaN(p) && rates.ceiling(q).isEmpty()) {
          prices.computeIfAbsent(q.gpuId(), g -> new HashMap<>()).computeIfAbsent(vq.vendor(), v -> new ArrayList<>()).add(p);
        }
      }
    }
    Map<String, Map<String, Double>> floors = new HashMap<>(); // card -> vendor -> cheapest per GPU-hour
    Map<String, Map<String, Double>> medians = new HashMap<>(); // card -> vendor -> median per GPU-hour
    prices.forEach((card, byVendor) -> byVendor.forEach((vendor, list) -> {
      double[] sorted = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      floors.computeIfAbsent(card, c -> new HashMap<>()).put(vendor, sorted[0]);
      medians.computeIfAbsent(card, c -> new HashMap<>()).put(vendor, median(sorted));
    }));
    Map<String, VendorQuotes> out = new LinkedHashMap<>();
    for (Map.Entry<String, VendorQuotes> e : vendors.entrySet()) {
      VendorQuotes vq = e.getValue();
      out.put(e.getKey(), vq.reference() ? vq : judged(vq, floors, medians, fx, rates));
    }
    return out;
  }

  private static VendorQuotes judged(VendorQuotes vq, Map<String, Map<String, Double>> floors,
                                     Map<String, Map<String, Double>> medians, FxRates fx, Rates rates) {
    Map<String, Optional<Floor>> byCard = new HashMap<>();
    Map<String, Optional<Floor>> medianByCard = new HashMap<>();
    List<Quote> kept = new ArrayList<>(vq.quotes().size());
    List<String> refused = new ArrayList<>();
    for (Quote q : vq.quotes()) {
      Optional<Floor> floor = byCard.computeIfAbsent(q.gpuId(), g -> floor(floors.get(g), vq.vendor()));
      Optional<Floor> market = medianByCard.computeIfAbsent(q.gpuId(), g -> floor(medians.get(g), vq.vendor()));
      double price = rates.perGpuHour(q);
      Optional<String> ceiling;
      if (floor.isPresent() && !Double.isNaN(price) && price < FLOOR_FRACTION * floor.get().median) {
        refused.add(at(q) + REASON + ": " + q.price() + "/" + q.unit().wire() + " is " + fmt(price) + " " + fx.base()
            + " per GPU-hour, under 1/" + Math.round(1 / FLOOR_FRACTION) + " of the market floor for " + q.gpuId() + " ("
            + fmt(floor.get().median) + ", the median of the cheapest per GPU-hour at " + floor.get().vendors
            + " other vendors); refused as a placeholder, not a price");
      } else if (market.isPresent() && !Double.isNaN(price) && price > CEILING_MULTIPLE * market.get().median) {
        refused.add(at(q) + DEAR_REASON + ": " + money(q.price()) + "/" + q.unit().wire() + " is " + fmt(price) + " " + fx.base()
            + " per GPU-hour, " + fmt(price / market.get().median) + " times the market median for " + q.gpuId() + " ("
            + fmt(market.get().median) + ", the median of the median per GPU-hour at " + market.get().vendors
            + " other vendors; the ceiling is " + Math.round(CEILING_MULTIPLE) + " times); refused as no price");
      } else if ((ceiling = rates.ceiling(q)).isPresent()) {
        refused.add(at(q) + ceiling.get());
      } else {
        kept.add(q);
      }
    }
    if (refused.isEmpty()) return vq;
    List<String> rejected = new ArrayList<>(vq.rejected());
    rejected.addAll(refused);
    return vq.withQuotes(kept, rejected);
  }

  /** The median of the other vendors' figures (cheapest or median prices) for one card, if enough others sell it. */
  private static Optional<Floor> floor(Map<String, Double> byVendor, String self) {
    if (byVendor == null) return Optional.empty();
    double[] others = byVendor.entrySet().stream().filter(v -> !v.getKey().equals(self))
        .mapToDouble(Map.Entry::getValue).sorted().toArray();
    if (others.length < MIN_OTHER_VENDORS) return Optional.empty();
    return Optional.of(new Floor(median(others), others.length));
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private record Floor(double median, int vendors) {}

  /** Where a refused quote is: "offer in region (billing): ". */
  private static String at(Quote q) {
    return q.offerId() + (q.region().isEmpty() ? "" : " in " + q.region()) + " (" + q.billing().wire() + "): ";
  }

  /** Price per GPU-hour in the rates' base currency, when the quote's currency converts. */
  static Optional<Double> perGpuHour(Quote q, FxRates fx) {
    double p = new Rates(fx).perGpuHour(q);
    return Double.isNaN(p) ? Optional.empty() : Optional.of(p);
  }

  /**
   * One judgment's rates as doubles, per currency, looked up once: a book is judged each time a
   * vendor's quotes change, and it holds tens of thousands of quotes in a handful of currencies.
   */
  private static final class Rates {
    private final FxRates fx;
    private final Map<String, Double> toBase = new HashMap<>(8), toUsd = new HashMap<>(8);

    Rates(FxRates fx) {
      this.fx = fx;
    }

    /** {@code q}'s price per GPU-hour in the base currency; NaN when it has no card count or its currency does not convert. */
    double perGpuHour(Quote q) {
      if (!(q.gpuCount() > 0)) return Double.NaN;
      double rate = toBase.computeIfAbsent(q.price().currency(), c -> fx.rate(c, fx.base()).map(BigDecimal::doubleValue).orElse(Double.NaN));
      return q.price().toDouble() * rate / q.unit().hoursValue() / q.gpuCount();
    }

    /**
     * {@link PriceCeiling#aboveGpuHour}, worked out exactly only for a price within a factor of two of
     * the ceiling by a double's reckoning (whose error is some 1e-16 of it): the others are prices.
     */
    Optional<String> ceiling(Quote q) {
      if (!(q.gpuCount() > 0)) return Optional.empty();
      double usd = toUsd.computeIfAbsent(q.price().currency(), c -> fx.rate(c, "USD").map(BigDecimal::doubleValue).orElse(Double.NaN));
      double perGpuHourUsd = q.price().toDouble() * usd / q.unit().hoursValue() / q.gpuCount();
      if (perGpuHourUsd >= 0 && perGpuHourUsd < PriceCeiling.GPU_HOUR_USD.doubleValue() / 2) return Optional.empty();
      return PriceCeiling.aboveGpuHour(q, fx);
    }
  }

  /** Four decimals; a figure of a billion or more as {@link PriceCeiling} writes it (1.25E307). */
  private static String fmt(double d) {
    return Math.abs(d) < 1e9 ? String.format(Locale.ROOT, "%.4f", d) : PriceCeiling.shown(BigDecimal.valueOf(d));
  }

  private static String money(Money m) {
    return m.amount().abs().compareTo(BigDecimal.valueOf(1_000_000_000)) < 0 ? m.toString()
        : PriceCeiling.shown(m.amount()) + " " + m.currency();
  }
}
