package dev.gpurent.service;
import dev.gpurent.service.boot.Bootstrap;
import dev.gpurent.testing.RunningService;
import dev.gpurent.testing.ServiceFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpurent.quotesheet.Sheets;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.multipart.MultipartForm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Quote sheets over REST, against the whole service: the template, an admin upload, its ranking, and refusals. */
class QuoteSheetServiceTest {

  static final String TOKEN = "test-admin-token";
  static final String XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  static RunningService app;
  static Vertx vertx;
  static Bootstrap.Running service;
  static WebClient client;
  @TempDir static Path root;

  @BeforeAll
  static void start() throws Exception {
    app = RunningService.prepare(root, QuoteSheetServiceTest::writeRoot).refreshed(false);
    vertx = app.vertx();
    client = app.client();
    service = app.start();
  }

  /** No vendor but the sheets the tests upload: the guide's scenario and the shipped configuration, with no cache. */
  static void writeRoot(Path root, dev.gpurent.testing.FakeVendorServer unused) throws Exception {
    Files.createDirectories(root.resolve("config/scenarios"));
    Files.createDirectories(root.resolve("adapters"));
    Files.copy(Path.of("config/gpus.yaml"), root.resolve("config/gpus.yaml"));
    Files.copy(Path.of("config/regions.yaml"), root.resolve("config/regions.yaml"));
    Files.copy(Path.of("config/scenarios/guide-template.yaml"), root.resolve("config/scenarios/guide-template.yaml"));
    JsonObject config = new JsonObject(ServiceFixtures.castMap(dev.gpurent.config.YamlFiles.load(Path.of("config/gpurent.yaml"))));
    config.getJsonObject("http").put("port", 0);
    // no spot rates: the shipped default is AWS's URL, and tests stay on loopback
    config.getJsonObject("quotes").put("cacheDir", "").put("spotRisk", "");
    config.getJsonObject("fx").put("source", Path.of("../shared/data/ecb/eurofxref-daily.2025-05-09.xml").toAbsolutePath().toString());
    Files.writeString(root.resolve("config/gpurent.yaml"), config.encodePrettily());
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  static HttpResponse<Buffer> upload(String token, String vendor, String name, byte[] sheet) throws Exception {
    return upload(token, vendor, name, sheet, "");
  }

  /** As above, with a query ({@code ?lang=zh}). */
  static HttpResponse<Buffer> upload(String token, String vendor, String name, byte[] sheet, String query) throws Exception {
    MultipartForm form = MultipartForm.create().attribute("vendor", vendor).binaryFileUpload("sheet", name, Buffer.buffer(sheet), XLSX);
    var req = client.post(service.port(), "127.0.0.1", "/api/admin/quote-sheets" + query);
    if (token != null) req.putHeader("Authorization", "Bearer " + token);
    return ServiceFixtures.await(req.sendMultipartForm(form));
  }

  /** Waits, on timers, until the vendor's first fetch after a reload is in the book. */
  static Future<JsonObject> fresh(String vendor) {
    Promise<JsonObject> p = Promise.promise();
    long[] timer = new long[1];
    timer[0] = vertx.setPeriodic(50, t -> client.get(service.port(), "127.0.0.1", "/api/vendors").send().onSuccess(r -> {
      for (Object o : r.bodyAsJsonArray()) {
        JsonObject v = (JsonObject) o;
        if (v.getString("vendor").equals(vendor) && "fresh".equals(v.getString("freshness"))) {
          vertx.cancelTimer(timer[0]);
          p.tryComplete(v);
        }
      }
    }));
    return p.future().timeout(30, TimeUnit.SECONDS);
  }

  static LocalDate today() {
    return LocalDate.now(ZoneOffset.UTC);
  }

  /**
   * A re-import reaches the rankings as one book that holds the vendor (issue 32): the reloaded
   * quote pipeline publishes nothing until it has tried every vendor once. This root keeps no last
   * good files, so a book published before that would lack every vendor. Books are read on the
   * address until the one with the re-imported sheet's fetch arrives.
   */
  @Test
  void a_re_import_is_one_book_change_that_never_lacks_the_vendor() throws Exception {
    byte[] sheet = Sheets.guideQuote(dev.gpurent.text.Lang.EN, today());
    assertEquals(201, upload(TOKEN, "reimport-co", "rfq.xlsx", sheet).statusCode());
    ServiceFixtures.await(fresh("reimport-co"));
    java.util.List<dev.gpurent.quote.QuoteBook> published = new java.util.concurrent.CopyOnWriteArrayList<>();
    ServiceFixtures.await(service.vertx().eventBus().<dev.gpurent.quote.QuoteBook>localConsumer(Addresses.QUOTES_CHANGED,
        m -> published.add(m.body())).completion());
    java.time.Instant before = java.time.Instant.now();
    HttpResponse<Buffer> again = upload(TOKEN, "reimport-co", "rfq.xlsx", sheet);
    assertEquals(201, again.statusCode(), again.bodyAsString());
    // the reloaded pipeline's book: the vendor fetched after the re-import
    Promise<Void> seen = Promise.promise();
    long timer = vertx.setPeriodic(50, t -> {
      if (published.stream().anyMatch(b -> b.vendor("reimport-co").map(e -> e.quotes().fetchedAt().isAfter(before)).orElse(false))) {
        seen.tryComplete();
      }
    });
    Future<Void> arrived = seen.future().timeout(30, TimeUnit.SECONDS).onComplete(x -> vertx.cancelTimer(timer));
    ServiceFixtures.await(arrived);
    // Every book published meanwhile carries the vendor with its two quotes: none lacks it. (Their
    // count is not asserted: on a loaded machine a freshness check of the other vendors may publish
    // one of its own in the window, which is not the re-import's.)
    for (var b : published) {
      assertEquals(2, b.vendor("reimport-co").orElseThrow(() -> new AssertionError("a book without the re-imported vendor"))
          .quotes().quotes().size());
    }
    // the other tests see the adapters they expect: this vendor taken out again
    for (Object f : again.bodyAsJsonObject().getJsonArray("files")) Files.delete(root.resolve("adapters").resolve((String) f));
    ServiceFixtures.await(service.vertx().eventBus().request(Addresses.ADMIN_RELOAD, null));
  }

  @Test
  void serves_the_blank_template_in_chinese() throws Exception {
    HttpResponse<Buffer> r = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/quote-sheets/template?lang=zh").send());
    assertEquals(200, r.statusCode());
    assertEquals(XLSX, r.getHeader("Content-Type"));
    assertEquals("attachment; filename=\"gpurent-quote-sheet-zh.xlsx\"", r.getHeader("Content-Disposition"));
    assertEquals("PK", r.body().getString(0, 2));
    HttpResponse<Buffer> bad = ServiceFixtures.await(client.get(service.port(), "127.0.0.1", "/api/quote-sheets/template?lang=fr").send());
    assertEquals(400, bad.statusCode());
    assertEquals("lang", bad.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0).getString("field"));
  }

  @Test
  void imports_an_uploaded_sheet_as_a_vendor_that_ranks_at_5000_cny() throws Exception {
    HttpResponse<Buffer> unauthorized = upload(null, "guide-quote", "rfq.xlsx", Sheets.guideQuote(dev.gpurent.text.Lang.EN, today()));
    assertEquals(401, unauthorized.statusCode());
    assertFalse(Files.exists(root.resolve("adapters/guide-quote.yaml")));

    HttpResponse<Buffer> r = upload(TOKEN, "guide-quote", "rfq.xlsx", Sheets.guideQuote(dev.gpurent.text.Lang.EN, today()));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject body = r.bodyAsJsonObject();
    assertEquals("guide-quote", body.getString("vendor"));
    assertEquals(2, body.getInteger("offers"));
    assertEquals(new JsonArray().add("guide-quote.yaml").add("guide-quote.quote.xlsx"), body.getJsonArray("files"));
    assertEquals(1, body.getInteger("vendors"));
    // the guide's "A100 40G" is two cards: read as the SXM one, and the sender asked which (said in the request's language)
    assertEquals(1, body.getJsonArray("warnings").size(), body.encode());
    assertTrue(body.getJsonArray("warnings").getString(0).startsWith("sheet offers, row 3, column A (GPU model): 'A100 40G' is more "
        + "than one card: read as NVIDIA A100 40GB SXM (a100-40g-sxm)"), body.getJsonArray("warnings").getString(0));
    assertTrue(Files.isRegularFile(root.resolve("adapters/guide-quote.yaml")));

    JsonObject status = ServiceFixtures.await(fresh("guide-quote"));
    assertEquals(2, status.getInteger("quotes"));
    JsonObject scenario = new JsonObject(ServiceFixtures.castMap(dev.gpurent.config.YamlFiles.load(Path.of("config/scenarios/guide-template.yaml"))));
    HttpResponse<Buffer> ranked = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/rank").sendJsonObject(scenario));
    assertEquals(200, ranked.statusCode(), ranked.bodyAsString());
    JsonObject best = ranked.bodyAsJsonObject().getJsonArray("plans").getJsonObject(0);
    assertEquals("guide-quote", best.getString("vendor"));
    assertEquals("5000.00", best.getString("monthlyTotal"));
  }

  @Test
  void refuses_a_bad_sheet_naming_its_cells() throws Exception {
    byte[] bad = Sheets.edit(Sheets.guideQuote(dev.gpurent.text.Lang.EN, today()),
        wb -> Sheets.cell(wb.getSheetAt(0), 2, "I").setCellFormula("1000+500"));
    HttpResponse<Buffer> r = upload(TOKEN, "bad-cloud", "rfq.xlsx", bad);
    assertEquals(400, r.statusCode());
    JsonObject body = r.bodyAsJsonObject();
    assertEquals("invalid quote sheet: nothing was written", body.getString("error"));
    JsonObject field = body.getJsonArray("fields").getJsonObject(0);
    assertEquals("offers!I2 (Price)", field.getString("field"));
    assertEquals("a formula (=1000+500): type the value itself", field.getString("reason"));
    assertFalse(Files.exists(root.resolve("adapters/bad-cloud.yaml")));
  }

  @Test
  void refuses_a_bad_sheet_in_chinese_under_lang_zh_keeping_each_cells_reference() throws Exception {
    byte[] bad = Sheets.edit(Sheets.guideQuote(dev.gpurent.text.Lang.ZH, today()), wb -> {
      Sheets.cell(wb.getSheetAt(0), 2, "I").setCellFormula("1000+500");
      Sheets.cell(wb.getSheetAt(0), 3, "L").setCellValue("2020-01-01");
    });
    HttpResponse<Buffer> r = upload(TOKEN, "bad-cloud", "rfq.xlsx", bad, "?lang=zh");
    assertEquals(400, r.statusCode());
    JsonObject body = r.bodyAsJsonObject();
    assertEquals("报价单无效：未写入任何内容", body.getString("error"));
    assertEquals(new JsonArray()
        .add(new JsonObject().put("field", "报价!I2 (价格)").put("reason", "这是公式「=1000+500」：请直接填写数值"))
        .add(new JsonObject().put("field", "报价!L3 (有效期至)").put("reason", "2020-01-01 已经过去（今天是 " + today()
            + "）：这份报价已失效，请向厂商索取最新报价")), body.getJsonArray("fields"));
    HttpResponse<Buffer> missing = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/quote-sheets?lang=zh")
        .putHeader("Authorization", "Bearer " + TOKEN).sendMultipartForm(MultipartForm.create().attribute("vendor", "x")));
    assertEquals(new JsonObject().put("field", "sheet").put("reason", "需要一个文件（.xlsx 工作簿，或报价表 .csv）"),
        missing.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0));
    HttpResponse<Buffer> big = upload(TOKEN, "big-cloud", "big.xlsx", new byte[6 * 1024 * 1024], "?lang=zh");
    assertEquals(413, big.statusCode());
    assertEquals(new JsonObject().put("error", "报价单超过 5 MB"), big.bodyAsJsonObject());
    HttpResponse<Buffer> unknown = upload(TOKEN, "bad-cloud", "rfq.xlsx", bad, "?lang=fr");
    assertEquals(400, unknown.statusCode());
    assertEquals("lang", unknown.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0).getString("field"));
    assertFalse(Files.exists(root.resolve("adapters/bad-cloud.yaml")));
  }

  @Test
  void refuses_an_upload_over_the_size_limit() throws Exception {
    HttpResponse<Buffer> r = upload(TOKEN, "big-cloud", "big.xlsx", new byte[6 * 1024 * 1024]);
    assertEquals(413, r.statusCode());
    assertEquals("quote sheet over 5 MB", r.bodyAsJsonObject().getString("error"));
    HttpResponse<Buffer> missing = ServiceFixtures.await(client.post(service.port(), "127.0.0.1", "/api/admin/quote-sheets")
        .putHeader("Authorization", "Bearer " + TOKEN).sendMultipartForm(MultipartForm.create().attribute("vendor", "x")));
    assertEquals(400, missing.statusCode());
    assertEquals("sheet", missing.bodyAsJsonObject().getJsonArray("fields").getJsonObject(0).getString("field"));
  }
}
