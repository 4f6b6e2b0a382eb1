package dev.gpurent.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.quote.FxRates;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import dev.gpurent.text.Localizer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The comparison's rules on hand-made prices: which APIs sell a model, context limits, the verdict's two sides. */
class ApiComparisonTest {

  static final Instant AT = Instant.parse("2026-03-22T00:00:00Z");
  static final List<String> LLAMA = List.of("Llama-3.1-70B", "meta-llama/Llama-3.1-70B", "meta-llama/Llama-3.1-70B-Instruct", "llama3.1:70b");

  static TokenQuote quote(String provider, String model, String in, String out, Integer context) {
    return new TokenQuote(provider, model, new BigDecimal(in), new BigDecimal(out), "USD", context, null, null, provider + ".csv line 2", AT);
  }

  static Optional<ApiComparison> compare(long context, Money rented, TokenQuote... quotes) {
    TokenPriceBook book = new TokenPriceBook(List.of(quotes), List.of(), List.of("x.csv"));
    // 100 M tokens in and 50 M out a month
    return ApiComparison.of("chat", "Llama-3.1-70B", LLAMA, new ApiComparison.TokenLoad(100_000_000L, 50_000_000L, context),
        book, FxRates.none("USD"), "USD", rented, rented == null ? null : "vast");
  }

  @Test
  void an_api_sells_the_model_under_its_publishers_and_serving_names_but_not_a_fine_tune() {
    ApiComparison c = compare(4096, Money.of("100", "USD"),
        quote("deepinfra", "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo", "0.40", "0.40", 131072),
        quote("deepinfra", "NousResearch/Hermes-3-Llama-3.1-70B", "0.30", "0.30", 131072),
        quote("together", "Llama 3.3 70B", "0.88", "0.88", null)).orElseThrow();
    assertEquals(List.of("deepinfra"), c.options().stream().map(o -> o.quote().provider()).toList());
    // 100 M x 0.40 + 50 M x 0.40 = 40 + 20 = 60.00 USD a month
    assertEquals("60.00", c.options().get(0).monthly().cents().plain());
    assertEquals(Optional.empty(), compare(4096, null, quote("together", "Llama 3.3 70B", "0.88", "0.88", null)), "not sold: no comparison");
  }

  @Test
  void an_api_whose_context_is_too_short_or_unstated_is_listed_with_why_and_never_the_cheapest() {
    ApiComparison c = compare(32768, Money.of("100", "USD"),
        quote("cheap", "meta-llama/llama-3.1-70b-instruct", "0.10", "0.10", 8192),
        quote("quiet", "Llama 3.1 70B", "0.20", "0.20", null),
        quote("roomy", "meta-llama/Meta-Llama-3.1-70B-Instruct", "0.50", "0.50", 131072)).orElseThrow();
    assertEquals(List.of("roomy", "cheap", "quiet"), c.options().stream().map(o -> o.quote().provider()).toList());
    assertEquals("roomy", c.cheapest().orElseThrow().quote().provider());
    assertEquals("cheap serves at most 8192 tokens of context; the workload needs 32768", Localizer.en(c.options().get(1).limit()));
    assertEquals("quiet states no context length; the workload needs 32768 tokens", Localizer.en(c.options().get(2).limit()));
    ApiComparison none = compare(200_000, Money.of("100", "USD"),
        quote("cheap", "meta-llama/llama-3.1-70b-instruct", "0.10", "0.10", 8192)).orElseThrow();
    assertEquals("no API selling Llama-3.1-70B can be shown to carry this workload", Localizer.en(none.verdict()));
  }

  @Test
  void the_break_even_scales_the_volume_by_rent_over_api_and_names_the_cheaper_side() {
    TokenQuote q = quote("deepinfra", "meta-llama/Meta-Llama-3.1-70B-Instruct", "0.40", "0.40", 131072);
    // API: 60.00 a month for 50 M out. Renting 120.00: twice the volume breaks even, 100 M out a month
    // = 100,000,000 / (730 / 24 = 30.4167) = 3,287,671 a day. The API is cheaper now.
    ApiComparison cheaper = compare(4096, Money.of("120", "USD"), q).orElseThrow();
    assertEquals(new BigDecimal("3287671"), cheaper.breakEvenOutputPerDay().orElseThrow());
    assertEquals("deepinfra costs 60.00 USD a month against 120.00 USD renting at vast: renting wins above 3.3 M output tokens a day;"
        + " below it deepinfra is cheaper", Localizer.en(cheaper.verdict()));
    ApiComparison renting = compare(4096, Money.of("30", "USD"), q).orElseThrow();
    assertTrue(Localizer.en(renting.verdict()).startsWith("renting at vast costs 30.00 USD a month against 60.00 USD at deepinfra"));
    assertEquals("no rented plan to compare with; deepinfra costs 60.00 USD a month", Localizer.en(compare(4096, null, q).orElseThrow().verdict()));
  }
}
