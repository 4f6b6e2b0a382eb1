package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the command line says about refused rows, prices of no stated date, old FX rates and
 * filters that name nothing, on the recorded payloads in ../shared/data.
 */
class RefusalsAndAgesTest {

  static final Path DATA = Path.of("../shared/data").toAbsolutePath().normalize();
  static final Path OBSERVATIONS = DATA.resolve("market-observations/cherielilili-observations.2026-02-11_2026-05-31.csv");
  static final Path LAMBDA = DATA.resolve("skypilot-catalog-format/anycloud-sh/lambda/vms.gpu.csv");
  static final Path ECB_2017 = DATA.resolve("ecb/eurofxref-hist-90d.2016-12-05_2017-03-03.xml");

  /** A root of the guide's sheet plus one vendor file, {@code id.yaml}, made of a shipped one. */
  static String rootWith(String shipped, String id, String... replacements) throws Exception {
    String root = CliTest.guideOnly();
    String yaml = Files.readString(Path.of("adapters/" + shipped + ".yaml"));
    for (int i = 0; i < replacements.length; i += 2) yaml = yaml.replace(replacements[i], replacements[i + 1]);
    Files.writeString(Path.of(root, "adapters/" + id + ".yaml"), yaml);
    return root;
  }

  /** A market-observations vendor for RunPod's rows: the tracker copies its API, placeholders included. */
  static String runPodObservations() throws Exception {
    return rootWith("crusoe", "runpod-market", "vendor: crusoe", "vendor: runpod-market", "provider: crusoe", "provider: runpod",
        "source: https://raw.githubusercontent.com/cherielilili/gpu-pricing-tracker/main/data/observations.csv",
        "source: " + OBSERVATIONS);
  }

  @Test
  void market_observations_refuse_runpods_any_05_placeholder_and_vendors_refused_lists_it() throws Exception {
    String root = runPodObservations();
    CliTest.Result r = CliTest.run("vendors", "--root=" + root, "--offline", "--refused", "runpod-market");
    assertEquals(0, r.status(), r.err() + r.out());
    List<String> lines = r.out().lines().toList();
    // RunPod's latest day (2026-05-31): 48 rows, of which the MI300X "any" row at 0.50 is the placeholder.
    assertEquals("runpod-market: 1 rows refused, 37 quotes kept", lines.get(0), r.out());
    assertTrue(lines.contains("      1  region '…': price_median_usd N USD per GPU-hour on demand, the figure of RunPod's placeholder for a cloud that does not sell the card, not a price"), r.out());
    assertTrue(lines.contains("line 19924 (2026-05-31 runpod MI300X): region 'any': price_median_usd 0.5 USD per GPU-hour on demand, "
        + "the figure of RunPod's placeholder for a cloud that does not sell the card, not a price"), r.out());
    // The secure MI300X at 1.99 stands; no MI300X is priced at 0.50.
    CliTest.Result q = CliTest.run("quotes", "--root=" + root, "--offline", "--vendor", "runpod-market", "--gpu", "mi300x", "--json");
    assertEquals(0, q.status(), q.err());
    JsonArray quotes = new JsonArray(q.out());
    assertEquals(1, quotes.size(), q.out());
    assertEquals("1.99", quotes.getJsonObject(0).getString("price"));
    assertEquals("secure", quotes.getJsonObject(0).getString("region"));
  }

  @Test
  void vendors_refused_names_an_unknown_vendor_as_bad_input() throws Exception {
    CliTest.Result r = CliTest.run("vendors", "--root=" + CliTest.guideOnly(), "--offline", "--refused", "nope");
    assertEquals(2, r.status(), r.out());
    assertTrue(r.err().startsWith("gpurent: --refused: unknown vendor 'nope'; known: "), r.err());
  }

  @Test
  void skypilot_catalog_prices_are_undated_until_the_vendor_file_dates_them(@TempDir Path dir) throws Exception {
    String root = rootWith("lambda", "lambda", "source: https://raw.githubusercontent.com", "source: " + LAMBDA + "\n#");
    CliTest.Result q = CliTest.run("quotes", "--root=" + root, "--offline", "--vendor", "lambda", "--gpu", "h100-sxm", "--limit", "1");
    assertEquals(0, q.status(), q.err());
    assertTrue(q.out().lines().toList().get(1).endsWith(" undated"), q.out());
    Path scenario = dir.resolve("h100.yaml");
    Files.writeString(scenario, "name: h100\ncurrency: USD\nworkloads:\n  - kind: inference\n    gpu: h100-sxm\n    paramsBillions: 7\n"
        + "    peakQps: 1\n    secondsPerRequest: 1\n    concurrentPerCard: 4\n");
    CliTest.Result r = CliTest.run("rank", "--root=" + root, "--offline", "--json", "--vendors", "lambda", scenario.toString());
    assertEquals(0, r.status(), r.err());
    JsonObject plan = new JsonObject(r.out()).getJsonArray("plans").getJsonObject(0);
    assertEquals("undated", plan.getString("freshness"));
    assertTrue(plan.getBoolean("undated"));
    assertEquals(null, plan.getString("priceDate"));
    assertTrue(plan.getJsonArray("warnings").stream().anyMatch(w -> String.valueOf(w).startsWith(
        "prices undated: lambda's source states no date for a price used")), plan.encode());
    // The vendor file's asOf dates them: fresh, and dated by it.
    Files.writeString(Path.of(root, "adapters/lambda.yaml"), Files.readString(Path.of(root, "adapters/lambda.yaml")) + "\nasOf: \"2026-05-07\"\n");
    JsonObject dated = new JsonObject(CliTest.run("rank", "--root=" + root, "--offline", "--json", "--vendors", "lambda", scenario.toString()).out())
        .getJsonArray("plans").getJsonObject(0);
    assertEquals("fresh", dated.getString("freshness"));
    assertFalse(dated.getBoolean("undated"));
    assertEquals("2026-05-07T00:00:00Z", dated.getString("priceDate"));
  }

  @Test
  void an_fx_file_older_than_the_price_age_limit_warns_on_the_bill(@TempDir Path dir) throws Exception {
    String root = rootWith("lambda", "lambda", "source: https://raw.githubusercontent.com", "source: " + LAMBDA + "\n#");
    Path config = Path.of(root, "config/gpurent.yaml");
    Files.writeString(config, Files.readString(config).replace("source: https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
        "source: " + ECB_2017));
    Path scenario = dir.resolve("h100-cny.yaml");
    Files.writeString(scenario, "name: h100\ncurrency: CNY\nworkloads:\n  - kind: inference\n    gpu: h100-sxm\n    paramsBillions: 7\n"
        + "    peakQps: 1\n    secondsPerRequest: 1\n    concurrentPerCard: 4\n");
    CliTest.Result r = CliTest.run("rank", "--root=" + root, "--offline", "--vendors", "lambda", scenario.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("  fx: 1 USD = 6.89749 CNY (ECB euro reference rates 2017-03-03"), "the rate carries its date: " + r.out());
    assertTrue(r.out().matches("(?s).*  warning: FX rate dated: prices are converted at the exchange rates of 2017-03-03, \\d+ days before "
        + "these quotes were read \\(more than 30\\); the rate has likely moved since\\n.*"), r.out());
    // In the scenario's own currency nothing is converted, and nothing is said.
    Files.writeString(scenario, Files.readString(scenario).replace("currency: CNY", "currency: USD"));
    assertFalse(CliTest.run("rank", "--root=" + root, "--offline", "--vendors", "lambda", scenario.toString()).out().contains("FX rate dated"));
  }

  @Test
  void a_filter_naming_nothing_is_bad_input_and_one_that_leaves_nothing_is_named() throws Exception {
    String root = CliTest.guideOnly();
    CliTest.Result mars = CliTest.run("rank", "--root=" + root, "--include-reference", "--regions", "mars", "config/scenarios/guide-template.yaml");
    assertEquals(2, mars.status(), mars.out());
    assertTrue(mars.err().contains("\ngpurent: --regions: unknown region 'mars': not a region any vendor quotes, an ISO country code"), mars.err());
    CliTest.Result intel = CliTest.run("rank", "--root=" + root, "--include-reference", "--gpu-makers", "intel", "config/scenarios/guide-template.yaml");
    assertEquals(2, intel.status(), intel.out());
    assertTrue(intel.err().endsWith("\ngpurent: --gpu-makers: unknown maker 'intel': known: amd, nvidia\n"), intel.err());
    // A real country where the guide's sheet sells nothing: the reason names the filter, not the card.
    CliTest.Result ru = CliTest.run("rank", "--root=" + root, "--include-reference", "--regions", "RU", "config/scenarios/guide-template.yaml");
    assertEquals(1, ru.status(), ru.out());
    assertTrue(ru.out().contains("the region filter [RU] leaves no offer of rtx-4090"), ru.out());
    assertFalse(ru.out().contains(": no offer of rtx-4090"), ru.out());
  }
}
