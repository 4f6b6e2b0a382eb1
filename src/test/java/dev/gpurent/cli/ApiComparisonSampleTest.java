package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.SampleRoot;
import dev.gpurent.cost.ApiComparison;
import dev.gpurent.cost.CostModel;
import dev.gpurent.cost.Placement;
import dev.gpurent.cost.Ranking;
import dev.gpurent.cost.Scenario;
import dev.gpurent.cost.ScenarioReader;
import dev.gpurent.quote.Money;
import dev.gpurent.quote.QuoteBook;
import dev.gpurent.text.Localizer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rent or call an API, on the recorded sample root ({@code bench/sample-root.sh}, its token prices
 * the four OpenComputePrices per-token files): a Llama-3.1-70B chat workload at 0.5 requests a
 * second, 1,000 tokens in and 500 out each, round the clock.
 *
 * <p>Its tokens a month, by hand: 0.5 x 3,600 s x 730 h = 1,314,000 requests; x 1,000 =
 * 1,314,000,000 tokens in; x 500 = 657,000,000 tokens out.
 */
class ApiComparisonSampleTest {

  static Workspace ws;
  static QuoteBook book;
  static CostModel model;

  @BeforeAll
  static void readTheSampleRoot() throws Exception {
    ws = new Workspace(SampleRoot.build());
    book = ws.quoteBook(null, false, false, new PrintWriter(new StringWriter(), true));
    model = new CostModel(ws.catalog, ws.rules);
  }

  @AfterAll
  static void close() throws Exception {
    ws.close();
  }

  static Ranking rank(String currency, double requestsPerSecond) {
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("name", "chat");
    w.put("kind", "inference");
    w.put("model", "llama3.1:70b");
    w.put("precision", "fp8");
    w.put("contextTokens", 4096);
    w.put("concurrentSequences", 16);
    w.put("requestsPerSecond", requestsPerSecond);
    w.put("inputTokens", 1000);
    w.put("outputTokens", 500);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("name", "Llama 3.1 70B chat");
    s.put("currency", currency);
    s.put("horizonMonths", 12);
    s.put("workloads", List.of(w));
    Scenario scenario = new ScenarioReader(ws.catalog, ws.models, ScenarioReader.DEFAULT_MAX_WORKLOADS).read(s);
    return model.rank(scenario, book);
  }

  static ApiComparison only(Ranking r) {
    assertEquals(1, r.apis().size(), "one workload names a model sold per token");
    return r.apis().get(0);
  }

  /** What the workload's cards cost in #1's plan. */
  static Money rented(Ranking r) {
    return r.best().orElseThrow().placements().stream().map(Placement::perMonth).reduce(Money::plus).orElseThrow();
  }

  @Test
  void each_api_selling_llama_3_1_70b_priced_from_its_recorded_row() {
    ApiComparison c = only(rank("USD", 0.5));
    assertEquals("Llama-3.1-70B", c.model());
    assertEquals(1_314_000_000L, c.load().inputPerMonth());
    assertEquals(657_000_000L, c.load().outputPerMonth());
    // deepinfra.csv line 156, meta-llama/Meta-Llama-3.1-70B-Instruct: 4e-05 US cents a token both ways = 0.40 USD a million.
    //   1,314 M in x 0.40 = 525.60; 657 M out x 0.40 = 262.80; 788.40 USD a month. (Its -Turbo row, line 37, has the same
    //   prices; one line per API, the first model name of the tie.)
    // openrouter.csv line 291, meta-llama/llama-3.1-70b-instruct: "0.0000004" USD a token both ways = 0.40 a million: 788.40.
    // together and novita sell Llama 3.3 70B, not 3.1: not listed; nor are fine-tunes (Hermes-3-Llama-3.1-70B).
    assertEquals(List.of("deepinfra meta-llama/Meta-Llama-3.1-70B-Instruct deepinfra.csv line 156 788.40",
            "openrouter meta-llama/llama-3.1-70b-instruct openrouter.csv line 291 788.40"),
        c.options().stream().map(o -> o.quote().provider() + " " + o.quote().model() + " " + o.quote().source() + " "
            + o.monthly().cents().plain()).toList());
    assertTrue(c.options().stream().allMatch(ApiComparison.Option::carries), "131,072 tokens of context carry 4,096");
    assertEquals("deepinfra", c.cheapest().orElseThrow().quote().provider(), "a tie at 788.40 goes to the provider first by name");
    assertEquals(rented(rank("USD", 0.5)), c.rented().orElseThrow());
  }

  @Test
  void in_the_scenarios_currency_at_the_recorded_ecb_rate() {
    ApiComparison c = only(rank("CNY", 0.5));
    ApiComparison.Option o = c.options().get(0);
    // ECB 2025-05-09: 1 EUR = 1.1252 USD = 8.1470 CNY, so 1 USD = 8.1470 / 1.1252 = 7.240490... CNY;
    // 788.40 USD x 7.240490... = 5,708.4028 -> 5,708.40 CNY.
    assertEquals("5708.40", o.monthly().cents().plain());
    assertEquals("CNY", o.monthly().currency());
    assertTrue(o.fx().startsWith("1 USD = 7.24049 CNY") && o.fx().contains("2025-05-09"), o.fx());
  }

  @Test
  void break_even_volume_checked_by_ranking_again_at_it() {
    Ranking r = rank("USD", 0.5);
    ApiComparison c = only(r);
    Money rented = rented(r);
    BigDecimal api = c.cheapest().orElseThrow().monthly().amount();
    // Output tokens a day at which deepinfra costs what renting does: 657 M x rented / 788.40, over 730 / 24 days.
    BigDecimal share = rented.amount().divide(api, MathContext.DECIMAL64);
    BigDecimal perDay = BigDecimal.valueOf(657_000_000L).multiply(share).divide(new BigDecimal("30.41666666666667"), MathContext.DECIMAL64);
    assertEquals(perDay.setScale(0, java.math.RoundingMode.HALF_UP), c.breakEvenOutputPerDay().orElseThrow());
    // The volume now (657 M / 30.42 = 21.6 M a day) is above it: renting wins, and says so with the break-even.
    assertTrue(c.breakEvenOutputPerDay().get().compareTo(BigDecimal.valueOf(21_600_000)) < 0);
    String verdict = Localizer.en(c.verdict());
    assertTrue(verdict.startsWith("renting at " + r.best().get().vendor() + " costs " + rented.cents().plain() + " USD a month against 788.40 USD at deepinfra")
        && verdict.endsWith("below it deepinfra is cheaper"), verdict);
    // Ranked again at that volume (the request rate scaled by the same share), #1 keeps its cards and its price,
    // and deepinfra now costs the same to the cent.
    Ranking at = rank("USD", 0.5 * share.doubleValue());
    assertEquals(r.best().get().vendor(), at.best().orElseThrow().vendor());
    assertEquals(rented, rented(at));
    BigDecimal apiThere = only(at).cheapest().orElseThrow().monthly().amount();
    assertTrue(apiThere.subtract(rented.amount()).abs().compareTo(new BigDecimal("0.01")) <= 0, apiThere + " vs " + rented);
  }

  @Test
  void shown_in_the_text_bill_and_the_workbook_with_each_row_cited() throws Exception {
    Ranking r = rank("USD", 0.5);
    String text = dev.gpurent.report.RankingText.render(r, 1, dev.gpurent.text.Lang.EN);
    assertTrue(text.contains("Rent or call an API: chat (Llama-3.1-70B), 1314.0 M tokens in and 657.0 M out a month"), text);
    assertTrue(text.matches("(?s).*deepinfra +meta-llama/Meta-Llama-3.1-70B-Instruct +0\\.40 +0\\.40 +131072 +788\\.40 +deepinfra\\.csv line 156\n.*"), text);
    try (var wb = dev.gpurent.report.RankingXlsx.workbook(r.toMap(), dev.gpurent.text.Lang.EN)) {
      var sheet = wb.getSheet("rent or call an API");
      var first = sheet.getRow(1);
      assertEquals("deepinfra", first.getCell(2).getStringCellValue());
      assertEquals(788.40, first.getCell(8).getNumericCellValue(), 0.001);
      assertEquals("deepinfra.csv line 156", first.getCell(12).getStringCellValue());
      assertEquals("openrouter.csv line 291", sheet.getRow(2).getCell(12).getStringCellValue());
      assertTrue(sheet.getRow(3).getCell(0).getStringCellValue().endsWith("below it deepinfra is cheaper"));
    }
  }
}
