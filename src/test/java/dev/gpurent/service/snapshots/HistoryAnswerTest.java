package dev.gpurent.service.snapshots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpurent.quote.FxRates;
import dev.gpurent.store.PriceSeries;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryAnswerTest {

  static final FxRates ECB = new FxRates("EUR", Map.of("EUR", BigDecimal.ONE, "USD", new BigDecimal("1.1"),
      "CNY", new BigDecimal("7.8")), LocalDate.parse("2025-05-09"), "ECB euro reference rates 2025-05-09");
  static final Instant DAY = Instant.parse("2026-05-31T00:00:00Z");

  static PriceSeries series(String vendor, String currency, String price) {
    return new PriceSeries(vendor, "", "H100_SXM x1", "h100-sxm", 1, "on-demand", currency, "hour",
        List.of(new PriceSeries.Point(DAY, new BigDecimal(price))));
  }

  @Test
  void an_imported_provider_spelled_like_a_configured_vendor_takes_its_id() {
    HistoryAnswer a = new HistoryAnswer(Map.of("vast", "Vast.ai", "runpod", "RunPod", "oci", "Oracle Cloud (OCI)"), null, null);
    JsonArray out = a.toJson(List.of(series("vast-ai", "USD", "2.10"), series("vast", "USD", "2.00"), series("oracle", "USD", "3")));
    assertEquals("vast", out.getJsonObject(0).getString("vendor"));
    assertEquals("vast-ai", out.getJsonObject(0).getString("listedAs"));
    assertEquals("vast", out.getJsonObject(1).getString("vendor"));
    assertFalse(out.getJsonObject(1).containsKey("listedAs"), "already canonical");
    assertEquals("oracle", out.getJsonObject(2).getString("vendor"), "no configured vendor spells it so: kept");
    assertEquals("2.10", out.getJsonObject(0).getJsonArray("points").getJsonObject(0).getString("price"), "no currency asked: as quoted");
  }

  @Test
  void converts_to_the_asked_currency_and_says_the_rate_and_its_date() {
    JsonArray out = new HistoryAnswer(Map.of(), ECB, "cny").toJson(List.of(series("lambda", "USD", "4.19"),
        series("local", "CNY", "20"), series("odd", "GBP", "1")));
    JsonObject lambda = out.getJsonObject(0);
    assertEquals("CNY", lambda.getString("currency"));
    // 4.19 x 7.8 / 1.1 = 29.71090909...
    assertEquals("29.71090909", lambda.getJsonArray("points").getJsonObject(0).getString("price"));
    assertEquals(new JsonObject().put("from", "USD").put("rate", "7.09091").put("asOf", "2025-05-09")
        .put("source", "ECB euro reference rates 2025-05-09"), lambda.getJsonObject("fx"));
    assertNull(out.getJsonObject(1).getJsonObject("fx"), "already in CNY");
    assertEquals("20", out.getJsonObject(1).getJsonArray("points").getJsonObject(0).getString("price"));
    assertEquals("GBP", out.getJsonObject(2).getString("currency"), "no GBP rate: left as quoted");
  }
}
