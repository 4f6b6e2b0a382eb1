package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.SampleRoot;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code token-prices} on the sample root, whose config names the four recorded per-token files. */
class TokenPricesCommandTest {

  @Test
  void lists_a_models_quotes_per_million_with_their_rows_and_the_refused_ones_on_ask() {
    CliTest.Result r = CliTest.run("token-prices", "--root=" + SampleRoot.build(), "--model", "Llama 3.3 70B", "--refused");
    assertEquals(0, r.status(), r.err());
    // together.csv line 6: "$0.88" both ways, read per million; novita line 73: "$0.135 /Mt" in, "$0.4 /Mt" out.
    assertTrue(r.out().matches("(?s).*together +Llama 3.3 70B +0\\.88 +0\\.88 +USD +- +together\\.csv line 6\n.*"), r.out());
    assertTrue(r.out().contains("novita.csv line 22: input_price '-' is no price in the source's unit ('$x /Mt')"), r.out());
    JsonObject json = new JsonObject(CliTest.run("token-prices", "--root=" + SampleRoot.build(), "--model", "llama-3.1-70b-instruct",
        "--json").out());
    // deepinfra Turbo (line 37) and plain (156), openrouter (291): 0.40 a million each; ties by input, provider, then model
    assertEquals(3, json.getInteger("total"));
    assertEquals("0.4", json.getJsonArray("quotes").getJsonObject(0).getString("outputPerMillion"));
    assertEquals(3, json.getJsonArray("refused").size());
  }

  @Test
  void says_when_no_file_is_configured() {
    CliTest.Result r = CliTest.run("token-prices");
    assertEquals(0, r.status(), r.err());
    assertEquals("no per-token price files configured (tokenPrices.files in config/gpurent.yaml)\n", r.out());
  }
}
