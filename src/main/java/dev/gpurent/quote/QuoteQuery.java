package dev.gpurent.quote;

import java.util.Comparator;
import java.util.List;

/**
 * A filter over a QuoteBook, as the command line and the API offer it: GPU, vendor, region,
 * billing mode (each optional), and a currency to convert to (optional), cheapest per GPU-hour first.
 *
 * @param gpuId canonical GPU id, already resolved from any vendor spelling
 */
public record QuoteQuery(String gpuId, String vendor, String region, Billing billing, String currency) {

  /** One matching quote, its freshness ({@link Freshness#of}), and its conversion when a currency was asked for. */
  public record Row(Quote quote, String freshness, FxRates.Conversion converted) {

    /** Price per GPU-hour, in the target currency when converted: the sort key. */
    public double perGpuHour() {
      double p = (converted == null ? quote.price() : converted.money()).toDouble();
      return p / quote.unit().hoursValue() / Math.max(quote.gpuCount(), 1e-9);
    }

    /** "1 USD = 7.24 CNY (source)" when converted across currencies, else null. */
    public String fxText() {
      return converted == null || converted.isIdentity() ? null : converted.text(quote.price().currency());
    }
  }

  /** Matching rows; fails (IllegalArgumentException) when the currency has no rate in the book's FX table. */
  public List<Row> apply(QuoteBook book) {
    FxRates fx = book.fx();
    if (currency != null && !fx.currencies().contains(currency)) {
      throw new IllegalArgumentException("no FX rate for " + currency + " in " + fx.source());
    }
    return book.vendors().values().stream()
        .filter(e -> vendor == null || e.quotes().vendor().equals(vendor))
        .flatMap(e -> e.quotes().quotes().stream()
            .filter(q -> gpuId == null || q.gpuId().equals(gpuId))
            .filter(q -> region == null || q.region().equals(region))
            .filter(q -> billing == null || q.billing() == billing)
            .filter(q -> currency == null || fx.rate(q.price().currency(), currency).isPresent())
            .map(q -> new Row(q, e.freshness().of(q), currency == null ? null : fx.convert(q.price(), currency))))
        .sorted(Comparator.comparingDouble(Row::perGpuHour).thenComparing(r -> r.quote().key()))
        .toList();
  }
}
