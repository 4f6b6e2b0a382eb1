package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.config.YamlFiles;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The words of every answer in the language asked for: {@code ?lang=} first, then
 * {@code Accept-Language}, else English; an unknown language is a 400 naming the field. The
 * published ranking stays neutral and each dashboard gets it in its own language.
 */
class LanguagesTest {

  static final List<String> GUIDE_ITEMS_ZH = List.of("推理GPU", "微调GPU", "对象存储", "公网带宽", "负载均衡");
  static final List<String> GUIDE_ITEMS_EN = List.of("inference GPU", "fine-tuning GPU", "object storage", "public bandwidth", "load balancer");
  static final JsonObject UNKNOWN_LANGUAGE = new JsonObject().put("error", "invalid input").put("fields", new JsonArray()
      .add(new JsonObject().put("field", "lang").put("reason", "unknown language 'fr'; known: en, zh")));

  static RunningService app;
  static Vertx vertx;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root).env(Map.of());
    vertx = app.vertx();
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static HttpResponse<Buffer> send(HttpRequest<Buffer> req, Object body) throws Exception {
    return ServiceFixtures.await(body == null ? req.send() : req.sendJson(body));
  }

  static HttpRequest<Buffer> post(String path) {
    return client.post(service.port(), "127.0.0.1", path);
  }

  static HttpRequest<Buffer> get(String path) {
    return client.get(service.port(), "127.0.0.1", path);
  }

  static List<String> guideItems(JsonObject ranking) {
    JsonObject guide = ranking.getJsonArray("plans").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("vendor").equals("guide-reference")).findFirst().orElseThrow(() -> new AssertionError(ranking.encode()));
    return guide.getJsonObject("bill").getJsonArray("lines").stream().map(l -> ((JsonObject) l).getString("item")).toList();
  }

  static String fineTuningNote(JsonObject ranking) {
    JsonObject guide = ranking.getJsonArray("plans").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("vendor").equals("guide-reference")).findFirst().orElseThrow();
    return guide.getJsonObject("bill").getJsonArray("lines").getJsonObject(1).getString("note");
  }

  @Test
  void a_refused_field_is_explained_in_the_language_asked_for_and_english_stays_as_it_was() throws Exception {
    JsonObject bad = ServiceFixtures.scenario("guide-template.yaml").put("horizonMonths", 500).put("colour", "blue");
    // ranked on the bus (RankingVerticle): the reasons travel as messages and are said at the edge
    HttpResponse<Buffer> zh = send(post("/api/rank?lang=zh"), bad);
    assertEquals(400, zh.statusCode());
    assertEquals(new JsonObject().put("error", "输入无效").put("fields", new JsonArray()
        .add(new JsonObject().put("field", "horizonMonths").put("reason", "须在 1 到 120 之间，实际为 500"))
        .add(new JsonObject().put("field", "colour").put("reason", zh.bodyAsJsonObject().getJsonArray("fields")
            .getJsonObject(1).getString("reason")))), zh.bodyAsJsonObject());
    assertTrue(zh.bodyAsJsonObject().getJsonArray("fields").getJsonObject(1).getString("reason").startsWith("未知字段；此处可用的字段："));
    HttpResponse<Buffer> en = send(post("/api/rank"), bad);
    assertEquals("invalid input", en.bodyAsJsonObject().getString("error"));
    assertEquals(new JsonObject().put("field", "horizonMonths").put("reason", "must be between 1 and 120, got 500"),
        en.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0), "no message node reaches a client");
    // read here (sizing): the same
    HttpResponse<Buffer> sizing = send(post("/api/sizing").putHeader("Accept-Language", "zh-CN"), new JsonObject()
        .put("kind", "inference").put("paramsBillions", -7));
    assertEquals(400, sizing.statusCode(), sizing.bodyAsString());
    assertEquals("输入无效", sizing.bodyAsJsonObject().getString("error"));
    assertTrue(sizing.bodyAsJsonObject().getJsonArray("fields").stream().map(JsonObject.class::cast)
        .allMatch(f -> f.getString("reason").codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN)),
        sizing.bodyAsString());
  }

  @Test
  void ranks_in_the_language_of_lang_then_accept_language_else_english() throws Exception {
    JsonObject guide = ServiceFixtures.scenario("guide-template.yaml");
    JsonObject zh = send(post("/api/rank?lang=zh"), guide).bodyAsJsonObject();
    assertEquals("zh", zh.getString("lang"));
    assertEquals(GUIDE_ITEMS_ZH, guideItems(zh));
    assertEquals("按量计费，1 卡 x 每卡每月 100 小时", fineTuningNote(zh));
    JsonObject accepted = send(post("/api/rank").putHeader("Accept-Language", "fr-FR, zh-CN;q=0.8, en;q=0.5"), guide).bodyAsJsonObject();
    assertEquals(GUIDE_ITEMS_ZH, guideItems(accepted));
    JsonObject overridden = send(post("/api/rank?lang=en").putHeader("Accept-Language", "zh-CN"), guide).bodyAsJsonObject();
    assertEquals(GUIDE_ITEMS_EN, guideItems(overridden));
    JsonObject plain = send(post("/api/rank"), guide).bodyAsJsonObject();
    assertEquals("en", plain.getString("lang"));
    assertEquals(GUIDE_ITEMS_EN, guideItems(plain));
    assertEquals("on-demand, 1 card(s) x 100 h a month", fineTuningNote(plain));
    HttpResponse<Buffer> french = send(post("/api/rank?lang=fr"), guide);
    assertEquals(400, french.statusCode());
    assertEquals(UNKNOWN_LANGUAGE, french.bodyAsJsonObject());
  }

  @Test
  void sizes_and_advises_in_chinese() throws Exception {
    JsonObject sizing = send(post("/api/sizing?lang=zh"), new JsonObject().put("paramsBillions", 7).put("peakQps", 20)
        .put("secondsPerRequest", 2).put("concurrentPerCard", 4).put("gpus", new JsonArray().add("RTX 4090").add("T4"))).bodyAsJsonObject();
    assertEquals("7B x 2 B（fp16）x 1.2 = 16.8 GB", sizing.getJsonObject("vram").getString("formula"));
    JsonObject fleet = new JsonObject(ServiceFixtures.castMap(YamlFiles.load(Path.of("config/scenarios/fleets/sdxl-a100.yaml"))))
        .put("includeReference", true);
    JsonObject advice = send(post("/api/advise").putHeader("Accept-Language", "zh"), fleet).bodyAsJsonObject();
    assertEquals("zh", advice.getString("lang"));
    assertEquals("GPU 利用率 22% 低于 30%：配置过剩，考虑降配（指南 5.3）", advice.getJsonArray("signals").getString(0));
    assertEquals(400, send(post("/api/sizing?lang=fr"), new JsonObject().put("paramsBillions", 7)).statusCode());
    assertEquals(UNKNOWN_LANGUAGE, send(post("/api/advise?lang=fr"), fleet).bodyAsJsonObject());
  }

  @Test
  void serves_and_pushes_a_live_ranking_in_each_dashboards_language() throws Exception {
    String id = send(post("/api/scenarios"), ServiceFixtures.scenario("guide-template.yaml")).bodyAsJsonObject().getString("id");
    BlockingQueue<JsonObject> inZh = new LinkedBlockingQueue<>(), inEn = new LinkedBlockingQueue<>();
    WebSocket zh = ServiceFixtures.openSocket(vertx, service.port(), "/ws?lang=zh");
    WebSocket en = ServiceFixtures.openSocket(vertx, new WebSocketConnectOptions().setPort(service.port())
        .setHost("127.0.0.1").setURI("/ws").addHeader("Accept-Language", "en-GB"));
    zh.textMessageHandler(t -> inZh.add(new JsonObject(t)));
    en.textMessageHandler(t -> inEn.add(new JsonObject(t)));
    String subscribe = new JsonObject().put("subscribe", new JsonArray().add(id)).encode();
    zh.writeTextMessage(subscribe);
    en.writeTextMessage(subscribe);
    JsonObject pushedZh = inZh.poll(30, TimeUnit.SECONDS), pushedEn = inEn.poll(30, TimeUnit.SECONDS);
    assertEquals("ranking", pushedZh.getString("type"), String.valueOf(pushedZh));
    assertEquals("zh", pushedZh.getJsonObject("ranking").getString("lang"));
    assertEquals(GUIDE_ITEMS_ZH, guideItems(pushedZh.getJsonObject("ranking")));
    assertEquals(GUIDE_ITEMS_EN, guideItems(pushedEn.getJsonObject("ranking")));
    // REST from the HTTP verticle's copy, one per language asked for, the same as the dashboards got
    HttpResponse<Buffer> restZh = send(get("/api/scenarios/" + id + "/ranking?lang=zh"), null);
    assertEquals(pushedZh.getJsonObject("ranking"), restZh.bodyAsJsonObject());
    assertEquals("accept-encoding, accept-language", restZh.getHeader("vary").toLowerCase(java.util.Locale.ROOT));
    HttpResponse<Buffer> restAccepted = send(get("/api/scenarios/" + id + "/ranking").putHeader("Accept-Language", "zh-CN"), null);
    assertEquals(restZh.bodyAsString(), restAccepted.bodyAsString());
    assertEquals(pushedEn.getJsonObject("ranking"), send(get("/api/scenarios/" + id + "/ranking"), null).bodyAsJsonObject());
    HttpResponse<Buffer> french = send(get("/api/scenarios/" + id + "/ranking?lang=fr"), null);
    assertEquals(400, french.statusCode());
    assertEquals(UNKNOWN_LANGUAGE, french.bodyAsJsonObject());
    // a dashboard asking for a language gpurent does not speak is told so (the error reply) and closed
    WebSocket fr = ServiceFixtures.openSocket(vertx, service.port(), "/ws?lang=fr");
    for (int i = 0; i < 600 && !fr.isClosed(); i++) Thread.sleep(50);
    assertEquals(Short.valueOf((short) 1008), fr.closeStatusCode());
    assertEquals("unknown language", fr.closeReason());
    assertTrue(!zh.isClosed() && !en.isClosed());
    zh.close();
    en.close();
  }
}
