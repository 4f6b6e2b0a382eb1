package dev.gpurent.bench;

import dev.gpurent.catalog.Gpu;
import dev.gpurent.catalog.GpuCatalog;
import dev.gpurent.quote.Billing;
import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.PriceUnit;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.quote.VendorTerms;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A deterministic quote book of {@code vendors x gpus x 4 modes x regions} offers, priced around
 * each card's TFLOPS so that rankings are realistic (different vendors win different workloads).
 */
final class SyntheticBook {

  private SyntheticBook() {}

  static QuoteBook build(GpuCatalog catalog, int vendors, int gpus, int regions) {
    Random rnd = new Random(42);
    List<Gpu> cards = catalog.all().stream().limit(gpus).toList();
    if (cards.size() < gpus) throw new IllegalStateException("catalog has only " + cards.size() + " cards");
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    List<VendorQuotes> all = new ArrayList<>();
    for (int v = 0; v < vendors; v++) {
      String vendor = String.format("vendor-%02d", v);
      VendorTerms terms = VendorTerms.priced(Money.of("0.1", "CNY"), List.of(new VendorTerms.EgressTier(null, Money.of("0.8", "CNY"))),
          Money.zero("CNY"), Money.of("200", "CNY"), "hour", BigDecimal.ONE, "synthetic");
      List<Quote> quotes = new ArrayList<>();
      for (int r = 0; r < regions; r++) {
        for (Gpu g : cards) {
          double hourly = Math.max(0.3, g.fp16Tflops() / 60.0) * (0.7 + 0.6 * rnd.nextDouble());
          BigDecimal h = BigDecimal.valueOf(hourly).setScale(4, RoundingMode.HALF_UP);
          String offer = g.id() + "-x1";
          String region = "r" + r;
          quotes.add(new Quote(vendor, region, offer, g.id(), 1, 8, 64, Billing.ON_DEMAND, new Money(h, "CNY"), PriceUnit.HOUR, at, "synthetic"));
          quotes.add(new Quote(vendor, region, offer, g.id(), 1, 8, 64, Billing.SPOT,
              new Money(h.multiply(new BigDecimal("0.35")), "CNY"), PriceUnit.HOUR, at, "synthetic"));
          quotes.add(new Quote(vendor, region, offer, g.id(), 1, 8, 64, Billing.MONTHLY,
              new Money(h.multiply(new BigDecimal("500")), "CNY"), PriceUnit.MONTH, at, "synthetic"));
          quotes.add(new Quote(vendor, region, offer, g.id(), 1, 8, 64, Billing.YEARLY,
              new Money(h.multiply(new BigDecimal("5200")), "CNY"), PriceUnit.YEAR, at, "synthetic"));
        }
      }
      all.add(new VendorQuotes(vendor, vendor, terms, quotes, List.of(), at, ""));
    }
    return QuoteBook.of(all, FxRates.none("CNY"), at);
  }
}
