package dev.gpurent.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.quote.TokenPriceBook;
import dev.gpurent.quote.TokenQuote;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The four per-token files of OpenComputePrices 2026-03-22 (PROVENANCE.md 10a, trap 5), each unit worked by hand. */
class OpenComputeTokenFormatTest {

  static final Path DIR = Path.of("../shared/data/opencomputeprices/2026-03-22");
  static final Instant READ = Instant.parse("2026-12-02T00:00:00Z");

  static TokenPriceBook read(String file) throws Exception {
    return OpenComputeTokenFormat.parse(Files.newBufferedReader(DIR.resolve(file), StandardCharsets.UTF_8), file, READ);
  }

  static TokenQuote only(TokenPriceBook book, String model) {
    List<TokenQuote> found = book.quotes().stream().filter(q -> q.model().equals(model)).toList();
    assertEquals(1, found.size(), model);
    return found.get(0);
  }

  static void assertPrice(String expected, BigDecimal actual) {
    assertEquals(0, new BigDecimal(expected).compareTo(actual), expected + " vs " + actual);
  }

  @Test
  void openrouter_usd_per_token_text_times_a_million() throws Exception {
    TokenPriceBook book = read("openrouter.csv");
    assertEquals(321, book.quotes().size());
    assertEquals(List.of(), book.refused());
    TokenQuote q = only(book, "meta-llama/llama-3.1-70b-instruct");
    // "prompt_price_per_token":"0.0000004" USD a token x 1,000,000 = 0.40 USD a million; completion the same.
    assertPrice("0.40", q.inputPerMillion());
    assertPrice("0.40", q.outputPerMillion());
    assertEquals(131072, q.contextTokens());
    assertEquals("text->text", q.task());
    assertEquals("openrouter.csv line 291", q.source());
    assertEquals(Instant.parse("2026-03-21T06:19:24Z"), q.asOf());
  }

  @Test
  void deepinfra_us_cents_per_token_times_ten_thousand() throws Exception {
    TokenPriceBook book = read("deepinfra.csv");
    TokenQuote q = only(book, "mistralai/Mistral-Small-24B-Instruct-2501");
    // cents_per_input_token 5e-06 cents = 5e-08 USD a token; x 1,000,000 = 0.05 USD a million.
    // cents_per_output_token 8e-06 cents = 8e-08 USD; x 1,000,000 = 0.08 USD a million.
    assertPrice("0.05", q.inputPerMillion());
    assertPrice("0.08", q.outputPerMillion());
    assertEquals(32768, q.contextTokens());
    assertEquals("text-generation", q.task());
    assertEquals("deepinfra.csv line 2", q.source());
    TokenQuote llama = only(book, "meta-llama/Meta-Llama-3.1-70B-Instruct");
    // 4e-05 cents = 4e-07 USD a token = 0.40 USD a million, both ways.
    assertPrice("0.40", llama.inputPerMillion());
    assertPrice("0.40", llama.outputPerMillion());
    // An embedding model generates nothing: output 0 is its price, not a gap (5e-07 cents = 0.005 USD a million in).
    TokenQuote embed = only(book, "shibing624/text2vec-base-chinese");
    assertPrice("0.005", embed.inputPerMillion());
    assertPrice("0", embed.outputPerMillion());
    assertEquals("embeddings", embed.task());
    assertEquals(185, book.quotes().size());
    assertNull(only(book, "bigcode/starcoder2-15b-instruct-v0.1").contextTokens(), "reported_max_tokens null: not stated");
  }

  @Test
  void novita_dollars_per_mt_text_with_its_cache_read_price_kept_as_a_note() throws Exception {
    TokenPriceBook book = read("novita.csv");
    TokenQuote q = only(book, "deepseek/deepseek-v3.2");
    // "$0.269 /Mt· Cache Read $0.1345 /Mt": 0.269 USD a million (Mt) in; "$0.4 /Mt" out; "163,840" tokens.
    assertPrice("0.269", q.inputPerMillion());
    assertPrice("0.4", q.outputPerMillion());
    assertEquals(163840, q.contextTokens());
    assertEquals("Cache Read $0.1345 /Mt", q.note());
    assertEquals("novita.csv line 2", q.source());
  }

  @Test
  void novita_rows_without_a_price_per_mt_are_refused_with_the_text() throws Exception {
    TokenPriceBook book = read("novita.csv");
    assertEquals(List.of(
        "novita.csv line 22: input_price '-' is no price in the source's unit ('$x /Mt')",
        "novita.csv line 35: input_price '-' is no price in the source's unit ('$x /Mt')",
        "novita.csv line 36: input_price '-' is no price in the source's unit ('$x /Mt')"), book.refused());
    assertEquals(81 - 3, book.quotes().size());
  }

  @Test
  void together_dollar_text_read_per_million_and_html_residue_cleaned() throws Exception {
    TokenPriceBook book = read("together.csv");
    assertEquals(20, book.quotes().size());
    TokenQuote q = only(book, "MiniMax M2.5");
    // "$0.30$0.06&nbsp;(cached)": 0.30 a million in, the cached price 0.06 kept as a note; "$1.20" out.
    assertPrice("0.30", q.inputPerMillion());
    assertPrice("1.20", q.outputPerMillion());
    assertEquals("cached input $0.06", q.note());
    assertNull(q.contextTokens(), "together states no context length");
    TokenQuote llama = only(book, "Llama 3.3 70B");
    assertPrice("0.88", llama.inputPerMillion());
    assertEquals("together.csv line 6", llama.source());
  }

  @Test
  void rows_that_cannot_be_read_are_refused_each_with_its_reason() throws Exception {
    String header = Files.readAllLines(DIR.resolve("together.csv")).get(0);
    String ok = "2026-03-23,2026-03-23T00:27:20Z,together,together,X,,,,,,,,,,,,,,,inference,,0,0,USD,token,True,,,,,";
    String csv = header + "\r\n"
        + ok + "\"{\"\"model\"\":\"\"A\"\",\"\"input\"\":\"\"0.30\"\",\"\"output\"\":\"\"$1\"\"}\"\r\n"
        + ok + "\"{\"\"model\"\":\"\"B\"\",\"\"input\"\":\"\"$0\"\",\"\"output\"\":\"\"$0.00\"\"}\"\r\n"
        + ok + "not json\r\n"
        + "2026-03-23,2026-03-23T00:27:20Z,together,together,T4,,T4,,,1,,,,,,,,,,on_demand,,19.0,19.0,USD,hour,True,,,,,\r\n"
        + "2026-03-23,2026-03-23T00:27:20Z,fireworks,fireworks,X,,,,,,,,,,,,,,,inference,,0,0,USD,token,True,,,,,{}\r\n"
        + "2027-01-01,2027-01-01T00:00:00Z,together,together,X,,,,,,,,,,,,,,,inference,,0,0,USD,token,True,,,,,{}\r\n"
        + "2026-03-22,2026-03-22T23:57:05Z,deepinfra,deepinfra,M,,,,,,,,,,,,,,,inference,,0,0,USD,token,True,,,,,"
        + "\"{\"\"model_name\"\":\"\"M\"\",\"\"cents_per_input_token\"\":-1,\"\"cents_per_output_token\"\":0}\"\r\n";
    TokenPriceBook book = OpenComputeTokenFormat.parse(new StringReader(csv), "t.csv", READ);
    assertEquals(List.of(), book.quotes());
    assertEquals(List.of(
        "t.csv line 2: input '0.30' is no price in the source's unit ('$x')",
        "t.csv line 3: input and output both priced 0: no charge recorded, not a price",
        "t.csv line 4: raw_extra is not a JSON object",
        "t.csv line 5: not a per-token row (pricing_type 'on_demand', price_unit 'hour')",
        "t.csv line 6: source 'fireworks' is none of openrouter, deepinfra, novita, together",
        "t.csv line 7: collected at 2027-01-01T00:00:00Z, after the file was read (2026-12-02T00:00:00Z)",
        "t.csv line 8: cents_per_input_token '-1' is negative"), book.refused());
  }

  @Test
  void a_file_without_the_columns_is_not_this_format() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> OpenComputeTokenFormat.parse(new StringReader("date,provider\r\n1,2\r\n"), "x.csv", READ));
    assertTrue(e.getMessage().contains("no column 'snapshot_ts'"), e.getMessage());
  }

  @Test
  void a_missing_file_is_one_refused_line_and_the_others_still_load() {
    TokenPriceBook book = new TokenPriceFiles(List.of("deepinfra.csv", "nope.csv", "together.csv")).load(DIR, READ);
    assertEquals(185 + 20, book.quotes().size());
    assertEquals(List.of("nope.csv: not read (no such file)"), book.refused());
    assertEquals(List.of("deepinfra.csv", "together.csv"), book.sources());
  }

  @Test
  void find_matches_names_without_case_or_punctuation_cheapest_output_first() throws Exception {
    TokenPriceBook all = new TokenPriceFiles(List.of("openrouter.csv", "deepinfra.csv", "together.csv", "novita.csv")).load(DIR, READ);
    List<String> found = all.find("llama-3.3-70b-instruct").stream().map(q -> q.provider() + " " + q.outputPerMillion()).toList();
    // openrouter 0.00000032 USD -> 0.32; deepinfra Turbo 3.2e-05 cents -> 0.32 (ties: input, then provider),
    // novita "$0.4 /Mt" before deepinfra 4e-05 -> 0.40 on input: 0.135 against 2.3e-05 cents = 0.23.
    assertEquals(List.of("deepinfra 0.32", "openrouter 0.32", "novita 0.4", "deepinfra 0.4"), found);
  }
}
