package dev.gpurent.service.quotes;

import dev.gpurent.quote.Freshness;
import dev.gpurent.quote.MarketPlausibility;
import dev.gpurent.quote.Quote;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.VendorQuotes;
import dev.gpurent.service.QuoteSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds the book from each vendor's cached quotes, with their freshness at the moment, and the
 * state that says whether it differs from the last one published: payload versions, freshness
 * states, price ages in days, FX and spot rates (a book that differs by nothing else is not sent).
 */
final class QuoteBookBuilder {

  /** A book, the quotes it holds per vendor (implausible ones moved to the rejected rows), and its published state. */
  record Built(QuoteBook book, Map<String, VendorQuotes> judged, Map<String, Object> state) {}

  private QuoteBookBuilder() {}

  static Built build(Collection<VendorState> vendors, Function<String, VendorQuotes> cached, MarketRates rates,
                     QuoteSettings settings, TokenPriceBook tokenPrices, Instant now) {
    Map<String, QuoteBook.Entry> entries = new LinkedHashMap<>();
    Map<String, String> unavailable = new LinkedHashMap<>();
    Map<String, Object> state = new LinkedHashMap<>();
    Map<String, VendorQuotes> fetched = new LinkedHashMap<>();
    for (VendorState v : vendors) {
      VendorQuotes q = cached.apply(v.def.vendor());
      if (q != null) fetched.put(v.def.vendor(), q);
    }
    // Judged against the whole book, so only here: a payload alone cannot tell a placeholder from a bargain.
    Map<String, VendorQuotes> judged = MarketPlausibility.judge(fetched, rates.fx());
    for (VendorState v : vendors) {
      String id = v.def.vendor();
      VendorQuotes q = judged.get(id);
      if (q == null) {
        String why = v.expired != null ? v.expired
            : settings.offline() && v.http ? "offline, and no quotes were saved from an earlier fetch"
            : v.lastError != null ? "no quotes yet: " + dev.gpurent.config.UserText.withoutPaths(v.lastError)
            : "no quotes yet: first fetch under way";
        unavailable.put(id, why);
        state.put(id, why);
        continue;
      }
      Freshness f = v.freshness(now, settings.expireAfter());
      entries.put(id, new QuoteBook.Entry(q, f));
      state.put(id, List.of(version(v, fetched.get(id)), f.state(), daysOld(v.priceDates, now)));
    }
    var fx = rates.fx();
    state.put("fx", fx.source() + " " + fx.asOf());
    state.put("fxDays", fx.asOf() == null ? List.of() : daysOld(Set.of(fx.asOf().atStartOfDay(java.time.ZoneOffset.UTC).toInstant()), now));
    state.put("spotRisk", rates.spotState());
    return new Built(new QuoteBook(entries, unavailable, fx, rates.spotRisk(), now, tokenPrices), judged, state);
  }

  /**
   * The vendor's payload version: moved when its cached payload says something the last one did
   * not, so that a refresh finding the same prices publishes nothing (issue 32).
   */
  private static long version(VendorState v, VendorQuotes q) {
    if (q != v.seen) {
      if (v.seen == null || !v.seen.samePrices(q)) {
        v.version++;
        v.priceDates = q.quotes().stream().map(Quote::priceDate).filter(Objects::nonNull).collect(Collectors.toUnmodifiableSet());
      }
      v.seen = q;
    }
    return v.version;
  }

  /**
   * How many whole days old each date is at {@code now}: what a book published for nothing but the
   * time would change in a ranking (a plan's prices or FX rates turning dated, the days it counts).
   */
  private static List<Long> daysOld(Set<Instant> dates, Instant now) {
    return dates.stream().map(d -> Duration.between(d, now).toDays()).sorted().toList();
  }
}
