package dev.gpurent.service;
import dev.gpurent.testing.FakeWebhooks;
import dev.gpurent.testing.ServiceFixtures;

import dev.gpurent.service.alerts.AlertVerticle;
import dev.gpurent.service.live.LiveRankingUpdate;
import dev.gpurent.service.live.RankingsChanged;

import static dev.gpurent.testing.ServiceFixtures.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.store.SnapshotStore;
import dev.gpurent.store.StoreSettings;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts end to end on one node: the AlertVerticle hears a registration and rankings on the bus
 * and delivers to local Vert.x servers standing in for each platform, which answer as the
 * platform documents (or as scripted: an error answer, a 500). Bodies are asserted whole,
 * signatures recomputed from the fixed clock, and the delivery log read back.
 */
class AlertDeliveryTest {

  static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  /**
   * Quick retries; tries as long as a busy CI machine may need; the fakes' 127.0.0.1 allowed; rates no test here reaches (the clock is fixed,
   * so buckets never refill: WebhookGuardTest counts what they hold back).
   */
  static final AlertSettings FAST = AlertSettings.from(new JsonObject().put("attempts", 3).put("backoff", "20ms")
      .put("maxBackoff", "50ms").put("jitter", 0.5).put("timeout", "20s").put("connectTimeout", "20s").put("maxResponseBytes", 1024)
      .put("allowHosts", FakeWebhooks.ALLOWED).put("perUrlPerMinute", 1000).put("perClientPerMinute", 1000));
  static final String T0 = "2026-12-01T00:00:00Z", T1 = "2026-12-01T06:00:00Z";

  static Vertx vertx;
  static SnapshotStore store;
  static FakeWebhooks hooks;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    store = await(SnapshotStore.open(vertx, StoreSettings.sqlite(tmp.resolve("alerts.db"))));
    hooks = await(new FakeWebhooks(vertx).start());
    await(vertx.deployVerticle(new AlertVerticle(store, FAST, CLOCK)));
  }

  @AfterAll
  static void stop() throws Exception {
    await(vertx.close());
  }

  // ------------------------------------------------------------------ the scenario and its rankings

  /** One rule of each kind, all to {@code to}. */
  static JsonArray everyKind(JsonObject to) {
    return new JsonArray()
        .add(new JsonObject().put("when", "winnerChanged").put("to", to))
        .add(new JsonObject().put("when", "totalMovedPercent").put("percent", 10).put("to", to))
        .add(new JsonObject().put("when", "totalBelow").put("amount", 1500).put("to", to))
        .add(new JsonObject().put("when", "vendorDated").put("vendor", "vast").put("to", to))
        .add(new JsonObject().put("when", "vendorUnavailable").put("vendor", "lambda").put("to", to));
  }

  static void register(Vertx v, String id, String lang, JsonArray alerts) {
    JsonObject registration = new JsonObject().put("name", "team-small").put("workloads", new JsonArray()).put("alerts", alerts);
    if (lang != null) registration.put("lang", lang);
    v.eventBus().publish(Addresses.SCENARIO_REGISTERED, new JsonObject().put("id", id).put("registration", registration));
  }

  static void rank(Vertx v, String id, String quotesAt, Object... vendorTotalDated) {
    List<LiveRankingUpdate.Standing> plans = new java.util.ArrayList<>();
    for (int i = 0; i < vendorTotalDated.length; i += 3) {
      plans.add(new LiveRankingUpdate.Standing((String) vendorTotalDated[i], plans.size() + 1, new java.math.BigDecimal((String) vendorTotalDated[i + 1]),
          "USD", (Boolean) vendorTotalDated[i + 2], true));
    }
    LiveRankingUpdate ranking = new LiveRankingUpdate(id, LiveRankingUpdate.OK, null, java.time.Instant.parse(quotesAt), "USD", plans,
        java.util.Optional.empty(), java.util.Optional.empty(), List.of(), List.of(), null);
    v.eventBus().publish(Addresses.RANKINGS_CHANGED, RankingsChanged.of(id, ranking));
  }

  /** A baseline that fires nothing, then a change that fires every kind of rule. */
  static void baselineThenEveryChange(Vertx v, String id) {
    rank(v, id, T0, "runpod", "1800.00", false, "vast", "1900.00", false, "lambda", "2000.00", false);
    rank(v, id, T1, "vast", "1450.00", true, "runpod", "1800.00", false);
  }

  static final List<String> EN = List.of(
      "gpurent: the cheapest vendor for \"team-small\" is now vast at 1450.00 USD a month (was runpod).",
      "gpurent: the best monthly total for \"team-small\" fell 19.44%, from 1800.00 to 1450.00 USD (vast).",
      "gpurent: the best monthly total for \"team-small\" is 1450.00 USD (vast), below 1500 USD.",
      "gpurent: the plan of vast for \"team-small\" now rests on dated prices.",
      "gpurent: lambda can no longer carry \"team-small\".");

  static final List<String> ZH = List.of(
      "gpurent：「team-small」最便宜的供应商变为 vast，每月 1450.00 USD（原为 runpod）。",
      "gpurent：「team-small」的最低月度总价下降 19.44%，从 1800.00 降至 1450.00 USD（vast）。",
      "gpurent：「team-small」的最低月度总价为 1450.00 USD（vast），低于 1500 USD。",
      "gpurent：vast 为「team-small」给出的方案现依据已过时的价格。",
      "gpurent：lambda 已无法承载「team-small」。");

  /** The next {@code n} POSTs. */
  static List<FakeWebhooks.Received> received(int n) throws InterruptedException {
    List<FakeWebhooks.Received> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      FakeWebhooks.Received r = hooks.next();
      assertTrue(r != null, "only " + i + " of " + n + " webhooks came");
      out.add(r);
    }
    assertNull(hooks.more(), "no more webhooks than events");
    return out;
  }

  /** The scenario's log once no delivery is pending any more. */
  static JsonArray settledLog(Vertx v, String id, int rows) throws Exception {
    for (int i = 0; i < 200; i++) {
      JsonArray log = await(v.eventBus().<JsonObject>request(Addresses.ALERTS_LOG, new JsonObject().put("id", id))).body()
          .getJsonArray("deliveries");
      if (log.size() == rows && log.stream().noneMatch(d -> ((JsonObject) d).getString("status").equals("pending"))) return log;
      Thread.sleep(50);
    }
    throw new AssertionError("the log of " + id + " did not settle");
  }

  static String hmacBase64(byte[] key, byte[] data) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return Base64.getEncoder().encodeToString(mac.doFinal(data));
  }

  /** Each POST's text, from the platform's own place for it, mapped to its request. */
  static Map<String, FakeWebhooks.Received> byText(List<FakeWebhooks.Received> all, java.util.function.Function<JsonObject, String> text) {
    Map<String, FakeWebhooks.Received> out = new HashMap<>();
    for (FakeWebhooks.Received r : all) out.put(text.apply(new JsonObject(r.body())), r);
    return out;
  }

  // ------------------------------------------------------------------ each platform's body

  @Test
  void feishu_gets_its_signed_text_message_for_every_kind_of_rule() throws Exception {
    String secret = "feishu-secret";
    register(vertx, "s-feishu", "en", everyKind(new JsonObject().put("type", "feishu").put("url", hooks.url("/feishu")).put("secret", secret)));
    baselineThenEveryChange(vertx, "s-feishu");
    Map<String, FakeWebhooks.Received> got = byText(received(5), b -> b.getJsonObject("content").getString("text"));
    long ts = NOW.getEpochSecond();
    String sign = hmacBase64((ts + "\n" + secret).getBytes(StandardCharsets.UTF_8), new byte[0]);
    for (String text : EN) {
      FakeWebhooks.Received r = got.get(text);
      assertEquals("/feishu", r.path(), text);
      assertEquals("application/json; charset=utf-8", r.contentType());
      assertEquals(new JsonObject().put("timestamp", Long.toString(ts)).put("sign", sign).put("msg_type", "text")
          .put("content", new JsonObject().put("text", text)), new JsonObject(r.body()));
    }
    assertEquals(List.of("delivered"), settledLog(vertx, "s-feishu", 5).stream().map(d -> ((JsonObject) d).getString("status")).distinct().toList());
  }

  @Test
  void dingtalk_gets_its_text_message_with_the_signature_on_the_url() throws Exception {
    String secret = "SECdingtalk";
    register(vertx, "s-ding", "en", everyKind(new JsonObject().put("type", "dingtalk")
        .put("url", hooks.url("/dingtalk") + "?access_token=tok").put("secret", secret)));
    baselineThenEveryChange(vertx, "s-ding");
    Map<String, FakeWebhooks.Received> got = byText(received(5), b -> b.getJsonObject("text").getString("content"));
    long ms = NOW.toEpochMilli();
    String sign = hmacBase64(secret.getBytes(StandardCharsets.UTF_8), (ms + "\n" + secret).getBytes(StandardCharsets.UTF_8));
    for (String text : EN) {
      FakeWebhooks.Received r = got.get(text);
      assertEquals("access_token=tok&timestamp=" + ms + "&sign=" + URLEncoder.encode(sign, StandardCharsets.UTF_8), r.query(), text);
      assertEquals(new JsonObject().put("msgtype", "text").put("text", new JsonObject().put("content", text)), new JsonObject(r.body()));
    }
  }

  @Test
  void wecom_gets_its_text_message_in_chinese_for_a_chinese_scenario() throws Exception {
    register(vertx, "s-wecom", "zh", everyKind(new JsonObject().put("type", "wecom").put("url", hooks.url("/wecom") + "?key=k1")));
    baselineThenEveryChange(vertx, "s-wecom");
    Map<String, FakeWebhooks.Received> got = byText(received(5), b -> b.getJsonObject("text").getString("content"));
    assertEquals(new java.util.TreeSet<>(ZH), new java.util.TreeSet<>(got.keySet()));
    for (String text : ZH) {
      assertEquals("key=k1", got.get(text).query());
      assertEquals(new JsonObject().put("msgtype", "text").put("text", new JsonObject().put("content", text)),
          new JsonObject(got.get(text).body()));
    }
  }

  @Test
  void slack_gets_its_text_message() throws Exception {
    register(vertx, "s-slack", null, everyKind(new JsonObject().put("type", "slack").put("url", hooks.url("/slack"))));
    baselineThenEveryChange(vertx, "s-slack");
    Map<String, FakeWebhooks.Received> got = byText(received(5), b -> b.getString("text"));
    for (String text : EN) assertEquals(new JsonObject().put("text", text), new JsonObject(got.get(text).body()));
  }

  @Test
  void plain_json_gets_the_whole_event() throws Exception {
    register(vertx, "s-json", "en", everyKind(new JsonObject().put("type", "json").put("url", hooks.url("/json"))));
    baselineThenEveryChange(vertx, "s-json");
    Map<String, FakeWebhooks.Received> got = byText(received(5), b -> b.getString("text"));
    String[] when = {"winnerChanged", "totalMovedPercent", "totalBelow", "vendorDated", "vendorUnavailable"};
    String[] vendor = {null, null, null, "vast", "lambda"};
    String[] threshold = {null, "10", "1500", null, null};
    for (int i = 0; i < 5; i++) {
      assertEquals(new JsonObject().put("source", "gpurent").put("key", "s-json:" + i + ":" + T1).put("scenario", "s-json")
          .put("name", "team-small").put("rule", i).put("when", when[i]).put("baseline", false).put("at", T1).put("currency", "USD")
          .put("previous", new JsonObject().put("vendor", "runpod").put("monthlyTotal", "1800.00").put("dated", false))
          .put("current", new JsonObject().put("vendor", "vast").put("monthlyTotal", "1450.00").put("dated", true))
          .put("vendor", vendor[i]).put("threshold", threshold[i]).put("movedPercent", i == 1 ? "-19.44" : null)
          .put("lang", "en").put("text", EN.get(i)), new JsonObject(got.get(EN.get(i)).body()), when[i]);
    }
  }

  // ------------------------------------------------------------------ retries, errors and the log

  @Test
  void a_500_is_tried_again_with_backoff_until_it_is_delivered_and_the_log_says_so() throws Exception {
    hooks.script("/json", new FakeWebhooks.Answer(500, "busy"), new FakeWebhooks.Answer(503, "still busy"));
    register(vertx, "s-retry", "en", new JsonArray().add(new JsonObject().put("when", "totalBelow").put("amount", 2000)
        .put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json")))));
    rank(vertx, "s-retry", T0, "runpod", "1800.00", false);
    List<FakeWebhooks.Received> tries = received(3);
    assertEquals(1, tries.stream().map(FakeWebhooks.Received::body).distinct().count(), "the same body each time");
    JsonObject row = settledLog(vertx, "s-retry", 1).getJsonObject(0);
    assertEquals("s-retry:0:baseline", row.getString("key"));
    assertEquals("delivered", row.getString("status"));
    assertEquals(3, row.getInteger("attempts"));
    assertEquals("answered 5xx", row.getString("lastError"), "the last failure before it went through, without its text");
    assertEquals(NOW.toString(), row.getString("updatedAt"));
    assertEquals(true, row.getJsonObject("event").getBoolean("baseline"));
    assertEquals("gpurent: the best monthly total for \"team-small\" is 1800.00 USD (runpod), below 2000 USD.",
        row.getJsonObject("event").getString("text"));
  }

  @Test
  void gives_up_after_the_last_try_and_does_not_retry_an_error_answer() throws Exception {
    hooks.script("/slack", new FakeWebhooks.Answer(500, "rollup_error"), new FakeWebhooks.Answer(500, "rollup_error"),
        new FakeWebhooks.Answer(500, "rollup_error"));
    hooks.script("/dingtalk", new FakeWebhooks.Answer(200, "{\"errcode\":310000,\"errmsg\":\"sign not match\"}"));
    register(vertx, "s-fail", "en", new JsonArray()
        .add(new JsonObject().put("when", "totalBelow").put("amount", 2000).put("to", new JsonObject().put("type", "slack").put("url", hooks.url("/slack"))))
        .add(new JsonObject().put("when", "vendorUnavailable").put("vendor", "lambda")
            .put("to", new JsonObject().put("type", "dingtalk").put("url", hooks.url("/dingtalk")).put("secret", "s"))));
    rank(vertx, "s-fail", T0, "runpod", "1800.00", false);
    List<FakeWebhooks.Received> tries = received(4);
    assertEquals(3, tries.stream().filter(r -> r.path().equals("/slack")).count());
    JsonArray log = settledLog(vertx, "s-fail", 2);
    Map<String, JsonObject> byKey = new HashMap<>();
    log.forEach(o -> byKey.put(((JsonObject) o).getString("key"), (JsonObject) o));
    JsonObject slack = byKey.get("s-fail:0:baseline");
    assertEquals(List.of("failed", 3, "answered 5xx", "slack"),
        List.of(slack.getString("status"), slack.getInteger("attempts"), slack.getString("lastError"), slack.getString("channel")));
    JsonObject ding = byKey.get("s-fail:1:baseline");
    assertEquals(List.of("failed", 1, "dingtalk answered errcode 310000"),
        List.of(ding.getString("status"), ding.getInteger("attempts"), ding.getString("lastError")));
    assertTrue(!log.encode().contains("127.0.0.1") && !log.encode().contains("\"s\"") && !log.encode().contains("rollup")
        && !log.encode().contains("sign not match"), "the log shows no URL, no secret and none of the answers' text: " + log.encode());
  }

  @Test
  void an_oversized_answer_fails_the_try() throws Exception {
    hooks.script("/wecom", new FakeWebhooks.Answer(200, "{\"errcode\":0,\"pad\":\"" + "x".repeat(2000) + "\"}"));
    register(vertx, "s-big", "en", new JsonArray().add(new JsonObject().put("when", "totalBelow").put("amount", 2000)
        .put("to", new JsonObject().put("type", "wecom").put("url", hooks.url("/wecom")))));
    rank(vertx, "s-big", T0, "runpod", "1800.00", false);
    received(1);
    JsonObject row = settledLog(vertx, "s-big", 1).getJsonObject(0);
    assertEquals(List.of("failed", 1, "answer over 1024 bytes"), List.of(row.getString("status"), row.getInteger("attempts"), row.getString("lastError")));
  }

  @Test
  void a_deleted_scenario_loses_its_rules_and_its_log() throws Exception {
    register(vertx, "s-gone", "en", new JsonArray().add(new JsonObject().put("when", "totalBelow").put("amount", 2000)
        .put("to", new JsonObject().put("type", "slack").put("url", hooks.url("/slack")))));
    rank(vertx, "s-gone", T0, "runpod", "1800.00", false);
    received(1);
    settledLog(vertx, "s-gone", 1);
    vertx.eventBus().publish(Addresses.RANKINGS_CHANGED, RankingsChanged.of("s-gone", null));
    ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        () -> await(vertx.eventBus().request(Addresses.ALERTS_LOG, new JsonObject().put("id", "s-gone"))));
    assertEquals(404, ((ReplyException) e.getCause()).failureCode());
    rank(vertx, "s-gone", T1, "runpod", "1400.00", false);
    assertNull(hooks.more(), "no rules any more");
    assertEquals(List.of(), await(store.alerts("s-gone", 10)));
  }

  @Test
  void a_scenario_registered_again_keeps_its_last_ranking_to_compare_with() throws Exception {
    JsonArray rules = new JsonArray().add(new JsonObject().put("when", "winnerChanged")
        .put("to", new JsonObject().put("type", "slack").put("url", hooks.url("/slack"))));
    register(vertx, "s-again", "en", rules);
    rank(vertx, "s-again", T0, "runpod", "1800.00", false);
    register(vertx, "s-again", "en", rules);
    rank(vertx, "s-again", T1, "vast", "1700.00", false);
    assertEquals(new JsonObject().put("text", "gpurent: the cheapest vendor for \"team-small\" is now vast at 1700.00 USD a month (was runpod)."),
        new JsonObject(received(1).get(0).body()));
  }

  // ------------------------------------------------------------------ restart (single node)

  /**
   * A restart on one SQLite file: the log survives, and a scenario restored through the hook (its
   * registration published again with the same id, as the durable scenarios must) is watched
   * again, without its baseline alert being sent a second time.
   */
  @Test
  void after_a_restart_a_restored_scenario_is_watched_again_and_its_baseline_alert_is_not_sent_twice() throws Exception {
    Path file = tmp.resolve("restart.db");
    JsonArray rules = new JsonArray()
        .add(new JsonObject().put("when", "totalBelow").put("amount", 2000).put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json"))))
        .add(new JsonObject().put("when", "winnerChanged").put("to", new JsonObject().put("type", "json").put("url", hooks.url("/json"))));
    for (int life = 1; life <= 2; life++) {
      Vertx node = Vertx.vertx();
      try {
        SnapshotStore s = await(SnapshotStore.open(node, StoreSettings.sqlite(file)));
        await(node.deployVerticle(new AlertVerticle(s, FAST, CLOCK)));
        register(node, "s-restart", "en", rules);
        rank(node, "s-restart", life == 1 ? T0 : T1, "runpod", "1800.00", false);
        if (life == 1) {
          assertEquals("s-restart:0:baseline", new JsonObject(received(1).get(0).body()).getString("key"));
          settledLog(node, "s-restart", 1);
        } else {
          assertNull(hooks.more(), "the baseline alert was delivered before the restart");
          rank(node, "s-restart", "2026-12-01T12:00:00Z", "vast", "1700.00", false);
          assertEquals("s-restart:1:2026-12-01T12:00:00Z", new JsonObject(received(1).get(0).body()).getString("key"));
          assertEquals(List.of("s-restart:1:2026-12-01T12:00:00Z", "s-restart:0:baseline"), settledLog(node, "s-restart", 2).stream()
              .map(d -> ((JsonObject) d).getString("key")).toList());
        }
      } finally {
        await(node.close());
      }
    }
  }
}
