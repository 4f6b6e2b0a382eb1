package dev.gpurent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.adapter.VastBundlesFormatTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An offer its source says is not rentable, on the recorded sample root: {@code bench/sample-root.sh}
 * with {@code adapters/vast-api.yaml} enabled and pointed at a saved search-offers answer. No real
 * Vast answer is recorded (PROVENANCE.md 6): the answer is the one offer of the vendor's OpenAPI
 * example (FICTIONAL prices: 0.234567 USD an hour for 4 GPUs of 24 GB), copied with gpu_name set to
 * a real card of that memory ("RTX 4090") and rentable set to false. Cheaper than every recorded
 * offer, it would have won; it is skipped, and the ranking says so with the source's words.
 */
class SampleRootStockTest {

  static Path root;
  static Path scenario;

  @BeforeAll
  static void sampleRootWithAnOfferNotRentable() throws Exception {
    root = SampleRootTest.build();
    JsonObject offer = VastBundlesFormatTest.specExample().getJsonObject("offers").copy().put("gpu_name", "RTX 4090")
        .put("rentable", false);
    Path answer = root.resolve("vast-bundles.json");
    Files.writeString(answer, new JsonObject().put("offers", new JsonArray().add(offer)).encode());
    String shipped = Files.readString(Path.of("adapters/vast-api.yaml"));
    Files.writeString(root.resolve("adapters/vast-api.yaml"), shipped.replace("enabled: false", "enabled: true")
        .replace("source: https://console.vast.ai/api/v0/bundles/", "source: " + answer));
    // the guide's 7B model served 7x24 at 3 QPS (2 cards), GPUs only: no storage, egress or load balancer to price
    scenario = root.resolve("serve-7b.yaml");
    Files.writeString(scenario, """
        name: serve a 7B model
        currency: USD
        horizonMonths: 12
        workloads:
          - name: inference
            kind: inference
            paramsBillions: 7
            precision: fp16
            peakQps: 3
            secondsPerRequest: 2
            concurrentPerCard: 4
            hoursPerDay: 24
        """);
  }

  @Test
  void the_offer_not_rentable_is_skipped_where_it_would_have_won_with_the_reason() {
    CliTest.Result text = CliTest.run("rank", "--root=" + root, "--top", "1", scenario.toString());
    assertEquals(0, text.status(), text.err());
    // #1 stays a recorded offer: salad's RTX 3090 in the OpenComputePrices feed (getdeploying.csv), 3 cards x 730 h at
    // 0.11 = 240.90 USD a month
    assertTrue(text.out().contains("#1 salad (Salad): 240.90 USD a month"), text.out());
    // the offer not rentable: 0.234567 USD an hour (dph_total, all 4 GPUs) x 730 h = 171.23, below 240.90
    assertTrue(text.out().contains("""
        Skipped, not rentable now (they would have been picked):
          vast-api vast-12345678, AT on-demand for inference: 171.23 USD a month, not rentable now (rentable: false); \
        with it vast-api's bill would be 171.23 USD a month, #1
        """), text.out());
    assertTrue(text.out().contains(
        "  vast-api: inference: its offer vast-12345678 could carry it but is not rentable now (rentable: false)\n"), text.out());

    CliTest.Result json = CliTest.run("rank", "--root=" + root, "--json", scenario.toString());
    assertEquals(0, json.status(), json.err());
    JsonObject r = new JsonObject(json.out());
    assertEquals("salad", r.getJsonArray("plans").getJsonObject(0).getString("vendor"));
    assertTrue(r.getJsonArray("plans").stream().map(JsonObject.class::cast).noneMatch(p -> p.getString("vendor").equals("vast-api")));
    assertEquals(1, r.getJsonArray("skipped").size());
    JsonObject skipped = r.getJsonArray("skipped").getJsonObject(0).copy();
    assertTrue(skipped.remove("source").toString().startsWith("vast-bundles:"));
    assertEquals(new JsonObject().put("vendor", "vast-api").put("workload", "inference").put("region", "AT").put("offer", "vast-12345678")
        .put("gpu", "rtx-4090").put("billing", "on-demand").put("perMonth", "171.23").putNull("instead").put("planWith", "171.23")
        .put("wouldLead", true).put("stock", new JsonObject().put("state", "unavailable").put("said", "rentable: false"))
        .put("reason", "not rentable now (rentable: false)"), skipped);
  }

  @Test
  void in_chinese_too() {
    CliTest.Result text = CliTest.run("rank", "--root=" + root, "--top", "1", "--lang", "zh", scenario.toString());
    assertEquals(0, text.status(), text.err());
    assertTrue(text.out().contains("已跳过、目前无法租用的报价（否则会被选中）：\n"
        + "  vast-api vast-12345678, AT 按量计费，用于 推理：每月 US$171.23，目前无法租用（rentable: false）；"
        + "选用它时 vast-api 的账单为每月 US$171.23，排第 1\n"), text.out());
    assertTrue(text.out().contains("  vast-api: 推理：报价 vast-12345678 本可承载，但目前无法租用（rentable: false）\n"), text.out());
  }
}
