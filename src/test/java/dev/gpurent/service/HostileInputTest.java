package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.Main;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input an attacker on loopback would send, replayed against the whole service (as ServiceTest
 * starts it) and the command line: each case with the status or exit code it must get and the
 * field its refusal must name. Nothing here may answer 500, hang, or echo a class name or an
 * absolute path.
 */
class HostileInputTest {

  static RunningService app;
  static Vertx vertx;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  /** One malformed input: where it goes, what it must get, and the field the refusal names (null: none). */
  record Case(String name, HttpMethod method, String path, Object body, Map<String, String> headers, int status, String field) {}

  static final List<Case> CASES = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root);
    vertx = app.vertx();
    client = app.client();
    service = app.start();
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  // ------------------------------------------------------------------ the cases

  static JsonObject inference() {
    return new JsonObject().put("kind", "inference").put("paramsBillions", 7).put("peakQps", 2).put("secondsPerRequest", 2)
        .put("concurrentPerCard", 4);
  }

  static JsonObject scenarioWith(JsonObject workload) {
    return new JsonObject().put("currency", "USD").put("workloads", new JsonArray().add(workload));
  }

  static void bad(String name, String path, Object body, int status, String field) {
    CASES.add(new Case(name, HttpMethod.POST, path, body, Map.of(), status, field));
  }

  static void get(String name, String path, int status, String field) {
    CASES.add(new Case(name, HttpMethod.GET, path, null, Map.of(), status, field));
  }

  /** A workload field set to each bad value, on rank (and the first two also on scenarios). */
  static void workloadField(JsonObject base, String field, Object... values) {
    int i = 0;
    for (Object v : values) {
      JsonObject w = base.copy().put(field, v);
      bad("rank " + field + "=" + shown(v), "/api/rank", scenarioWith(w), 400, "workloads[0]." + field);
      if (i++ < 2) bad("scenarios " + field + "=" + shown(v), "/api/scenarios", scenarioWith(w), 400, "workloads[0]." + field);
    }
  }

  static void scenarioField(String field, Object... values) {
    for (Object v : values) bad("rank " + field + "=" + shown(v), "/api/rank", scenarioWith(inference()).put(field, v), 400, field);
  }

  static String shown(Object v) {
    String s = String.valueOf(v);
    return s.length() > 30 ? s.substring(0, 30) + "..." : s;
  }

  static {
    JsonArray list = new JsonArray().add(1);
    JsonObject map = new JsonObject().put("a", 1);
    // inference workloads: every figure out of its range, of the wrong type, or absurd
    JsonObject inf = inference();
    workloadField(inf, "paramsBillions", -1, 0, 1e12, 1e308, "abc", list, map, true);
    workloadField(inf, "peakQps", -3, 0, 1e9, 1e308, "x", list, map);
    workloadField(inf, "secondsPerRequest", -1, 0, 5e-324, 1e5, "two");
    workloadField(inf, "concurrentPerCard", 0, 5e-324, -4, 1e9, "four");
    workloadField(inf, "hoursPerDay", 0, 25, -1, 1e308);
    workloadField(inf, "daysPerMonth", 0, 32, 1e9);
    workloadField(inf, "latencyTargetSeconds", -1, 1e9);
    workloadField(inf, "restartOverheadHours", 0, -1, 1e6);
    workloadField(inf, "precision", "fp7", list);
    workloadField(inf, "bound", "gpu", list);
    workloadField(inf, "gpu", "warp-drive-9000", map);
    workloadField(inf, "referenceGpu", "zzz");
    workloadField(inf, "kind", "spaceship", list);
    workloadField(inf, "name", "x".repeat(300), map);
    workloadField(inf, "interruptible", "maybe", 3);
    workloadField(inf, "qps", 3);
    // jobs
    JsonObject training = new JsonObject().put("kind", "training").put("paramsBillions", 7).put("gpuHoursPerMonth", 100);
    workloadField(training, "paramsBillions", 5e8, 1e12);
    workloadField(training, "gpuHoursPerMonth", 1e308, 0, -5, 1e8);
    workloadField(training, "cards", 1.5, 2000, -1);
    workloadField(training, "method", "dance");
    JsonObject batch = new JsonObject().put("kind", "batch").put("memoryGB", 40).put("gpuHoursPerMonth", 10);
    workloadField(batch, "memoryGB", 1e12, -1);
    // the scenario's own fields
    scenarioField("currency", "XXX", "YUAN", "ZZZ", list);
    scenarioField("horizonMonths", 0, 121, 1.5, 1e308);
    scenarioField("headroom", -0.1, 11);
    scenarioField("storedGb", -1, 1e12);
    scenarioField("egressGbPerMonth", -5, 1e308);
    scenarioField("compressionRatio", 0, 5e-324, 1e6);
    scenarioField("loadBalancers", 1.5, -1, 1e9);
    scenarioField("name", map);
    scenarioField("mystery", 1);
    bad("rank migration gb < 0", "/api/rank", scenarioWith(inference()).put("migration", new JsonObject().put("gb", -1)), 400, "migration.gb");
    bad("rank migration gb 1e12", "/api/rank", scenarioWith(inference()).put("migration", new JsonObject().put("gb", 1e12)), 400, "migration.gb");
    bad("rank migration egress 1e9", "/api/rank", scenarioWith(inference()).put("migration", new JsonObject().put("gb", 1)
        .put("sourceEgressPerGb", 1e9)), 400, "migration.sourceEgressPerGb");
    bad("rank migration text", "/api/rank", scenarioWith(inference()).put("migration", "x"), 400, "migration");
    bad("rank no workloads", "/api/rank", new JsonObject().put("workloads", new JsonArray()), 400, "workloads");
    bad("rank workloads text", "/api/rank", new JsonObject().put("workloads", "x"), 400, "workloads");
    bad("rank workload a number", "/api/rank", new JsonObject().put("workloads", new JsonArray().add(1)), 400, "workloads[0]");
    JsonArray many = new JsonArray();
    for (int i = 0; i < 51; i++) many.add(inference());
    bad("rank 51 workloads", "/api/rank", new JsonObject().put("workloads", many), 400, "workloads");
    bad("scenarios 51 workloads", "/api/scenarios", new JsonObject().put("workloads", many), 400, "workloads");
    JsonObject unknowns = scenarioWith(inference());
    for (int i = 0; i < 500; i++) unknowns.put("junk" + i, i);
    bad("rank 500 unknown fields", "/api/rank", unknowns, 400, "junk0");
    // bodies that are no JSON object
    for (String text : new String[] {"{", "[1,2]", "NaN", "null", "\"text\"", "{\"a\": NaN}", "{\"a\": 1,}", "\u0000"}) {
      bad("rank body " + shown(text), "/api/rank", Buffer.buffer(text), 400, "(body)");
    }
    bad("rank empty body", "/api/rank", Buffer.buffer(""), 400, "(body)");
    bad("scenarios body [1]", "/api/scenarios", Buffer.buffer("[1]"), 400, "(body)");
    bad("rank over the body limit", "/api/rank", Buffer.buffer("{\"name\": \"" + "x".repeat(30_000) + "\"}"), 413, null);
    // cross-site requests and the wrong kind of body
    String json = scenarioWith(inference()).encode();
    for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/json"}) {
      CASES.add(new Case("rank as " + type, HttpMethod.POST, "/api/rank", Buffer.buffer(json), Map.of("Content-Type", type), 415, null));
      CASES.add(new Case("scenarios as " + type, HttpMethod.POST, "/api/scenarios", Buffer.buffer(json), Map.of("Content-Type", type), 415, null));
    }
    CASES.add(new Case("rank without a content type", HttpMethod.POST, "/api/rank", Buffer.buffer(json), Map.of("Content-Type", ""), 415, null));
    for (String origin : new String[] {"http://evil.example", "null", "http://127.0.0.1.evil.example", "https://localhost:1"}) {
      CASES.add(new Case("scenarios from origin " + origin, HttpMethod.POST, "/api/scenarios", scenarioWith(inference()),
          Map.of("Origin", origin), 403, null));
    }
    CASES.add(new Case("delete from a foreign origin", HttpMethod.DELETE, "/api/scenarios/x", null, Map.of("Origin", "http://evil.example"), 403, null));
    for (String host : new String[] {"evil.example", "evil.example:8080", "127.0.0.2", "localhost.evil"}) {
      CASES.add(new Case("vendors with Host " + host, HttpMethod.GET, "/api/vendors", null, Map.of("Host", host), 421, null));
    }
    CASES.add(new Case("rank with a rebound Host", HttpMethod.POST, "/api/rank", scenarioWith(inference()),
        Map.of("Host", "attacker.example", "Origin", "http://attacker.example"), 421, null));
    // sizing
    JsonObject sizing = new JsonObject().put("paramsBillions", 7).put("peakQps", 20).put("secondsPerRequest", 2).put("concurrentPerCard", 4);
    bad("sizing gpus as text", "/api/sizing", sizing.copy().put("gpus", "rtx-4090"), 400, "gpus");
    bad("sizing gpus empty", "/api/sizing", sizing.copy().put("gpus", new JsonArray()), 400, "gpus");
    bad("sizing gpus unknown", "/api/sizing", sizing.copy().put("gpus", new JsonArray().add("nope")), 400, "gpus[0]");
    bad("sizing gpus a number", "/api/sizing", sizing.copy().put("gpus", new JsonArray().add(1)), 400, "gpus[0]");
    JsonArray manyGpus = new JsonArray();
    for (int i = 0; i < 201; i++) manyGpus.add("rtx-4090");
    bad("sizing 201 gpus", "/api/sizing", sizing.copy().put("gpus", manyGpus), 400, "gpus");
    bad("sizing paramsBillions 1e12", "/api/sizing", sizing.copy().put("paramsBillions", 1e12), 400, "paramsBillions");
    bad("sizing peakQps 1e9", "/api/sizing", sizing.copy().put("peakQps", 1e9), 400, "peakQps");
    bad("sizing concurrentPerCard 5e-324", "/api/sizing", sizing.copy().put("concurrentPerCard", 5e-324), 400, "concurrentPerCard");
    bad("sizing headroom 99", "/api/sizing", sizing.copy().put("headroom", 99), 400, "headroom");
    bad("sizing kind", "/api/sizing", sizing.copy().put("kind", "x"), 400, "kind");
    bad("sizing seconds 0", "/api/sizing", sizing.copy().put("secondsPerRequest", 0), 400, "secondsPerRequest");
    bad("sizing body a list", "/api/sizing", Buffer.buffer("[1]"), 400, "(body)");
    // advise
    JsonObject fleet = new JsonObject().put("fleet", new JsonObject().put("gpu", "a100-80g-sxm").put("count", 4).put("pricePerCardMonth", 7500))
        .put("utilization", new JsonObject().put("gpuPercent", 22).put("vramPercent", 30).put("peakQps", 8))
        .put("workload", new JsonObject().put("paramsBillions", 3.5).put("secondsPerRequest", 2).put("concurrentPerCard", 4));
    bad("advise no fleet", "/api/advise", new JsonObject(), 400, "fleet");
    for (Object count : new Object[] {0, 1.5, 1e9}) {
      JsonObject f = fleet.copy();
      f.getJsonObject("fleet").put("count", count);
      bad("advise count " + count, "/api/advise", f, 400, "fleet.count");
    }
    for (Object price : new Object[] {-1, 1e12}) {
      JsonObject f = fleet.copy();
      f.getJsonObject("fleet").put("pricePerCardMonth", price);
      bad("advise price " + price, "/api/advise", f, 400, "fleet.pricePerCardMonth");
    }
    JsonObject unknownGpu = fleet.copy();
    unknownGpu.getJsonObject("fleet").put("gpu", "nope");
    bad("advise unknown gpu", "/api/advise", unknownGpu, 400, "fleet.gpu");
    JsonObject noUtil = fleet.copy();
    noUtil.remove("utilization");
    bad("advise no utilization", "/api/advise", noUtil, 400, "utilization");
    JsonObject pct = fleet.copy();
    pct.getJsonObject("utilization").put("gpuPercent", 101);
    bad("advise gpuPercent 101", "/api/advise", pct, 400, "utilization.gpuPercent");
    JsonObject peak = fleet.copy();
    peak.getJsonObject("utilization").put("peakQps", 1e308);
    bad("advise peakQps 1e308", "/api/advise", peak, 400, "utilization.peakQps");
    bad("advise currency XXX", "/api/advise", fleet.copy().put("currency", "XXX"), 400, "currency");
    JsonObject noWorkload = fleet.copy();
    noWorkload.remove("workload");
    bad("advise no workload", "/api/advise", noWorkload, 400, "workload");
    JsonObject hugeModel = fleet.copy();
    hugeModel.getJsonObject("workload").put("paramsBillions", 1e12);
    bad("advise workload paramsBillions 1e12", "/api/advise", hugeModel, 400, "workload.paramsBillions");
    bad("advise workload text", "/api/advise", fleet.copy().put("workload", "x"), 400, "workload");
    // live scenarios
    CASES.add(new Case("delete an unknown scenario", HttpMethod.DELETE, "/api/scenarios/nope", null, Map.of(), 404, null));
    get("ranking of an unknown scenario", "/api/scenarios/nope/ranking", 404, null);
    get("ranking of a 500-character id", "/api/scenarios/" + "x".repeat(500) + "/ranking", 404, null);
    // history and quotes
    get("history from year -999999999", "/api/history?from=-999999999-01-01T00:00:00Z", 400, "from");
    get("history to year +999999999", "/api/history?to=%2B999999999-12-31T00:00:00Z", 400, "to");
    get("history from yesterday", "/api/history?from=yesterday", 400, "from");
    get("history from 1969", "/api/history?from=1969-12-31", 400, "from");
    get("history billing weekly", "/api/history?billing=weekly", 400, "billing");
    get("history unknown gpu", "/api/history?gpu=nope", 400, "gpu");
    get("snapshot id text", "/api/snapshots/abc", 400, "id");
    get("snapshot id negative", "/api/snapshots/-1", 400, "id");
    get("diff against text", "/api/snapshots/1/diff?against=x", 400, "against");
    get("snapshot 999", "/api/snapshots/999", 404, null);
    get("quotes currency XXX", "/api/quotes?currency=XXX", 400, "currency");
    get("quotes billing weekly", "/api/quotes?billing=weekly", 400, "billing");
    get("quotes unknown gpu", "/api/quotes?gpu=nope", 400, "gpu");
    // the low items of issue 28: duplicate fields, text for booleans and lists, figures too small to mean anything
    String body = scenarioWith(inference()).encode();
    bad("rank a duplicate field", "/api/rank", Buffer.buffer(body.replace("{\"currency\":\"USD\"", "{\"currency\":\"USD\",\"currency\":\"CNY\"")),
        400, "currency");
    bad("rank a duplicate workload field", "/api/rank", Buffer.buffer(body.replace("\"peakQps\":2", "\"peakQps\":2,\"peakQps\":500")),
        400, "workloads[0].peakQps");
    bad("scenarios a duplicate field", "/api/scenarios", Buffer.buffer(body.replace("\"peakQps\":2", "\"peakQps\":2,\"peakQps\":2")),
        400, "workloads[0].peakQps");
    bad("sizing a duplicate field", "/api/sizing", Buffer.buffer("{\"paramsBillions\":7,\"paramsBillions\":70}"), 400, "paramsBillions");
    workloadField(inf, "interruptible", "yes", "true");
    workloadField(inf, "allowMultiNode", "no");
    scenarioField("requireComplete", "yes", "true");
    scenarioField("includeReference", "1");
    scenarioField("gpuMakers", "nvidia");
    bad("rank vendors.exclude as text", "/api/rank", scenarioWith(inference()).put("vendors", new JsonObject().put("exclude", "acme")), 400,
        "vendors.exclude");
    bad("rank regions.only as text", "/api/rank", scenarioWith(inference()).put("regions", new JsonObject().put("only", "asia")), 400,
        "regions.only");
    workloadField(training, "gpuHoursPerMonth", 0.001, 1e-300);
    workloadField(inf, "latencyTargetSeconds", 1e-300, 0.0001);
    for (double mbps : new double[] {5e-324, 0.5}) {
      bad("rank migration bandwidthMbps " + mbps, "/api/rank", scenarioWith(inference()).put("migration", new JsonObject().put("gb", 5000)
          .put("bandwidthMbps", mbps)), 400, "migration.bandwidthMbps");
    }
    bad("rank migration gb 0.001", "/api/rank", scenarioWith(inference()).put("migration", new JsonObject().put("gb", 0.001)), 400,
        "migration.gb");
    bad("sizing gpuHoursPerMonth 0.001", "/api/sizing", new JsonObject().put("kind", "training").put("paramsBillions", 7)
        .put("gpuHoursPerMonth", 0.001), 400, "gpuHoursPerMonth");
    JsonObject penny = fleet.copy();
    penny.getJsonObject("fleet").put("pricePerCardMonth", 0.001);
    bad("advise price 0.001", "/api/advise", penny, 400, "fleet.pricePerCardMonth");
    JsonObject queueing = fleet.copy();
    queueing.getJsonObject("utilization").put("queueing", "yes");
    bad("advise queueing yes", "/api/advise", queueing, 400, "utilization.queueing");
    CASES.add(new Case("reload without a token", HttpMethod.POST, "/api/admin/reload", null, Map.of(), 401, null));
    CASES.add(new Case("refresh with a wrong token", HttpMethod.POST, "/api/admin/refresh", null, Map.of("Authorization", "Bearer x"), 401, null));
  }

  @TestFactory
  Stream<DynamicTest> every_malformed_request_gets_its_status_and_names_its_field() {
    assertTrue(CASES.size() >= 150, CASES.size() + " cases");
    return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
  }

  static void check(Case c) throws Exception {
    var req = client.request(c.method(), service.port(), "127.0.0.1", c.path());
    boolean hasType = false;
    for (var h : c.headers().entrySet()) {
      if (h.getKey().equals("Content-Type")) {
        hasType = true;
        if (h.getValue().isEmpty()) continue;
      }
      req.putHeader(h.getKey(), h.getValue());
    }
    HttpResponse<Buffer> r;
    if (c.body() == null) r = ServiceFixtures.await(req.send());
    else if (c.body() instanceof Buffer b) {
      if (!hasType) req.putHeader("Content-Type", "application/json");
      r = ServiceFixtures.await(req.sendBuffer(b));
    } else if (hasType) r = ServiceFixtures.await(req.sendBuffer(Buffer.buffer(((JsonObject) c.body()).encode())));
    else r = ServiceFixtures.await(req.sendJsonObject((JsonObject) c.body()));
    String text = r.bodyAsString();
    assertEquals(c.status(), r.statusCode(), text);
    JsonObject body = r.bodyAsJsonObject();
    assertNotNull(body.getString("error"), text);
    assertClean(text);
    if (c.field() != null) {
      JsonArray fields = body.getJsonArray("fields");
      assertNotNull(fields, text);
      assertTrue(fields.stream().map(JsonObject.class::cast).anyMatch(f -> f.getString("field").equals(c.field())), text);
    }
    if (c.status() == 503) assertNotNull(r.getHeader("Retry-After"));
  }

  /** No class names, Jackson features, reply addresses or absolute paths in what a client reads. */
  static void assertClean(String text) {
    for (String leak : List.of("Exception", "JsonReadFeature", "__vertx", "jackson", "java.", root.toAbsolutePath().toString(),
        Path.of("").toAbsolutePath().toString(), "[B@")) {
      assertFalse(text.contains(leak), "leaks '" + leak + "': " + text);
    }
  }

  // ------------------------------------------------------------------ answers that must be right at 200

  @Test
  void sizing_absurd_but_valid_loads_marks_cards_unfit_instead_of_wrapping() throws Exception {
    JsonObject body = new JsonObject().put("paramsBillions", 100_000).put("peakQps", 1_000_000).put("secondsPerRequest", 3600)
        .put("concurrentPerCard", 0.01);
    HttpResponse<Buffer> r = post("/api/sizing", body);
    assertEquals(200, r.statusCode(), r.bodyAsString());
    for (Object o : r.bodyAsJsonObject().getJsonArray("cards")) {
      JsonObject card = (JsonObject) o;
      assertFalse(card.getBoolean("fits"), card.encode());
      assertTrue(card.getString("reason").contains("more than 100000 cards"), card.encode());
    }
  }

  @Test
  void ranking_at_the_edges_of_the_ranges_never_plans_0_cards() throws Exception {
    JsonObject w = inference().put("paramsBillions", 100_000).put("peakQps", 1_000_000).put("concurrentPerCard", 0.01);
    HttpResponse<Buffer> r = post("/api/rank", scenarioWith(w));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    for (Object p : r.bodyAsJsonObject().getJsonArray("plans")) {
      for (Object pl : ((JsonObject) p).getJsonArray("placements")) assertTrue(((JsonObject) pl).getInteger("cards") > 0, pl.toString());
    }
  }

  @Test
  void a_reload_of_an_unknown_kind_is_answered_400() throws Exception {
    Path bad = root.resolve("adapters/zz-bad.yaml");
    Files.writeString(bad, "vendor: zz-bad\nkind: no-such-kind\ncurrency: USD\nterms: {}\n");
    try {
      HttpResponse<Buffer> r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/reload")
          .bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
      assertEquals(400, r.statusCode(), r.bodyAsString());
      assertNotNull(r.bodyAsJsonObject().getString("error"));
      assertClean(r.bodyAsString());
    } finally {
      Files.delete(bad);
    }
  }

  @Test
  void a_reload_of_a_vendor_file_with_a_recursive_alias_is_answered_400_naming_the_file() throws Exception {
    Path bad = root.resolve("adapters/zz-cycle.yaml");
    Files.writeString(bad, "vendor: zz-cycle\nkind: static\ncurrency: USD\nx: &a [*a]\n");
    try {
      HttpResponse<Buffer> r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/reload")
          .bearerTokenAuthentication(ServiceFixtures.TOKEN).send());
      assertEquals(400, r.statusCode(), r.bodyAsString());
      assertTrue(r.bodyAsJsonObject().getString("error").contains("zz-cycle.yaml: refused: a value holds itself"), r.bodyAsString());
      assertClean(r.bodyAsString());
    } finally {
      Files.delete(bad);
    }
  }

  @Test
  void the_20000_row_xfd_quote_sheet_is_refused_400_naming_the_limit() throws Exception {
    byte[] attack = dev.gpurent.quotesheet.Sheets.xfdAttack();
    var form = io.vertx.ext.web.multipart.MultipartForm.create().attribute("vendor", "acme")
        .binaryFileUpload("sheet", "attack.xlsx", Buffer.buffer(attack), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    HttpResponse<Buffer> r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/quote-sheets")
        .bearerTokenAuthentication(ServiceFixtures.TOKEN).sendMultipartForm(form));
    assertEquals(400, r.statusCode(), r.bodyAsString());
    JsonObject field = r.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0);
    assertEquals("offers!XFD1", field.getString("field"), r.bodyAsString());
    assertEquals("past the limit of 100 columns (A to CV) a quote sheet may use; nothing more was read", field.getString("reason"));
    assertClean(r.bodyAsString());
  }

  @Test
  void exports_name_a_file_source_relative_to_the_root_never_absolute() throws Exception {
    JsonObject scenario = scenarioWith(inference()).put("includeReference", true).put("vendors", new JsonObject()
        .put("only", new JsonArray().add("guide-reference")));
    for (String accept : List.of("application/json", "text/csv")) {
      HttpResponse<Buffer> r = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/rank").putHeader("Accept", accept)
          .sendJsonObject(scenario));
      assertEquals(200, r.statusCode(), r.bodyAsString());
      assertTrue(r.bodyAsString().contains("static:adapters/guide-reference.yaml"), accept + ": " + r.bodyAsString());
      assertFalse(r.bodyAsString().contains(root.toAbsolutePath().toString()), accept + ": " + r.bodyAsString());
    }
  }

  @Test
  void a_cross_origin_websocket_is_refused_and_the_own_origin_is_not() throws Exception {
    WebSocketClient ws = vertx.createWebSocketClient();
    WebSocketConnectOptions foreign = new WebSocketConnectOptions().setPort(service.port()).setHost("127.0.0.1").setURI("/ws")
        .addHeader("Origin", "http://evil.example");
    Throwable refused = ServiceFixtures.await(ws.connect(foreign).map(s -> (Throwable) null).otherwise(e -> e));
    assertNotNull(refused, "a foreign origin got a WebSocket");
    assertTrue(refused.getMessage().contains("403"), refused.getMessage());
    WebSocketConnectOptions own = new WebSocketConnectOptions().setPort(service.port()).setHost("127.0.0.1").setURI("/ws")
        .addHeader("Origin", "http://127.0.0.1:" + service.port());
    ServiceFixtures.await(ServiceFixtures.await(ws.connect(own)).close());
  }

  // ------------------------------------------------------------------ WebSocket frames

  static final List<String> BAD_FRAMES = List.of("not json", "[1]", "{\"subscribe\":\"x\"}", "{\"subscribe\":[1]}",
      "{\"subscribe\":" + ids(101) + "}", "{\"foo\":1}", "{\"subscribe\":[\"" + "x".repeat(65) + "\"]}", "{\"unsubscribe\":\"x\"}",
      "{\"subscribe\":{}}", "{\"subscribe\":null,\"unsubscribe\":7}", "42");

  static String ids(int n) {
    JsonArray a = new JsonArray();
    for (int i = 0; i < n; i++) a.add("id-" + i);
    return a.encode();
  }

  @TestFactory
  Stream<DynamicTest> every_malformed_websocket_frame_gets_one_error_reply() {
    return BAD_FRAMES.stream().map(frame -> DynamicTest.dynamicTest("frame " + shown(frame), () -> {
      List<JsonObject> replies = exchange(frame, 1);
      assertEquals(1, replies.size(), replies.toString());
      assertEquals("error", replies.get(0).getString("type"));
      assertClean(replies.get(0).encode());
    }));
  }

  @Test
  void an_unknown_scenario_id_gets_an_error_reply_naming_it() throws Exception {
    List<JsonObject> replies = exchange("{\"subscribe\":[\"nope\"]}", 1);
    assertEquals("nope", replies.get(0).getString("scenario"));
    assertTrue(replies.get(0).getString("error").contains("no live scenario"), replies.toString());
  }

  /** Sends one frame on a new dashboard and collects what arrives within a second (at least {@code expected}). */
  static List<JsonObject> exchange(String frame, int expected) throws Exception {
    List<JsonObject> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> enough = new CompletableFuture<>();
    var ws = ServiceFixtures.openSocket(vertx, service.port(), "/ws");
    ws.textMessageHandler(t -> {
      got.add(new JsonObject(t));
      if (got.size() >= expected) enough.complete(null);
    });
    ws.writeTextMessage(frame);
    enough.get(10, TimeUnit.SECONDS);
    Thread.sleep(300);  // anything more would be a second reply
    ServiceFixtures.await(ws.close());
    return List.copyOf(got);
  }

  // ------------------------------------------------------------------ the command line

  record Cli(String name, String file, String yaml, String[] args, int status, String mentions) {}

  static final String ALIAS_BOMB = "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n"
      + "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
      + "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
      + "workloads: [{kind: inference, paramsBillions: *f, peakQps: 1, secondsPerRequest: 1, concurrentPerCard: 1}]\n";

  static final String GOOD = "workloads:\n  - kind: inference\n    paramsBillions: 7\n    peakQps: 2\n    secondsPerRequest: 2\n"
      + "    concurrentPerCard: 4\n";

  static final List<Cli> CLI = List.of(
      new Cli("rank an alias bomb", "bomb.yaml", ALIAS_BOMB, new String[] {"rank"}, 2, "expands to more than"),
      new Cli("rank malformed YAML", "broken.yaml", "workloads: [1", new String[] {"rank"}, 2, "malformed YAML"),
      new Cli("rank a recursive alias", "cycle.yaml", "x: &a [*a]\n", new String[] {"rank"}, 2,
          "cycle.yaml: refused: a value holds itself (a recursive alias such as &a [*a])"),
      new Cli("rank a duplicate key", "twice.yaml", GOOD.replace("peakQps: 2", "peakQps: 2\n    peakQps: 500"), new String[] {"rank"}, 2,
          "duplicate key peakQps"),
      new Cli("rank gpuHoursPerMonth 0.001", "tinyhours.yaml", "workloads: [{kind: training, paramsBillions: 7, gpuHoursPerMonth: 0.001}]\n",
          new String[] {"rank"}, 2, "workloads[0].gpuHoursPerMonth: must be between 1 and"),
      new Cli("rank bandwidthMbps 5e-324", "slowlink.yaml", GOOD + "migration: {gb: 5000, bandwidthMbps: 5e-324}\n", new String[] {"rank"},
          2, "migration.bandwidthMbps: must be 0 or between 1 and"),
      new Cli("rank interruptible 'yes'", "yes.yaml", GOOD + "    interruptible: 'yes'\n", new String[] {"rank"}, 2,
          "workloads[0].interruptible: must be true or false, got 'yes'"),
      new Cli("advise a recursive alias", "fleetcycle.yaml", "fleet: &f {gpu: a100-80g-sxm, count: 4, pricePerCardMonth: 7500, x: *f}\n",
          new String[] {"advise"}, 2, "refused: a value holds itself"),
      new Cli("rank paramsBillions 1e12", "huge.yaml", GOOD.replace("paramsBillions: 7", "paramsBillions: 1e12"), new String[] {"rank"}, 2,
          "workloads[0].paramsBillions"),
      new Cli("rank concurrentPerCard 5e-324", "tiny.yaml", GOOD.replace("concurrentPerCard: 4", "concurrentPerCard: 5e-324"),
          new String[] {"rank"}, 2, "workloads[0].concurrentPerCard"),
      new Cli("rank currency XXX", "xxx.yaml", "currency: XXX\n" + GOOD, new String[] {"rank"}, 2, "currency"),
      new Cli("rank a binary name", "binary.yaml", "name: !!binary aGVsbG8=\n" + GOOD, new String[] {"rank"}, 2, "name: must be text"),
      new Cli("rank 51 workloads", "many.yaml", "workloads:\n" + ("  - {kind: inference, paramsBillions: 7, peakQps: 2, "
          + "secondsPerRequest: 2, concurrentPerCard: 4}\n").repeat(51), new String[] {"rank"}, 2, "at most 50 workloads"),
      new Cli("rank not a map", "list.yaml", "- 1\n- 2\n", new String[] {"rank"}, 2, "(root)"),
      new Cli("advise count 1e9", "fleet.yaml", "fleet: {gpu: a100-80g-sxm, count: 1e9, pricePerCardMonth: 7500}\n"
          + "utilization: {gpuPercent: 22, vramPercent: 30, peakQps: 8}\nworkload: {paramsBillions: 3.5, secondsPerRequest: 2, "
          + "concurrentPerCard: 4}\n", new String[] {"advise"}, 2, "fleet.count"),
      new Cli("sizing params 1e12", null, null, new String[] {"sizing", "--params", "1e12"}, 2, "--params: must be > 0"),
      new Cli("sizing qps 1e9", null, null, new String[] {"sizing", "--params", "7", "--qps", "1e9"}, 2, "--qps: must be > 0"),
      new Cli("sizing an unknown card", null, null, new String[] {"sizing", "--params", "7", "--gpu", "nope"}, 2, "unknown GPU"));

  @TestFactory
  Stream<DynamicTest> every_malformed_command_line_input_exits_2_naming_it() {
    return CLI.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      List<String> args = new ArrayList<>(List.of(c.args()));
      args.add("--root=" + root);
      if (c.file() != null) {
        Path f = root.resolve(c.file());
        Files.writeString(f, c.yaml());
        args.add(f.toString());
      }
      StringWriter out = new StringWriter(), err = new StringWriter();
      int status = Main.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
      assertEquals(c.status(), status, err.toString());
      assertTrue(err.toString().contains(c.mentions()), err.toString());
      assertFalse(err.toString().contains("Exception"), err.toString());
    }));
  }

  static HttpResponse<Buffer> post(String path, JsonObject body) throws Exception {
    return ServiceFixtures.await(client.post(service.port(), "127.0.0.1", path).sendJsonObject(body));
  }

  static int count() {
    return CASES.size() + BAD_FRAMES.size() + CLI.size();
  }

  @Test
  void at_least_150_hostile_inputs_are_covered() {
    assertTrue(count() >= 150, count() + " cases");
  }
}
