package dev.gpurent.cost;

import dev.gpurent.config.ConfigSchema;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.ServicePrice.Service;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The rules a ranking is judged by that do not come from the scenario: who prices a service a
 * vendor does not sell ({@code fallbacks:}), when a price is too old to sign on
 * ({@code quotes.maxPriceAge}), and how few fitting offers count as thin data
 * ({@code ranking.minOffers}). Read once from {@code config/gpurent.yaml}.
 *
 * @param fallbacks   per service, the provider whose list price fills a gap; a service with no
 *                    fallback leaves a vendor that lacks it unranked
 * @param maxPriceAge a price whose own date is older than this (against the book's time) is dated
 * @param minOffers   below this many offers that fit a workload, the plan warns of thin data
 * @param migrationTimeShare a data migration taking longer than this share of the horizon is warned of
 */
public record RankingRules(Map<Service, Fallback> fallbacks, Duration maxPriceAge, int minOffers, double migrationTimeShare) {

  /** No fallbacks (a vendor missing a needed service is not ranked), the rest at their defaults. */
  public static final RankingRules NONE = from(Map.of());

  public RankingRules {
    fallbacks = Map.copyOf(fallbacks);
    if (minOffers < 1) throw new IllegalArgumentException("ranking.minOffers must be >= 1");
    if (!(migrationTimeShare > 0 && migrationTimeShare <= 1)) {
      throw new IllegalArgumentException("ranking.migrationTimeShare must be in (0, 1]");
    }
  }

  /**
   * A real provider's list price for one service, used where a vendor does not sell it or its
   * price is unknown.
   *
   * @param provider who sells it ("Amazon S3 Standard, us-east-1")
   * @param price    per GB-month, per GB or per month, as the service is billed
   * @param source   the page that states the price
   * @param asOf     the date the price was read
   */
  public record Fallback(String provider, Money price, String source, String asOf) {}

  public Optional<Fallback> fallback(Service s) {
    return Optional.ofNullable(fallbacks.get(s));
  }

  /**
   * Reads the {@code fallbacks}, {@code quotes.maxPriceAge} and {@code ranking.minOffers} of a
   * parsed configuration (plain maps); missing parts take their defaults.
   */
  public static RankingRules from(Map<String, ?> config) {
    Map<Service, Fallback> fallbacks = new EnumMap<>(Service.class);
    if (config.get("fallbacks") instanceof Map<?, ?> f) {
      for (Service s : Service.values()) {
        if (!(f.get(s.key()) instanceof Map<?, ?> one)) continue;
        String at = "fallbacks." + s.key();
        String currency = text(one, "currency", at).toUpperCase(Locale.ROOT);
        BigDecimal price;
        try {
          price = new BigDecimal(text(one, "price", at));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(at + ".price: must be a number");
        }
        if (price.signum() < 0) throw new IllegalArgumentException(at + ".price: must be >= 0");
        fallbacks.put(s, new Fallback(text(one, "provider", at), new Money(price, currency), text(one, "source", at),
            text(one, "asOf", at)));
      }
      for (Object key : f.keySet()) {
        boolean known = false;
        for (Service s : Service.values()) known |= s.key().equals(key);
        if (!known) throw new IllegalArgumentException("fallbacks." + key + ": unknown service; known: objectStorage, egress, ingress, loadBalancer");
      }
    }
    ConfigSchema.Section ranking = ConfigSchema.section("ranking", section(config, "ranking"));
    return new RankingRules(fallbacks, ConfigSchema.section("quotes", section(config, "quotes")).duration("maxPriceAge"),
        ranking.whole("minOffers"), ranking.number("migrationTimeShare"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ?> section(Map<String, ?> config, String name) {
    return config.get(name) instanceof Map<?, ?> m ? (Map<String, ?>) m : null;
  }

  private static String text(Map<?, ?> m, String field, String at) {
    Object v = m.get(field);
    if (v == null || String.valueOf(v).isBlank()) throw new IllegalArgumentException(at + "." + field + ": is required");
    return String.valueOf(v).trim();
  }
}
